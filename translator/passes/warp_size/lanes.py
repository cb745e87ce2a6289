"""W221, W222: lane and warp arithmetic on 32 among code that computes lanes from `warpSize`.

What it does:
    Reads the lane sites of the file's device code (translator.ir.warp): arithmetic that
    splits a thread value into lanes and warps on 32 (`threadIdx.x % 32`, `& 31`,
    `& 0x1f`, `/ 32`, `>> 5`, `blockDim.x / 32`, `lane == 31`; the 32 a literal, or a
    macro or `const` of the file that is one: `% WARP_SIZE`). In code written for
    32-lane warps throughout these are right on CDNA as they are, once the shuffles act
    on 32-lane groups (W201): nothing is said. Where the functions a site shares values
    with (its call-graph component) compute other lanes, offsets or widths from
    `warpSize`, the 32 is inconsistent with them on 64-lane wavefronts. When every 32 of
    the component can be written from `warpSize` (each lane site, and each shuffle loop,
    W202), they all are (W221): `% 32` -> `% warpSize`, `& 31` -> `& (warpSize - 1)`,
    `/ 32` and `>> 5` -> `/ warpSize`, `lane == 31` -> `lane == warpSize - 1`. Otherwise
    each site is reported with the fix (W222).
Legal when:
    The whole component is rewritten together, so lanes, warps and shuffles agree on one
    width; no warp index computed here indexes a pointer parameter (a per-warp output in
    global memory, whose layout the host sized for 32-lane warps: W222 instead), and no
    32-thread tile is used as a warp. Per-warp arrays sized for 32-lane warps stay: with
    64-lane warps they are an upper bound. On CUDA `warpSize` is 32: nothing changes.
Not handled:
    Lane arithmetic on values that do not come from the thread's index (data, hash bits:
    never touched); 32 as a tile edge or a block size (not lane arithmetic); code in macro
    bodies. A comparison with 32 (`threadIdx.x < 32` for "the first warp") is not taken for
    lane arithmetic: it is as often a count of 32 buckets. It sets no lane model, but in
    code that mixes lanes of 32 with `warpSize` it has no known rewrite, so nothing there
    is rewritten and it is reported with the rest (W222). `warpSize` is never written
    where a constant expression is needed (it is not one from ROCm 7.0, nor on CUDA).
Example:
    int lane = threadIdx.x % 32;  ... for (int o = warpSize / 2; o > 0; o /= 2) ...
    -> int lane = threadIdx.x % warpSize; ...
Safety:
    semantic: applied only where the component's model then uses one width throughout.
"""

from __future__ import annotations

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir.warp import clean_at, component_model, warp_facts
from translator.passes import Context

