"""W211, W212, W213, W214: masks, ballots and votes that hold 32 lanes.

What it does:
    HIP's warp masks and ballots are 64-bit (`unsigned long long`); CUDA's are 32-bit.
    W211: a mask argument of a `*_sync` builtin that is 32-bit and not all ones (a
    parameter or local of a 32-bit type, a literal or macro such as `0x0000ffff`) is
    reported: from HIP 6.2 the builtins static_assert a 64-bit mask, and a 32-lane mask
    leaves lanes 32-63 of a wavefront out, which HIP asserts against. (Literal full
    masks are the hipify pass's, H006.)
    W212: a 32-bit variable that holds `__activemask()` (or `__ballot(1)`, what cu2hip
    writes for it below HIP 6.2) and is used only as the mask of `*_sync` calls is
    declared `unsigned long long`: kept in 32 bits it drops the upper 32 lanes.
    W213: a 32-bit variable that holds a ballot and is used as data (`__popc(m)`,
    `__ffs(m)`, `m & ((1 << lane) - 1)`): where the functions it shares values with
    compute lanes from `warpSize`, its value is followed through the function
    (translator.ir.mask_flow): the variable and the locals it flows into become
    `unsigned long long`, `__popc`/`__ffs` of it `__popcll`/`__ffsll`, the `1` of lane
    bits combined with it `1ull`; passed to a `__device__` helper of the file whose
    parameter is 32-bit (`int leader(unsigned m)`), the parameter is widened with it and
    the helper's counts and lane bits likewise, when the helper uses it only as a mask
    and every call of the helper passes a mask that is widened; passed to a function-like
    macro of the file whose body only counts that parameter (`#define LEADER(m)
    (__ffs(m) - 1)`) and whose every use is such a call, the body's `__ffs`/`__popc`
    become `__ffsll`/`__popcll`. Where the value escapes (stored to memory, passed to
    another function or macro, returned or cast as 32 bits, compared with a 32-lane
    literal) it is reported with the fix. A ballot already 64-bit (a variable, or the call itself)
    counted with `__popc`/`__ffs` (which truncate it; `__ffs` of it is ambiguous in
    hipcc) gets `__popcll`/`__ffsll` the same way. Elsewhere (lanes of 32) it is
    reported with both fixes.
    W247: in code written for 32-lane warps (HIP target), such a variable keeps its
    32-bit type and gets the lane's own 32-lane group's bits, `(unsigned)(B >>
    (__lane_id() & 32))`; from HIP 6.2 its uses as a `*_sync` mask become the group's
    64-bit mask, `((unsigned long long)m << (__lane_id() & 32))`.
    W248: in such code `__any`, `__all` and a ballot used as a value become the vote of
    the lane's own 32-lane group, computed from the ballot (a `*_sync` vote where its mask
    is all ones or the active lanes; below 6.2 once the hipify pass has made it mask-less).
    W214: a vote over the whole wavefront that W248 cannot rewrite (a partial mask, a
    ballot kept in a 64-bit variable, `__match_*_sync`, `__reduce_*_sync`, code of mixed
    lane models) in code written for 32-lane warps is reported: on CDNA it votes over 64
    lanes.
Legal when:
    W247, W248: the lanes and warps of the code are computed on 32 (or not at all), and
    its shuffles act on 32-lane groups (W201): a CUDA warp is then one 32-lane half of a
    wavefront, and the half's bits are exactly CUDA's ballot of that warp's active lanes,
    so `__popc`, `__ffs` and masks of `1u << lane` on them count what they counted.
    W212: the variable is only ever a mask argument, and a wider mask of the active
    lanes is what HIP asks for (on CUDA the value converts back to the same 32 bits).
    W213: the component's lanes and warps are computed from `warpSize` (a warp is the
    wavefront), so a count or first set bit over the wavefront is what it means; every
    use of the value and of what is computed from it is a count, a mask argument, a test,
    a comparison with another mask or 0, bit operations with lane bits (`1 << lane`,
    whose `1` becomes `1ull`: a lane may be 32-63) or a copy into a local. On CUDA the
    value is the same 32 bits zero-extended.
Not handled:
    Ballots stored through pointers or in arrays, passed to functions of other files or
    that pass them on, or returned as 32 bits (reported, with the fix); a macro body that
    does more with the mask than count it (reported: expand it, or count in 64 bits).
    A helper widened for one file's callers is declared with the wider parameter in that
    file: a caller in another translation unit (relocatable device code) no longer links.
Example:
    unsigned m = __activemask(); v = __shfl_sync(m, v, 0);
    -> unsigned long long m = __activemask(); ...
Safety:
    semantic: W212 keeps every lane's bit; W213 is applied only under the warpSize lane
    model of its component, W247 and W248 only under the 32-lane model; each is proven on
    the 64-lane model (tests/test_wave64.py: corpus/warp/warp_ballot.cu, warp_sync_votes.cu).
"""

