"""Where rebalancing's reach ends: each launch of each program, its block size as the host
values know it, and its kernel's block-agnostic verdict.

    python bench/launches.py TREE... [--counts] [-- TRANSLATE OPTIONS]

The programs are bench/reach.py's (a file, or a folder translated as a tree). Each is
translated in process, as reach.py does; the first time the rebalancing pass runs on a
file (its launches as written) it prints, for each launch there, one line:

    FILE  KERNEL  block=TEXT  values=(...)  why=REASON-IF-UNKNOWN | VERDICT

VERDICT is `agnostic (guard)` / `agnostic (grid-stride)`, the reason the kernel's result
may depend on its block, or `not defined here`. A launch moves only when its block is one
known value other than `--block-size` (256) and its kernel is agnostic: reach.py counts
the refusals (L009), this lists the launches no refusal names, such as those already at
256. `--counts` prints, instead, how many launches fall in each case.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    import reach
    argv, options = reach.split_options(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--counts", action="store_true")
    args = parser.parse_args(argv)
    import translator.passes.rebalance as rebalance
    from translator.facts.block_agnostic import BlockAgnostic
    from translator.facts.host_values import HostValues
    from translator.ir.block_agnostic import Agnostic

    rows: list[tuple] = []
    passes = rebalance.block_size.rebalance

    listed_files: set[str] = set()

    def listed(ctx) -> None:
        if str(ctx.source.path) in listed_files:        # a later round: its launches as rewritten
            return passes(ctx)
        listed_files.add(str(ctx.source.path))
        values = ctx.facts.get(HostValues)
        defined = {k.name: k for k in ctx.module.kernels if k.body_span is not None}
        for site in ctx.module.launches:
            size = values.block_size(site)
            name = site.kernel.rsplit("::", 1)[-1]
            kernel = defined.get(name)
            verdict = ctx.facts.get(BlockAgnostic).of(kernel) if kernel is not None else None
            how = "not defined here" if kernel is None else \
                f"agnostic ({verdict.form})" if isinstance(verdict, Agnostic) else verdict.reason
            rows.append((str(ctx.source.path), name, " ".join(site.block.text.split()), size.values, size.reason,
                         how, ctx.options.block_size))
        passes(ctx)

    rebalance.block_size.rebalance = listed
    for program in reach.programs(args.trees):
        reach.translate(program, [*options, "-j", "1"])     # in this process, where the hook is
    if not args.counts:
        for path, name, block, known, why, how, _ in rows:
            print(f"{path}  {name}  block={block}  values={known}  why={why or '-'} | {how}")
        return
    cases: collections.Counter = collections.Counter()
    for *_, known, _, how, target in rows:
        size = "block unknown" if not known else "several blocks" if len(known) > 1 else \
            "block at --block-size" if known[0] == target else "block elsewhere"
        cases[(size, "agnostic" if how.startswith("agnostic") else "not defined here"
               if how == "not defined here" else "block-dependent")] += 1
    print(f"launches: {len(rows)}")
    for (size, verdict), count in sorted(cases.items(), key=lambda item: -item[1]):
        print(f"  {count:>4}  {size:<22} {verdict}")


if __name__ == "__main__":
    main()
