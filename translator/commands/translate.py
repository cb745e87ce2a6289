"""`cu2hip translate`: translate files and trees, write the results, summarize."""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

from translator.commands.run import Batch, Progress, write_atomic
from translator.inputs import UNWRITABLE, open_regular, problem, read_regular
from translator.output.jsonfmt import to_json
from translator.settings import Settings, UsageError
from translator.stats import CSV_HEADER, Stats
from translator.workspace import CUDA_SUFFIXES, Selection, Workspace


def _output_folder(args, settings: Settings) -> Path | None:
    """The folder translations go under (None: in place, to stdout, to one file, or nowhere)."""
    output = settings.output
    if args.pre_commit and output is None:
        raise UsageError("--pre-commit writes under the configured `output`: set it in [tool.cu2hip] or give -o")
    elsewhere = args.stdout or args.examine or args.in_place or args.output_file
    if not (output or elsewhere):
        raise UsageError("say where the output goes: -o DIR, --in-place, --stdout or --examine")
    if args.only_translated and args.copy_all:
        raise UsageError("--only-translated and --copy-all contradict each other")
    return None if elsewhere else output


def _stats_stream(args):
    """Where statistics go: --o-stats FILE, else stdout (stderr when stdout has the translation)."""
    if not args.o_stats:
        return sys.stderr if args.stdout else sys.stdout
    try:
        return open(args.o_stats, "w", encoding="utf-8", newline="")
    except OSError as exc:
        raise UsageError(f"--o-stats: cannot write {args.o_stats}: {exc.strerror or exc}") from None


def run(args, settings: Settings) -> int:
    output = _output_folder(args, settings)
    selection = Selection(output, not settings.only_translated, args.in_place, settings.include, settings.exclude,
                          settings.config.root if settings.output_from_config and output is not None else None)
    workspace = Workspace.collect(args.paths, selection)
    if workspace.onto_inputs:
        raise UsageError(f"the output folder {output} would overwrite the inputs themselves "
                         f"({', '.join(workspace.onto_inputs)}): to rewrite them, use --in-place")
    if (args.stdout or args.output_file) and len(workspace.jobs) != 1:
        raise UsageError(f"{'--stdout' if args.stdout else '-o FILE'} takes exactly one file "
                         f"({len(workspace.jobs)} given)")
    if args.pre_commit and settings.config.rocm_version is None and args.rocm_version is None:
        print(f"cu2hip: warning: rocm-version is not set in the configuration: the output depends on this "
              f"machine ({settings.describe_target()})", file=sys.stderr)
    for d in workspace.problems:
        print(d.format(), file=sys.stderr)
    total = Stats()
    stats_stream = _stats_stream(args)
    print_stats = args.print_stats or (args.examine and not args.no_output)
    csv_rows = [CSV_HEADER] if args.print_stats_csv else None
    errors = sum(d.severity == "error" for d in workspace.problems)
    warnings = sum(d.severity == "warning" for d in workspace.problems)
    write_failed = printed_nothing = False
    rewritten = 0
    results = []
    quiet = args.quiet or args.pre_commit
    progress = Progress.on(sys.stderr, len(workspace.jobs), quiet)
    batch = Batch(workspace, settings.options, settings.jobs, args.cache)
    for job, result in batch.results():
        progress.clear()
        for d in result.diagnostics:
            print(d.format(), file=sys.stderr)
        errors += result.errors
        if args.report:
            results.append(result)
        where = job.source if args.in_place or job.destination is None else job.destination
        try:
            if result.skipped and result.errors:
                # Not translated (binary, unreadable, too large): nothing is written, and
                # --stdout fails, or `> f.hip` would leave an empty file and a success.
                printed_nothing = args.stdout
            elif args.stdout:
                sys.stdout.buffer.write(result.output)
                sys.stdout.flush()
            elif args.output_file:
                where = Path(args.output_file)
                write_atomic(where, result.output, like=job.source)
            elif args.in_place:
                if result.changed:
                    # Through a symbolic link the user named: rewrite the file it points to.
                    target = Path(os.path.realpath(job.source))
                    write_atomic(target, result.output, like=target, durable=True)
            elif job.destination is not None:
                if result.changed or job.source.suffix in CUDA_SUFFIXES or job.included \
                        or not settings.only_translated:
                    # Every path the file was reached by (translated once).
                    for where in (job.destination, *job.also):
                        if _write_if_different(where, result.output, job.source):
                            rewritten += 1
                            if args.pre_commit:
                                print(f"Rewriting {_shown(where)}")
        except OSError as exc:
            write_failed = True
            errors += 1
            print(problem(UNWRITABLE, where, f"cannot write: {exc.strerror or exc}; the file is unchanged").format(),
                  file=sys.stderr)
        if print_stats:
            one = Stats()
            one.add(result, count_lines=True)
            if csv_rows is not None:
                csv_rows += one.csv_rows(job.display)
            else:
                stats_stream.write(one.render(job.display))
        total.add(result, count_lines=print_stats)
        progress.show(job.display)
    progress.clear()
    for src, dst in workspace.copies:
        try:
            _copy(src, dst, workspace.links.get(dst))
        except OSError as exc:
            write_failed = True
            errors += 1
            print(problem(UNWRITABLE, dst, f"cannot write: {exc.strerror or exc}").format(), file=sys.stderr)
    if csv_rows is not None:
        csv_rows += total.csv_rows("total")
        csv.writer(stats_stream, lineterminator="\n").writerows(csv_rows)
    elif print_stats and total.files > 1:
        stats_stream.write(total.render("total"))
    if args.o_stats:
        stats_stream.close()
    if args.report:
        try:
            Path(args.report).write_text(to_json(results, tool_version=_version(), summary=total.summary()),
                                         encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--report: cannot write {args.report}: {exc.strerror or exc}") from None
    if not quiet:
        rules = ", ".join(f"{k}: {v}" for k, v in sorted(total.by_rule.items())) or "none"
        copied = f"{len(workspace.copies)} copied, " if workspace.copies else ""
        cached = f", {batch.hits} cached" if batch.hits else ""
        print(f"cu2hip: {total.files} files, {total.changed_files} changed, {copied}{total.converted} edits ({rules}), "
              f"{errors} errors, {total.warnings + warnings} warnings{cached}; target {settings.describe_target()}",
              file=sys.stderr)
    if write_failed or printed_nothing:
        return 1        # a failed write breaks the command's contract whatever --strict says
    if args.pre_commit and rewritten:
        return 1        # pre-commit's contract: files were changed, look at them and commit again
    return 1 if settings.strict and errors else 0


def _write_if_different(path: Path, data: bytes, like: Path) -> bool:
    """Write unless the file already holds exactly `data` (its time stamp is then kept)."""
    try:
        if path.stat().st_size == len(data) and read_regular(path) == data:
            return False
    except OSError:
        pass
    write_atomic(path, data, like=like)
    return True


def _shown(path: Path) -> str:
    """A path relative to the working folder when it is below it (as pre-commit shows them)."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


def _copy(src: Path, dst: Path, link: str | None) -> None:
    """Copy a file, never blocking on one that became a FIFO since the walk; a link stays a
    link: `link`, to its target's mirror, where the target is in the tree."""
    if src.is_symlink():
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        os.symlink(link if link is not None else os.readlink(src), dst)
        return
    with open_regular(src) as handle:
        write_atomic(dst, handle, like=src)


def _version() -> str:
    from translator import __version__
    return __version__