from __future__ import annotations

import re

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.frontend import node_at
from translator.ir.macros import in_define
from translator.ir.warp import NarrowMask, clean_at, component_model, warp_facts
from translator.mapping import version_at_least
from translator.passes import Context
from translator.passes.hipify.warp_sync import full_or_active

MASK_32 = rule(
    "W211", "mask-32-bit", WARNING, "a warp mask holds 32 lanes", """
HIP's `*_sync` builtins take a 64-bit mask: from HIP 6.2 they `static_assert` an 8-byte
integer, so a 32-bit mask variable does not compile, and each active lane must find its
own bit in the mask (HIP checks it), so a mask written for 32 lanes (`0x0000ffff`) leaves
lanes 32-63 of a CDNA wavefront out. Compute the mask as an `unsigned long long` holding
every lane that reaches the call (`__activemask()`, or a ballot of the condition that
leads there).""",
    topic="warp-size",
    example="__device__ int f(unsigned mask, int v) { return __shfl_xor_sync(mask, v, 1, 32); }\n",
    options=("--target", "cuda"))
ACTIVE_MASK = rule(
    "W212", "active-mask-64-bit", NOTE, "a variable holding `__activemask()` becomes 64-bit", """
`__activemask()` returns a 64-bit mask on HIP (and cu2hip writes `__ballot(1)` for it
below HIP 6.2, also 64-bit). Kept in an `unsigned` it loses lanes 32-63, and the
`*_sync` calls it is passed to then leave those lanes out (HIP asserts against it) or,
from HIP 6.2, do not compile. The variable is used only as a mask, so it is declared
`unsigned long long`; on CUDA the value converts back to the same 32 bits.""",
    edits=True, safe=False, topic="warp-size",
    example="__device__ int f(int v) {\n  unsigned m = __activemask();\n  return __shfl_sync(m, v, 0, 32);\n}\n",
    translation="__device__ int f(int v) {\n  unsigned long long m = __activemask();\n"
                "  return __shfl_sync(m, v, 0, 32);\n}\n",
    options=("--target", "cuda"))
