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
    Shuffles in macro bodies; a call of the file's own function-like macro named like a
    builtin (`#define __shfl_down(v, d) ...`): it is the macro, so no width is added, and
    in code of 32-lane warps W250 says to add it in the macro's body; offsets passed in from a caller whose value is not seen
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
from translator.frontend import directives, node_at, unparsed_define_bodies
from translator.ir.model import WARP_SYNC_BUILTINS
from translator.ir.warp import SHUFFLES, Shuffle, clean_at, component_model, warp_facts
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
IN_MACRO = rule(
    "W250", "shuffle-width-in-macro", NOTE, "a shuffle macro of a builtin's name gets the width in its body", """
The file defines a function-like macro with a shuffle builtin's name (`#define
__shfl_down(v, d) __shfl_down_sync(0xffffffff, v, d)`): a call of it is the macro, with
the macro's parameters, not HIP's builtin, so a width cannot be added to the call (a third
argument to a two-parameter macro does not compile). Every call of it is in code written
for 32-lane warps, so the shuffle in the macro's body gets the width of 32 instead (W201's
reason); on CUDA that is the default.""",
    edits=True, safe=False, topic="warp-size",
    example="#define __shfl_down(v, d) __shfl_down_sync(0xffffffff, v, d)\n"
            "__device__ int sum(int v) {\n"
            "  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
            "  return v;\n}\n",
    translation="#define __shfl_down(v, d) __shfl_down_sync(0xffffffff, v, d, 32)\n"
                "__device__ int sum(int v) {\n"
                "  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
                "  return v;\n}\n",
    options=("--target", "cuda"))
THROUGH_MACRO = rule(
    "W251", "shuffle-through-macro", WARNING, "a shuffle is called through the file's own macro of a builtin's name", """
The call is the file's own function-like macro named like a shuffle builtin, not HIP's
builtin: no width can be added to it (the macro's parameters are fixed), and its body's
shuffle cannot get one either (it is called from code of other lane models too, or its
body holds no shuffle the pass can read). On CDNA's 64-lane wavefronts code written for
32-lane warps needs its shuffles to act on 32-lane groups: add the width of 32 in the
macro's body, or call the builtin with its width.""",
    topic="warp-size",
    example="#define __shfl_down(v, d) shuffle_down_of(v, d)\n"
            "__device__ int sum(int v) {\n"
            "  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);\n"
            "  return v;\n}\n",
    options=("--target", "cuda"))
RULES = (WIDTH, LOOP, MIXED, IN_MACRO, THROUGH_MACRO)


def run(ctx: Context) -> None:
    facts = warp_facts(ctx.parsed)
    through_macros: dict[str, list[tuple[Shuffle, str]]] = {}
    for component in facts.graph.components():
        sub = facts.within(component)
        if not sub.shuffles:
            continue
        model = component_model(sub)
        for shuffle in sub.shuffles:
            if shuffle.macro:
                through_macros.setdefault(shuffle.name, []).append((shuffle, model))
                continue
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
    _through_macros(ctx, through_macros)


def _through_macros(ctx: Context, calls: dict[str, list[tuple[Shuffle, str]]]) -> None:
    """W250 where every call of a shuffle-named macro is in code of 32-lane warps, else W251."""
    for name, uses in calls.items():
        models = {model for _, model in uses}
        if not models & {"32", "none"}:
            continue
        widths = _body_widths(ctx, name) if models <= {"32", "none"} else None
        if widths is not None:
            if widths:
                ctx.fix(IN_MACRO, tuple(Edit(at, at, b", 32") for at in widths),
                        f"every call of the macro {name} is in code of 32-lane warps: its shuffle gets width 32")
            continue
        if ctx.round > 0:
            continue
        for shuffle, model in uses:
            if model in ("32", "none"):
                start, end = shuffle.span
                ctx.report(THROUGH_MACRO, start, f"'{name}' is the file's own macro here, not HIP's builtin: no "
                           "width can be added to the call (the macro's parameters are fixed); this code's shuffles "
                           "act on 32-lane groups, so add the width of 32 to the shuffle in the macro's body",
                           end=end, subject=name)


def _body_widths(ctx: Context, name: str) -> list[int] | None:
    """Where `, 32` goes in the body of the file's one `#define name(...)`: after the last
    argument of each shuffle there without a width ([] when each has one); None when the
    macro is defined more than once or its body holds no shuffle."""
    parsed = ctx.parsed
    bodies = []
    for hash_at, end in directives(parsed.cleaned, b"define"):
        token = node_at(parsed.main.root, hash_at, end)
        directive = token.parent if token is not None else None
        if directive is None or directive.type != "preproc_function_def":
            continue
        defined = directive.child_by_field_name("name")
        body = directive.child_by_field_name("value")
        if defined is not None and parsed.main.text(parsed.data, defined) == name:
            if body is None:
                return None
            bodies.append((body.start_byte, body.end_byte))
    if len(bodies) != 1:
        return None
    limit = bodies[0]
    fragment = next((m for m in parsed.macros if m.limit == limit), None) or \
        next(iter(unparsed_define_bodies(parsed, lambda s, e: (s, e) == limit)), None)
    if fragment is None or fragment.error_sites:
        return None
    found, widths = False, []
    stack = [fragment.root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        if function is None or function.type != "identifier" or fragment.text(parsed.data, function) not in SHUFFLES:
            continue
        args = [a for a in node.child_by_field_name("arguments").named_children if a.type != "comment"]
        at = 2 if fragment.text(parsed.data, function) in WARP_SYNC_BUILTINS else 1
        if len(args) <= at:
            continue
        found = True
        if len(args) == at + 1:
            widths.append(fragment.span(args[-1])[1])
    return widths if found else None
