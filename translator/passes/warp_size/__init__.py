"""The warp-size pass: CUDA's 32-lane assumptions made correct on 64-lane wavefronts (W2xx).

CDNA (gfx9) runs 64-lane wavefronts, RDNA 32 under HIP; CUDA code written for 32 lanes
compiles after renaming and then computes wrong answers or hangs on CDNA. The pass reads
the file's device code through translator.ir.calls (kernels, `__device__` helpers and the
call graph: a helper and its callers share values, so they are judged together) and
translator.ir.warp (thread values, lane and warp arithmetic, shuffles and what their
offsets were written for, votes, 32-bit masks and ballots, 32-thread tiles), and decides
per call-graph component which lane model the code follows:

- "32" (or no lane arithmetic): every shuffle gets an explicit width of 32, so each
  32-lane half of a wavefront is one CUDA warp and the `% 32`, `/ 32` arithmetic stays
  right (shuffles: W201); what cannot act on 32-lane groups is reported with the fix:
  whole-wavefront votes (masks: W214) and 32-bit ballots (W213).
- "warpSize": a warp is the wavefront; 32-bit ballots are widened to
  `unsigned long long` and counted with `__popcll`/`__ffsll` (W213).
- mixed, where every 32 can be written from `warpSize`: all of them are, together
  (shuffle loops: W202; lane arithmetic: W221); else each 32 site is reported (W203,
  W222, tiles: W231).

Everywhere: a variable holding `__activemask()` used only as a mask becomes 64-bit (W212);
32-bit masks of `*_sync` calls that are not all ones are reported (W211). The hipify
pass's warp_sync module owns the builtins' names and full literal masks for the target
ROCm version (H006, H014, H016); this pass's edits never touch the same bytes (a width
is inserted after the last argument; a type or a loop bound is replaced). Diagnostics
are said of the input (round 0); fixes are recognised as done in later rounds and in a
second run (a width present, a 64-bit type, `warpSize` bounds), so the output is a fixed
point. The modules in FAMILIES are one rule family each, with RULES and run(ctx); `ptx`
is inline PTX (W240-W246), whose table of PTX -> HIP rewrites is `ptx_rewrites`; `rows`
is `warpSize` used as the width of a block row (W223, W224).
"""

from __future__ import annotations

from translator.facts.warp import WarpFacts
from translator.frontend import words_of
from translator.ir.macros import included_headers
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS
from translator.passes import Context, register_pass
from translator.facts.host_values import HostValues
from translator.passes.warp_size import lanes, masks, ptx, rows, shuffles, tiles

# The rule families, each a module with RULES and run(ctx).
FAMILIES = (shuffles, masks, lanes, rows, tiles, ptx)
RULES = tuple(r for family in FAMILIES for r in family.RULES)
# A file that names none of these has no finding: every rule needs a warp builtin,
# `warpSize`, a cooperative group's shuffle or tile, or inline assembly (lane arithmetic
# on 32 alone is left as it is), here or in a local header it includes (whose device
# functions its own calls: lanes of 32 calling a header's reduction over warpSize).
_WORDS = frozenset(w.encode() for w in WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS | {
    "warpSize", "tiled_partition", "thread_block_tile", "coalesced_threads", "shfl", "shfl_up", "shfl_down",
    "shfl_xor", "asm", "__asm__", "__asm"})


@register_pass("warp-size", rules=RULES, requires=("kernels", "launches", "tree", WarpFacts, HostValues),
               targets=("hip", "cuda"))
def run(ctx: Context) -> None:
    if _WORDS.isdisjoint(ctx.parsed.words) and not any(
            not _WORDS.isdisjoint(words_of(text)) for _, text in
            included_headers(ctx.source.path, ctx.parsed.data, dict(ctx.options.local_headers))):
        return
    for family in FAMILIES:
        family.run(ctx)