GENERIC = rule(
    "W221", "lane-arithmetic-warpsize", NOTE, "lane and warp arithmetic on 32 is written with `warpSize`", """
The code around this expression computes lanes, offsets or shuffle widths from `warpSize`,
so a warp here is the hardware's wavefront: 64 lanes on CDNA. A lane or warp index on 32
would put two of its warps in one wavefront, out of step with the shuffles. Every 32 of
the functions that share these values is rewritten together: `% 32` to `% warpSize`,
`& 31` to `& (warpSize - 1)`, `/ 32` and `>> 5` to `/ warpSize`, `lane == 31` to
`lane == warpSize - 1`. On CUDA `warpSize` is 32: nothing changes.""",
    edits=True, safe=False, topic="warp-size",
    example="__global__ void k(int *out, int v) {\n"
            "  int lane = threadIdx.x % 32;\n"
            "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
            "  __shared__ int part[32];\n"
            "  if (lane == 0) part[threadIdx.x / 32] = v;\n"
            "  __syncthreads();\n"
            "  if (threadIdx.x == 0) out[blockIdx.x] = part[0];\n}\n",
    translation="__global__ void k(int *out, int v) {\n"
                "  int lane = threadIdx.x % warpSize;\n"
                "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
                "  __shared__ int part[32];\n"
                "  if (lane == 0) part[threadIdx.x / warpSize] = v;\n"
                "  __syncthreads();\n"
                "  if (threadIdx.x == 0) out[blockIdx.x] = part[0];\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
MIXED = rule(
    "W222", "lane-arithmetic-mixed", WARNING, "lane or warp arithmetic on 32 among code that uses `warpSize`", """
This expression splits threads into lanes or warps of 32 while the functions it shares
values with compute lanes, offsets or widths from `warpSize` (64 on CDNA). The two
disagree on 64-lane wavefronts, and not every 32 of these functions can be rewritten
(a warp index that addresses global memory, whose layout the host sized for 32-lane
warps; a shuffle reduction unrolled by hand; a 32-thread tile; a test for the first 32
threads, `threadIdx.x < 32`, which may mean the first warp or 32 items), so nothing is. Either
use `warpSize` throughout (and size per-warp buffers on the host from
`hipDeviceAttributeWarpSize`), or keep 32-lane groups (`% 32`, `/ 32`, and a `width` of
32 on every shuffle).""",
    topic="warp-size",
    example="__global__ void k(int *out, int v) {\n"
            "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
            "  if (threadIdx.x % warpSize == 0) out[threadIdx.x / 32] = v;\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
RULES = (GENERIC, MIXED)

_WHAT = {"lane": "a lane index", "warp": "a warp index", "warps": "a count of warps", "last": "the last lane",
         "first": "a test for the first 32 threads"}


def run(ctx: Context) -> None:
    facts = warp_facts(ctx.parsed)
    for component in facts.graph.components():
        sub = facts.within(component)
        sites = [s for s in sub.lanes if s.width == "32"]
        narrow = [h for h in sub.headers if h.model in ("32", "mixed")]
        if not sites:
            if narrow and ctx.round == 0 and component_model(sub) == "mixed":
                _header_mixed(ctx, sub, narrow[0])
            continue
        model = component_model(sub)
        if model == "generic":
            for site in sites:
                if clean_at(ctx.parsed, site.generic.span):
                    ctx.fix(GENERIC, Edit(*site.generic.span, site.generic.text.encode()),
                            f"{_WHAT[site.kind]} from warpSize, as the warp operations around it")
        elif model == "mixed" and ctx.round == 0:
            for site in sites:
                start, end = site.span
                why = " (it indexes a pointer parameter: the host sized that output for 32-lane warps)" \
                    if site.feeds_memory else ""
                if not why and narrow:
                    why = f" (and {narrow[0].callee}, of {_name(narrow[0].header)}, works on 32-lane groups: the " \
                          "header's translation keeps them)"
                fix = f"'{site.generic.text}' for the 32" if site.generic is not None else "warpSize for the 32"
                if site.kind == "first":
                    ctx.report(MIXED, start, f"'{site.text}' is {_WHAT[site.kind]}, the first warp of 32 lanes or 32 "
                               "items (which is not known here, so nothing in these functions is rewritten), but "
                               "the functions it shares values with compute lanes from warpSize (64 on CDNA): if "
                               "it means the first warp, write warpSize for the 32 with every other lane and warp; "
                               "else keep 32-lane groups throughout", end=end)
                    continue
                ctx.report(MIXED, start, f"'{site.text}' is {_WHAT[site.kind]} of 32 lanes, but the functions it "
                           f"shares values with compute lanes from warpSize (64 on CDNA){why}: write {fix} with "
                           "every other lane and warp, or keep 32-lane groups throughout", end=end)


def _name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _header_mixed(ctx: Context, sub, call) -> None:
    """Lanes, offsets or widths from warpSize here, and a call of a header's device function
    written for 32-lane groups: each warpSize site is reported (the header is not this
    file's to rewrite, and its own translation does not see this caller)."""
    places = [(s.span, s.text) for s in sub.lanes if s.width == "warpSize"] + \
        [(s.span, ctx.parsed.data[s.span[0]:s.span[1]].decode("utf-8", "replace"))
         for s in sub.shuffles if s.basis == "warpSize"]
    for (start, end), text in sorted(places):
        ctx.report(MIXED, start, f"'{' '.join(text.split())}' works on warps of warpSize (64 on CDNA), but "
                   f"{call.callee}, which these functions call, works on 32-lane groups (the translation of "
                   f"{_name(call.header)} keeps them): write the header's lanes, warps and "
                   "shuffle offsets from warpSize, or keep 32-lane groups here too", end=end)
