"""W201, W202, W203: shuffle reductions, scans and broadcasts written for 32 lanes.

What it does:
    Reads each `__shfl*` call of the file's device code (kernels and the `__device__`
    helpers they call: translator.ir.warp) and the lane model of the functions it shares
    values with (its call-graph component). In a component written for 32-lane warps
    (lane arithmetic on 32, or none at all), a shuffle without a `width` gets an explicit
    width of 32 (W201): `__shfl_down_sync(m, v, o)` -> `__shfl_down_sync(m, v, o, 32)`.
    In a component that computes its lanes from `warpSize`, a shuffle loop written for
    32 lanes gets warpSize-generic bounds (W202): a reduction loop from 16 starts at
    `warpSize / 2`, a scan loop to 32 runs to `warpSize`; where the rest of the component
    can be rewritten to warpSize with it (see translator.passes.warp_size.lanes), it is.
    Where neither model holds (a 32-lane reduction unrolled by hand next to `% warpSize`
    lane arithmetic), W203 says where, with both fixes.
Legal when:
    W201: CUDA's shuffle width is always 32; HIP's `width` argument makes each 32-lane
    half of a 64-lane wavefront behave as one CUDA warp (source lanes, the out-of-range
    rule of up/down/xor), so every lane computes what it computed under CUDA, and lane
    and warp arithmetic on 32 stays right. On CUDA and wave32 a width of 32 is the
    default: nothing changes. Not done where any function of the component computes
    lanes or offsets from `warpSize`: there 32-lane groups would be inconsistent.
    W202: `warpSize / 2` is 16 on CUDA and wave32 (nothing changes), and the reduction
    then covers the whole wavefront, which the component's `% warpSize` lane arithmetic
    expects.
Not handled:
    Shuffles in macro bodies; offsets passed in from a caller whose value is not seen
    (they are given the width too in a 32-lane component: the width does not depend on
    the offset); cooperative-group tiles' `shfl` methods (a tile's width is its size).
Example:
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    -> ... v += __shfl_down(v, o, 32);              (ROCm below 6.2; hipify drops the mask)
Safety:
    semantic: the shuffle keeps CUDA's meaning on 64-lane wavefronts, proven by the lane
    model of its component.
"""

from __future__ import annotations

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir.warp import clean_at, component_model, warp_facts
from translator.passes import Context

WIDTH = rule(
    "W201", "shuffle-width-32", NOTE, "a shuffle written for 32 lanes gets an explicit width of 32", """
CUDA's warp has 32 lanes; CDNA's wavefront has 64. A shuffle reduction whose offsets
start at 16 (or a scan that runs to 32, or a broadcast from a lane below 32) reduces
only each 32-lane half on CDNA when the shuffle spans the whole wavefront: lane 31 reads
lane 47 in a `__shfl_down` by 16, and lane 0 ends with half the sum. With `width = 32`
each half of the wavefront behaves exactly as a CUDA warp, so the code's lane and warp
arithmetic on 32 (`threadIdx.x % 32`, `threadIdx.x / 32`, one shared slot per 32 lanes)
stays right. On CUDA and wave32 the width is the default: nothing changes.""",
    edits=True, safe=False, topic="warp-size",
    example="__device__ int sum(int v) {\n"
            "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
            "  return v;\n}\n",
    translation="__device__ int sum(int v) {\n"
                "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, 32);\n"
                "  return v;\n}\n",
    options=("--target", "cuda"))
LOOP = rule(
    "W202", "shuffle-loop-warpsize", NOTE, "a shuffle loop written for 32 lanes runs over `warpSize` lanes", """
The functions around this loop compute lanes and warps from `warpSize` (`threadIdx.x %
warpSize`), so a warp here is the hardware's: 64 lanes on CDNA. A reduction loop that
starts at 16 then leaves lane 0 with the sum of 32 lanes only, and a scan that stops at
32 scans half a wavefront. The loop now starts at `warpSize / 2` (or runs to
`warpSize`), which is 16 (32) on CUDA and wave32: nothing changes there.""",
    edits=True, safe=False, topic="warp-size",
    example="__device__ int sum(int v) {\n"
            "  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n"
            "  return v;\n}\n"
            "__global__ void k(int *out, int v) {\n"
            "  v = sum(v);\n"
            "  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;\n}\n",
    translation="__device__ int sum(int v) {\n"
                "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n"
                "  return v;\n}\n"
                "__global__ void k(int *out, int v) {\n"
                "  v = sum(v);\n"
                "  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
MIXED = rule(
    "W203", "shuffle-mixed-widths", WARNING, "a shuffle written for 32 lanes sits among `warpSize` lane arithmetic", """
The shuffle's offsets are written for 32 lanes (an unrolled reduction from 16, a source
lane of 31 ...) while the functions it shares values with compute lanes or offsets from
`warpSize`: on CDNA's 64-lane wavefronts one of the two is wrong, and which one depends
on what the code means, so nothing is rewritten. Either make the shuffles generic
(offsets from `warpSize / 2`) or keep 32-lane groups throughout (an explicit `width` of
32 on every shuffle, and `% 32`, `/ 32` for lanes and warps).""",
    topic="warp-size",
    example="__global__ void k(int *out, int v) {\n"
            "  v += __shfl_down_sync(0xffffffff, v, 16);\n"
            "  v += __shfl_down_sync(0xffffffff, v, 8);\n"
            "  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
RULES = (WIDTH, LOOP, MIXED)


def run(ctx: Context) -> None:
    facts = warp_facts(ctx.parsed)
    for component in facts.graph.components():
        sub = facts.within(component)
        if not sub.shuffles:
            continue
        model = component_model(sub)
        for shuffle in sub.shuffles:
            if model in ("32", "none") and shuffle.basis in ("32", "neutral", "unknown"):
                if not shuffle.has_width and clean_at(ctx.parsed, shuffle.span):
                    ctx.fix(WIDTH, Edit(shuffle.width_at, shuffle.width_at, b", 32"),
                            f"{shuffle.name}: width 32, so that each 32-lane half of a 64-lane wavefront is one "
                            "CUDA warp")
            elif model == "generic" and shuffle.basis == "32":
                if all(clean_at(ctx.parsed, e.span) for e in shuffle.loop):
                    ctx.fix(LOOP, tuple(Edit(*e.span, e.text.encode()) for e in shuffle.loop),
                            f"{shuffle.name} loop over warpSize lanes, as the lane arithmetic around it")
            elif model == "mixed" and shuffle.basis == "32" and ctx.round == 0:
                start, end = shuffle.span
                ctx.report(MIXED, start, f"'{shuffle.name}' with offset '{shuffle.offset}' is written for 32 "
                           "lanes, but the functions it shares values with compute lanes from warpSize: on 64-lane "
                           "wavefronts one of them is wrong; start the offsets at warpSize / 2 (and use warpSize "
                           "for every lane and warp), or keep 32-lane groups (add a width of 32 to every shuffle "
                           "and use % 32 and / 32)", end=end, subject=shuffle.name)
