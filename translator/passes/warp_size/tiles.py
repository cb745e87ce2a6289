"""W231: a 32-thread tile used as a warp among code that computes lanes from `warpSize`.

What it does:
    `tiled_partition<32>` and `thread_block_tile<32>` make 32-thread tiles on every
    target: on CDNA a tile is half a 64-lane wavefront, and the tile's own operations
    (`tile.shfl_down`, `tile.sync()`, `tile.thread_rank()`) keep CUDA's meaning, so a
    tile on its own is left alone. Where the functions it shares values with compute
    lanes, warps, offsets or widths from `warpSize`, the tile is treated as a warp that
    it is not on CDNA (two tiles per wavefront): the tile is reported, with the fix.
Legal when:
    Nothing is rewritten: which of the two widths the code means is not knowable.
Not handled:
    Tiles made in macro bodies; `tiled_partition(block, 32)` (the run-time form).
Example:
    auto t = cg::tiled_partition<32>(block); ... threadIdx.x / warpSize ...
    -> reported: use `t.meta_group_rank()` for the tile's index
Safety:
    report only.
"""

from __future__ import annotations

from translator.catalog import WARNING, rule
from translator.ir.warp import component_model, warp_facts
from translator.passes import Context

TILE = rule(
    "W231", "tile-32-as-warp", WARNING, "a 32-thread tile is used as a warp next to `warpSize` arithmetic", """
A `tiled_partition<32>` tile has 32 threads on every target: on CDNA (64-lane
wavefronts) it is half a wavefront, so a wavefront holds two tiles. Code around it that
computes lanes or warps from `warpSize` counts one warp where there are two tiles. Index
tiles with the tile's own `meta_group_rank()` and `thread_rank()`, or use a tile of
`warpSize` threads through the run-time `tiled_partition(block, warpSize)`.""",
    topic="warp-size",
    example="#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
            "__global__ void k(int *out, int v) {\n"
            "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
            "  v += tile.shfl_down(v, 16);\n"
            "  if (tile.thread_rank() == 0) out[threadIdx.x / warpSize] = v;\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
RULES = (TILE,)


def run(ctx: Context) -> None:
    if ctx.round > 0:
        return
    facts = warp_facts(ctx.parsed)
    for component in facts.graph.components():
        sub = facts.within(component)
        if sub.tiles and component_model(sub) == "mixed":
            for tile in sub.tiles:
                start, end = tile.span
                ctx.report(TILE, start, f"'{tile.text}' is half a 64-lane wavefront on CDNA, but the functions it "
                           "shares values with compute lanes or warps from warpSize: index tiles with the tile's "
                           "meta_group_rank() and thread_rank(), not warpSize", end=end)