BALLOT_32 = rule(
    "W213", "ballot-32-bit", WARNING, "a ballot result is kept in 32 bits", """
A ballot on HIP returns one bit per lane of the wavefront: 64 bits on CDNA. Stored in an
`unsigned`, lanes 32-63 are dropped, so `__popc` counts and `__ffs` finds among lanes
0-31 only, in every lane of the wavefront. Where the surrounding code computes lanes and
warps from `warpSize` (a warp is the wavefront) the variable becomes `unsigned long long`
and `__popc`/`__ffs` on it `__popcll`/`__ffsll`; the locals its value flows into are
widened with it and lane bits combined with it are written `1ull << lane`; a `__device__`
helper of the file it is passed to gets a 64-bit parameter (when every call passes such a
mask and the helper only uses it as one), a function-like macro that only counts it gets
`__popcll`/`__ffsll` in its body (when every use passes such a mask); where the value
leaves what can be followed (stored to memory, passed to another function, returned as 32
bits, compared with `0xffffffff`) the warning says what to write. A ballot kept in 64
bits and counted with `__popc`/`__ffs` (which truncate it, and `__ffs` of it is
ambiguous in hipcc) gets `__popcll`/`__ffsll`. Where lanes are computed on 32 (32-lane
groups) the count must be of the lane's own 32-lane group: that needs the group's bits
(`(unsigned)(ballot >> (__lane_id() & 32))` on HIP), so it is reported instead.""",
    edits=True, safe=False, topic="warp-size",
    example="__global__ void k(int *out, int v) {\n"
            "  unsigned b = __ballot_sync(0xffffffff, v > 0);\n"
            "  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = __popc(b);\n}\n",
    translation="__global__ void k(int *out, int v) {\n"
                "  unsigned long long b = __ballot_sync(0xffffffff, v > 0);\n"
                "  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = __popcll(b);\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
VOTE = rule(
    "W214", "wavefront-vote", WARNING, "a vote spans the whole 64-lane wavefront where the code means 32 lanes", """
`__any_sync`, `__all_sync`, `__ballot_sync`, `__match_*_sync` and `__reduce_*_sync` act on
the whole wavefront on HIP: 64 lanes on CDNA. The code around this one computes lanes and
warps on 32 (or not at all), so it expects a vote of 32 lanes: on CDNA both 32-lane
halves get the vote of all 64. Nothing is rewritten: vote on the group's own 32 bits of
a 64-bit ballot (`(unsigned)(ballot >> (__lane_id() & 32))` on HIP), or compute lanes
and warps from `warpSize` throughout if a vote per wavefront is what is meant.""",
    topic="warp-size",
    example="__global__ void k(int *out, int v) {\n"
            "  int any = __any_sync(0xffffffff, v > 0);\n"
            "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = any;\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
BALLOT_GROUP = rule(
    "W247", "ballot-group-32", NOTE, "a 32-bit ballot in code of 32-lane warps holds the lane's own 32-lane group", """
HIP's ballot (and `__activemask()`) has a bit per lane of the 64-lane wavefront; code that
computes lanes and warps on 32 means the ballot of its own 32-lane warp, which on CDNA is
the lane's half of the wavefront. The variable keeps its 32-bit type and gets that half,
`(unsigned)(ballot >> (__lane_id() & 32))`: bit i is lane i of the lane's group, so
`__popc`, `__ffs`, `1u << lane` with `lane = threadIdx.x % 32` and masks of lanes below
it count what they counted under CUDA (with the shuffles of width 32, W201). Where the
variable is also the mask of a `*_sync` call (HIP 6.2 and later), that use becomes the
group's 64-bit mask, `((unsigned long long)m << (__lane_id() & 32))`: HIP asserts that a
mask is exactly the active lanes that pass it. On CUDA (`--target cuda`) nothing changes.""",
    edits=True, safe=False, topic="warp-size",
    example="__global__ void k(const int *in, int *out) {\n"
            "  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);\n"
            "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = __popc(b);\n}\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k(const int *in, int *out) {\n"
                "  unsigned b = (unsigned)(__ballot(in[threadIdx.x] > 0) >> (__lane_id() & 32));\n"
                "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = __popc(b);\n}\n",
    options=("--rocm-version", "6.0", "--ignore", "L"))
VOTE_GROUP = rule(
    "W248", "vote-group-32", NOTE, "a vote in code of 32-lane warps is the vote of the lane's own 32-lane group", """
`__any`, `__all` and a ballot used as a value act on the whole 64-lane wavefront on CDNA;
code that computes lanes and warps on 32 means the vote of its own 32-lane warp, the
lane's half of the wavefront. Each becomes that half's vote, from the ballot:
`__any(p)` -> `((unsigned)(__ballot(p) >> (__lane_id() & 32)) != 0)`, `__all(p)` -> the
half's ballot equal to the half's active lanes, a ballot `B` -> `(unsigned)(B >>
(__lane_id() & 32))`. A `*_sync` vote is rewritten where its mask is all ones or the
active lanes (below HIP 6.2 after the hipify pass has made it mask-less); other masks are
reported (W214). On CUDA (`--target cuda`) nothing changes.""",
    edits=True, safe=False, topic="warp-size",
    example="__global__ void k(const int *in, int *out) {\n"
            "  int any = __any_sync(0xffffffff, in[threadIdx.x] > 0);\n"
            "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = any;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k(const int *in, int *out) {\n"
                "  int any = ((unsigned)(__ballot(in[threadIdx.x] > 0) >> (__lane_id() & 32)) != 0);\n"
                "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = any;\n}\n",
    options=("--rocm-version", "6.0", "--ignore", "L"))
RULES = (MASK_32, ACTIVE_MASK, BALLOT_32, VOTE, BALLOT_GROUP, VOTE_GROUP)
_SHIFT = " >> (__lane_id() & 32))"

_ACTIVE = re.compile(r"__activemask\s*\(\s*\)|__ballot(?:_sync)?\s*\([^()]*?\b(?:1|true)\s*\)")
_WIDE = b"unsigned long long"


def _ballot_spelling(ctx: Context) -> str:
    """How the target writes a ballot."""
    if ctx.options.target == "hip" and not version_at_least(ctx.options.rocm_version, (6, 2)):
        return "__ballot(p)"
    return "__ballot_sync(mask, p)"


def run(ctx: Context) -> None:
    facts = warp_facts(ctx.parsed)
    said = ctx.round > 0            # diagnostics are said of the input
    for component in facts.graph.components():
        sub = facts.within(component)
        model = component_model(sub)
        for narrow in sub.narrows:
            _narrow(ctx, narrow, model, said)
        if model in ("warpSize", "generic"):
            for wide in sub.wides:
                _wide(ctx, wide, said)
        if not said:
            _masks(ctx, sub.masks)
        if model in ("warpSize", "generic"):
            continue
        for vote in sub.votes:
            if model in ("32", "none") and _group_vote(ctx, vote):
                continue
            # Said of the input; a full-mask vote below 6.2 that is still `*_sync` after the
            # first round (the hipify pass did not run) is said then.
            if said and not (ctx.round == 1 and vote.name.endswith("_sync") and not _wide_masks(ctx)):
                continue
            start, end = vote.span
            if vote.name.startswith(("__reduce", "__match")):
                what, fix = "result of 64", ("reduce each 32-lane group with a __shfl_xor loop of width 32"
                                             if vote.name.startswith("__reduce") else
                                             "compare within each 32-lane group with shuffles of width 32")
            else:
                what = "vote of 64"
                fix = (f"vote on the group's own 32 bits, (unsigned)({_ballot_spelling(ctx)} >> (__lane_id() & 32)) "
                       "on HIP")
            ctx.report(VOTE, start, f"'{vote.name}' acts on the whole wavefront (64 lanes on CDNA) but this code "
                       f"computes lanes and warps on 32: both 32-lane halves get the {what}; {fix}, or compute "
                       "lanes and warps from warpSize if one per wavefront is meant", end=end, subject=vote.name)


def _wide_masks(ctx: Context) -> bool:
    """Does the target have HIP 6.2's `*_sync` builtins (64-bit masks)?"""
    return version_at_least(ctx.options.rocm_version, (6, 2))


def _group_vote(ctx: Context, vote) -> bool:
    """W248: the vote of the lane's own 32-lane group. True when rewritten, or left for the
    next round (below HIP 6.2 the hipify pass first makes a full-mask `*_sync` vote mask-less)."""
    if ctx.options.target != "hip" or not vote.name.startswith(("__any", "__all", "__ballot", "__activemask")) \
            or not clean_at(ctx.parsed, vote.span):
        return False
    sync = vote.name.endswith("_sync")
    if sync:
        frag = ctx.parsed.main
        mask = node_at(frag.root, *vote.args[0]) if vote.args else None
        if mask is None or not full_or_active(ctx, frag, mask):
            return False
        if not _wide_masks(ctx):
            return ctx.round == 0
    start, end = vote.span
    base = "__ballot_sync" if sync else "__ballot"
    active = "__activemask()" if _wide_masks(ctx) else "__ballot(1)"
    if vote.name.startswith(("__ballot", "__activemask")):
        if vote.held:
            return False    # a variable's value: W212, W213 and W247 judge it with its uses
        edits = (Edit(start, start, b"(unsigned)("), Edit(end, end, _SHIFT.encode()))
        what = "the ballot of the lane's own 32-lane group"
    elif vote.name.startswith("__any"):
        edits = (Edit(*vote.function_span, f"((unsigned)({base}".encode()), Edit(end, end, f"{_SHIFT} != 0)".encode()))
        what = "any lane of the lane's own 32-lane group"
    else:
        edits = (Edit(*vote.function_span, f"((unsigned)({base}".encode()),
                 Edit(end, end, f"{_SHIFT} == (unsigned)({active}{_SHIFT})".encode()))
        what = "every active lane of the lane's own 32-lane group"
    ctx.fix(VOTE_GROUP, edits, f"{vote.name}: {what}, as the code's lanes and warps of 32 mean")
    return True


def _narrow(ctx: Context, narrow: NarrowMask, model: str, said: bool) -> None:
    data = ctx.source.data
    active = bool(_ACTIVE.search(data[narrow.span[0]:narrow.span[1]].decode("utf-8", "replace")))
    kinds = {kind for kind, _ in narrow.uses}
    if active and kinds <= {"mask"}:
        if clean_at(ctx.parsed, narrow.type_span):
            ctx.fix(ACTIVE_MASK, Edit(*narrow.type_span, _WIDE),
                    f"{narrow.name} holds {narrow.source}(), which is 64-bit on HIP: 'unsigned long long'")
        return
    masks = [span for kind, span in narrow.uses if kind == "mask"]
    if model in ("32", "none") and ctx.options.target == "hip" and clean_at(ctx.parsed, narrow.value_span) and \
            (not masks or _wide_masks(ctx) or active):
        start, end = narrow.value_span
        edits = [Edit(start, start, b"(unsigned)("), Edit(end, end, _SHIFT.encode())]
        if _wide_masks(ctx):
            edits += [Edit(*span, f"((unsigned long long){narrow.name} << (__lane_id() & 32))".encode())
                      for span in masks]
        ctx.fix(BALLOT_GROUP, tuple(edits), f"{narrow.name} holds the bits of the lane's own 32-lane group, as the "
                "code's lanes and warps of 32 mean" + ("; as a mask, the group's 64-bit mask" if
                                                       masks and _wide_masks(ctx) else ""))
        return
    flow = narrow.flow
    if model in ("warpSize", "generic") and flow is not None and not flow.escapes:
        edits = _flow_edits(flow)
        if all(clean_at(ctx.parsed, (e.start, e.end)) or in_define(ctx.source.data, (e.start, e.end))
               for e in edits):
            others = [name for name, _ in flow.widened() if name != narrow.name]
            ctx.fix(BALLOT_32, tuple(edits), f"{narrow.name} holds a ballot of the wavefront (lanes from warpSize): "
                    "64-bit, counted with __popcll/__ffsll" + (
                        f", with the locals it flows into ({', '.join(others)})" if others else "") + (
                        ", its lane bits 1ull << lane" if flow.literals else ""))
            return
    if said:
        return
    if model in ("warpSize", "generic") and flow is not None and flow.escapes:
        first = flow.escapes[0]
        more = f" (and {len(flow.escapes) - 1} more)" if len(flow.escapes) > 1 else ""
        ctx.report(BALLOT_32, first.span[0], f"'{narrow.name}' keeps {narrow.source}() in 32 bits "
                   f"({narrow.type_text}): on a 64-lane wavefront lanes 32-63 are dropped, and its value "
                   f"{first.why} ('{first.text}'){more}, so it is not widened: {first.fix}; then declare "
                   f"'{narrow.name}' unsigned long long and count it with __popcll/__ffsll",
                   end=first.span[1], subject=narrow.source)
        return
    start, end = narrow.span
    where = "computes lanes and warps on 32" if model in ("32", "mixed") else "does not say which lanes it means"
    ctx.report(BALLOT_32, start, f"'{narrow.name}' keeps {narrow.source}() in 32 bits ({narrow.type_text}): on a "
               "64-lane wavefront lanes 32-63 are dropped; the code " + where + ", so take the lane's own 32-lane "
               f"group, (unsigned)({_ballot_spelling(ctx)} >> (__lane_id() & 32)) on HIP, or make it unsigned long "
               "long with __popcll/__ffsll if it means the whole wavefront (and compute lanes from warpSize)",
               end=end, subject=narrow.source)


def _flow_edits(flow) -> list[Edit]:
    """A mask flow made 64-bit: its 32-bit locals declared `unsigned long long`, its counts
    `__popcll`/`__ffsll`, the `1` of its lane bits `1ull`."""
    edits = [Edit(*span, _WIDE) for _, span in flow.widened()]
    edits += [Edit(*span, name.encode()) for span, name in flow.counts]
    edits += [Edit(*span, text.encode()) for span, text in flow.literals]
    return edits


def _wide(ctx: Context, wide, said: bool) -> None:
    """W213: a ballot kept in 64 bits and counted with `__popc`/`__ffs` (which truncate it or,
    for `__ffs`, are ambiguous in hipcc): counted with `__popcll`/`__ffsll`."""
    what = f"'{wide.name}' holds {wide.source}()" if wide.name else f"{wide.source}()"
    flow = wide.flow
    if not flow.escapes:
        edits = _flow_edits(flow)
        if all(clean_at(ctx.parsed, (e.start, e.end)) for e in edits):
            ctx.fix(BALLOT_32, tuple(edits), f"{what}, 64-bit on HIP (lanes from warpSize): counted with "
                    "__popcll/__ffsll (__popc truncates it to lanes 0-31, __ffs of it is ambiguous)")
        return
    if said:
        return
    first = flow.escapes[0]
    ctx.report(BALLOT_32, wide.span[0], f"{what}, 64-bit on HIP, and is counted with __popc/__ffs (which truncate it "
               f"to lanes 0-31; __ffs of it is ambiguous in hipcc), but its value {first.why} ('{first.text}'): "
               f"{first.fix}, then count it with __popcll/__ffsll", end=wide.span[1], subject=wide.source)


def _masks(ctx: Context, masks) -> None:
    """W211 once per mask: at its first use in a function, counting the others."""
    first: dict[tuple[str, str], list] = {}
    for mask in masks:
        first.setdefault((mask.function, mask.text), []).append(mask)
    for uses in first.values():
        mask = uses[0]
        more = f" (and {len(uses) - 1} more use{'s' if len(uses) > 2 else ''} in {mask.function})" \
            if len(uses) > 1 else ""
        start, end = mask.span
        ctx.report(MASK_32, start, f"the mask of '{mask.call}'{more}: {mask.why}; HIP's warp masks are 64-bit (a "
                   "32-bit one fails HIP 6.2's static_assert) and must hold every lane of the 64-lane wavefront "
                   "that reaches the call: make it an unsigned long long of those lanes (__activemask() where "
                   "they are the lanes that arrive)", end=end, subject=mask.call)
