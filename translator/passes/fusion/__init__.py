"""The fusion pass: chains of elementwise launches become one launch of a fused kernel (F0xx).

`chains` finds the chains and says why each other pair of consecutive launches cannot
be fused (F002); `rewrite` renders the fused kernel from templates/ and replaces the
chain (F001). The pass restructures code, so it runs before the renaming passes and, in
a round where it has fixes, alone: the next round translates what it generated.
It runs for both targets (`--target cuda` checks fused code on NVIDIA hardware), once: on
the input, or on the rebalancing pass's output when that moved launches (equal launch
configurations make chains); not on its own fused code or after the renaming passes
(which make no new chain); not at all with `--no-fuse`.
"""

from __future__ import annotations

from translator.facts.aliases import Aliases
from translator.facts.elementwise import Elementwise
from translator.facts.host_values import HostValues
from translator.facts.statements import LaunchBlocks
from translator.options import DECLARED
from translator.passes import Context, register_pass
from translator.passes.fusion import chains, rewrite

RULES = (rewrite.FUSED, chains.NOT_FUSED)


@register_pass("fusion", rules=RULES, requires=("kernels", "launches", "tree", "macros", LaunchBlocks, Elementwise, Aliases, HostValues), targets=("hip", "cuda"),
               after=("rebalancing",), restructures=True,
               options=DECLARED["fusion"])
def run(ctx: Context) -> None:
    if not ctx.options.fuse or ctx.fixes or ctx.rewritten or rewrite.FUSED.id in ctx.applied \
            or b"<<<" not in ctx.source.data:
        return      # rebalancing moved launches this round (the next sees them), or the chains are fused
    found = chains.find_chains(ctx, ctx.parsed, ctx.module)
    taken = set(w.decode("utf-8", "replace") for w in ctx.parsed.words)
    inserted: dict[str, str] = {}
    for chain in found:
        rewrite.fuse(ctx, chain, taken, inserted)
