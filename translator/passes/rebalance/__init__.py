"""The rebalancing pass: launches of block-size agnostic kernels move to the configured
block size (L007-L010).

Launch configurations tuned for NVIDIA are often wrong for AMD: a 32-thread block fills
half a 64-lane wavefront, a 1024-thread block makes HIP-Clang budget registers for 16
waves per block, and a grid sized for 132 SMs leaves an MI300X's 304 CUs idle.
`block_size` moves each launch whose kernel's result cannot depend on its block size
(translator.ir.block_agnostic) to `--block-size` (default 256) and recomputes a
ceiling-division grid from the same element count (L007), or says why it cannot (L009;
L010 for blocks that waste part of a wavefront); `resident_grid` sizes the fixed grid of a
grid-stride kernel from the device's compute-unit count at run time (L008).

It restructures launches, so it runs with the restructuring passes, before fusion (in a
round where it moves launches, fusion waits for the next, whose launches may now make
chains), until the renaming passes run; the launch bounds see the new block sizes. `--no-rebalance` (or
`rebalance = false`) turns it off.
"""

from __future__ import annotations

from translator.facts.block_agnostic import BlockAgnostic
from translator.facts.host_values import HostValues
from translator.facts.kernel_launches import KernelLaunches
from translator.options import DECLARED
from translator.passes import Context, register_pass
from translator.passes.rebalance import block_size, resident_grid

RULES = (block_size.REBALANCED, resident_grid.RESIDENT_GRID, block_size.NOT_REBALANCED, block_size.WASTED_LANES)


@register_pass("rebalancing", rules=RULES,
               requires=("kernels", "launches", "tree", "macros", HostValues, KernelLaunches, BlockAgnostic),
               targets=("hip", "cuda"), restructures=True, options=DECLARED["rebalancing"])
def run(ctx: Context) -> None:
    if not ctx.options.rebalance or ctx.rewritten or not ctx.module.launches:
        return      # off, or the renaming passes have run: the launches were settled before
    block_size.rebalance(ctx)
