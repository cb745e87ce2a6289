"""H006, H016: warp-sync builtins in the HIP version the output targets.

What it does:
    HIP has CUDA's `*_sync` warp builtins from 6.2 (behind HIP_ENABLE_WARP_SYNC_BUILTINS
    until 7.0) with a 64-bit mask, which must be exactly the active lanes that pass it
    (HIP asserts it). From 6.2 a 32-bit full mask becomes `__activemask()`: CUDA's full
    mask is every lane of the warp, all of which reach the call, and a wavefront's active
    lanes are those lanes (all 64 only when the wavefront is full and both of its 32-lane
    halves arrive: a 64-bit all-ones mask traps in a block of 96 threads). A 32-bit literal
    mask gets the suffix `ull` (the same value), which HIP's static_assert requires (H006),
    with a note below 7.0 (H016).
    Below 6.2 a call whose mask is provably all ones, or is `__activemask()`, becomes the
    mask-less builtin (`__shfl_down_sync(~0u, v, 1)` -> `__shfl_down(v, 1)`): HIP 6.2's
    own `*_sync` builtins assert that the mask is exactly the active lanes and then do
    what the mask-less builtin does. `__activemask()` elsewhere becomes `__ballot(1)` (H006).
Legal when:
    The mask is provably all ones: a literal (`0xffffffff`, `0xFFFFFFFFu`, `~0u`, `-1`,
    `UINT_MAX`, `(unsigned)-1` ...), an object-like macro of the file defined as one, a
    local variable initialised with one and never assigned, a `const`/`constexpr`
    variable of the file's namespace scope initialised with one, or a parameter of a
    function of a source file (not a header) that the file names only in calls, each
    passing such a mask; or it is `__activemask()`; or it is a local whose lanes are
    exactly those that run the call (translator/passes/hipify/mask_lanes.py: written
    once, as `__activemask()` or `__ballot_sync(full, P)`, under the same condition as
    the call, or under `if (P)` for the ballot, with no exit between; the fix's reason
    says so). The call has no parse error around it.
Not handled:
    A partial or unknown mask below 6.2: H014, whose message gives the mask-less call to
    write where the mask is exactly the lanes that reach it. `__match_*_sync` below 6.2,
    `__reduce_*_sync` below 7.0: H014, no edit. `__syncwarp` below 7.0 (W249): HIP 7.0's
    definition (fence, wave barrier, fence) where its mask, if any, is provably full or
    `__activemask()`; else H014. A 32-bit mask that is
    not a literal from 6.2 (a variable): left to the warp-size analysis.
Example:
    __shfl_down_sync(0xffffffff, v, 16)  ->  __shfl_down(v, 16)      (target below 6.2)
Safety:
    safe: a full mask means the mask-less builtin.
"""

from __future__ import annotations

import re
import weakref
from pathlib import Path
from functools import lru_cache

import tree_sitter as ts

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.frontend import Fragment, node_at, object_macros
from translator.mapping import Version, version_at_least, version_str
from translator.ir.nodes import balanced, function_around
from translator.passes import Context
from translator.source import HEADER_SUFFIXES
from translator.passes.hipify.mask_lanes import same_lanes
from translator.passes.hipify.renames import NOT_IN_TARGET

WARP_SYNC = rule(
    "H006", "warp-sync-builtin", NOTE, "a warp-sync builtin is written as the target HIP version has it", """
HIP has CUDA's `*_sync` warp builtins from 6.2 only, with a 64-bit mask that a
`static_assert` checks and that must be exactly the lanes that arrive (HIP asserts it).
From 6.2 a 32-bit full mask becomes `__activemask()` (CUDA's full mask is every lane of
the warp; a wavefront's arriving lanes are all 64 only when it is full and both its
32-lane halves arrive); below 6.2 a call with a
provably full mask becomes the mask-less builtin (a full mask is what the mask-less form
means), and `__activemask()` becomes `__ballot(1)`.""",
    edits=True, safe=True,
    example="__device__ float f(float v) { return v + __shfl_down_sync(0xffffffff, v, 16); }\n",
    translation="#include <hip/hip_runtime.h>\n__device__ float f(float v) { return v + __shfl_down(v, 16); }\n",
    options=("--ignore", "W"))
NEEDS_OPT_IN = rule(
    "H016", "warp-sync-opt-in", WARNING, "the warp-sync builtin needs `HIP_ENABLE_WARP_SYNC_BUILTINS` before HIP 7.0", """
HIP 6.2 to 6.4 declare the `*_sync` warp builtins only when HIP_ENABLE_WARP_SYNC_BUILTINS
is defined before the first HIP include; HIP 7.0 declares them always. Without it the
output does not compile: define it before the first include of every translation unit
that reaches this code, or compile with `-DHIP_ENABLE_WARP_SYNC_BUILTINS`.""",
    example="__device__ int f(int v) { return __shfl_xor_sync(0xffffffffffffffffull, v, 1); }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__device__ int f(int v) { return __shfl_xor_sync(0xffffffffffffffffull, v, 1); }\n",
    options=("--rocm-version", "6.2", "--ignore", "W"))

SYNCWARP_BODY = ('(__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), '
                 '__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))')
SYNCWARP = rule(
    "W249", "syncwarp-below-7", NOTE, "`__syncwarp()` below HIP 7.0 is written as HIP 7.0 defines it", """
HIP declares `__syncwarp` from 7.0 only. What HIP 7.0's is, a release fence of wavefront
scope, a wave barrier and an acquire fence, compiles with every HIP-Clang: so a
`__syncwarp()` below 7.0 becomes that (one comma expression, so that it stays one
expression wherever it stands). A mask is dropped where it is provably all ones or
`__activemask()` (HIP 7.0's `__syncwarp(mask)` asserts that the mask is exactly the
lanes that arrive, then does the same); any other mask is reported (H014).""",
    edits=True, safe=True, topic="warp-size",
    example="__global__ void k(int *s) {\n  s[threadIdx.x] = 1;\n  __syncwarp();\n}\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k(int *s) {\n  s[threadIdx.x] = 1;\n"
                "  " + SYNCWARP_BODY + ";\n}\n",
    options=("--rocm-version", "6.0", "--ignore", "L"))

SINCE: Version = (6, 2)
DEFAULT_SINCE: Version = (7, 0)
MASKLESS = {
    "__shfl_sync": "__shfl", "__shfl_up_sync": "__shfl_up", "__shfl_down_sync": "__shfl_down",
    "__shfl_xor_sync": "__shfl_xor", "__ballot_sync": "__ballot", "__any_sync": "__any",
    "__all_sync": "__all",
}
SINCE_7 = {"__syncwarp", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
           "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"}
FULL_MASK = re.compile(r"(0[xX][fF]{8}|0[xX][fF]{16}|4294967295|18446744073709551615|~0|~0[xX]0+|-1)[uUlL]*\Z"
                       r"|UINT(32|64)?_MAX\Z|ULL?ONG_MAX\Z")
# Casts that keep all ones all ones: to an integer type of 32 bits or more.
_WIDE_CAST = re.compile(r"\((?:unsigned|unsignedint|int|unsignedlong|long|unsignedlonglong|longlong|uint32_t|"
                        r"int32_t|uint64_t|int64_t|size_t)\)|static_cast<(?:unsigned|unsignedint|int|unsignedlong|long|"
                        r"unsignedlonglong|longlong|uint32_t|int32_t|uint64_t|int64_t|size_t)>")
ACTIVE_MASK = "__activemask()"
_LITERAL = re.compile(r"(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uU]?)\Z")
OPT_IN = ("target ROCm 6.2 or newer (defining HIP_ENABLE_WARP_SYNC_BUILTINS before the first HIP include "
          "below 7.0)")


def rewrite(ctx: Context, frag: Fragment, name: str, fn: ts.Node, call: ts.Node, args: list[ts.Node]) -> None:
    target = ctx.options.rocm_version
    data = ctx.source.data
    fn_start, fn_end = frag.span(fn)
    version = version_str(target)

    def report(r, message: str, severity: str | None = None) -> None:
        # Said of the input: a later round may see the call with the width argument the
        # warp-size pass adds, and would repeat the diagnostic in other words.
        if ctx.round == 0:
            ctx.report(r, fn_start, message, end=fn_end, severity=severity, subject=name)
    if name in SINCE_7 and not version_at_least(target, DEFAULT_SINCE):
        if name == "__syncwarp":
            return _syncwarp(ctx, frag, fn, call, args, report, version)
        return report(NOT_IN_TARGET, f"'{name}' needs HIP 7.0; the target is ROCm {version} (reduce with "
                      "__shfl_xor in a loop)")
    if name == "__activemask":
        if not version_at_least(target, SINCE) and not _mask_of_maskless(frag, data, call, target):
            ctx.fix(WARP_SYNC, Edit(fn_start, frag.span(call)[1], b"__ballot(1)"),
                    "HIP below 6.2 has no __activemask; __ballot(1) is its definition")
        return
    if not args:
        return
    mask = args[0]
    mask_text = frag.text(data, mask).replace(" ", "")
    full = _full_mask(ctx, frag, mask)
    if version_at_least(target, SINCE):
        literal = _LITERAL.match(mask_text)
        if full and not mask_text.lower().startswith("0xffffffffffffffff") and frag.clean(mask):
            start, end = frag.span(mask)
            ctx.fix(WARP_SYNC, Edit(start, end, ACTIVE_MASK.encode()),
                    "HIP warp masks are 64-bit (a 32-bit one fails its static_assert) and must be exactly the lanes "
                    "that arrive (HIP asserts it): CUDA's full mask is every lane of the warp, which on a wavefront "
                    "that is not full or runs one 32-lane half is __activemask()")
        elif not full and literal and int(literal.group(1), 0) <= 0xffffffff and frag.clean(mask):
            start, end = frag.span(mask)
            ctx.fix(WARP_SYNC, Edit(start, end, (literal.group(1) + "ull").encode()),
                    "HIP warp masks are 64-bit: a 32-bit literal mask fails its static_assert (same value)")
        if not version_at_least(target, DEFAULT_SINCE):
            report(NEEDS_OPT_IN, f"'{name}' needs HIP_ENABLE_WARP_SYNC_BUILTINS defined before the first HIP "
                   f"include below HIP 7.0 (target ROCm {version}); or compile with "
                   "-DHIP_ENABLE_WARP_SYNC_BUILTINS")
        return
    if name not in MASKLESS:
        base = name.removesuffix("_sync")
        return report(NOT_IN_TARGET, f"'{name}' needs HIP 6.2; the target is ROCm {version} (HIP below 6.2 has "
                      f"no {base} either): {OPT_IN}")
    active = _active_mask(ctx, frag, mask)
    lanes = None if full or active else \
        same_lanes(frag, data, ctx.parsed.cleaned, mask, call, lambda m: _full_mask(ctx, frag, m))
    if not full and not active and lanes is None:
        rest = ", ".join(frag.text(data, a) for a in args[1:])
        return report(NOT_IN_TARGET, f"'{name}' with mask '{frag.text(data, mask)}' needs HIP 6.2 (target ROCm "
                      f"{version}): write '{MASKLESS[name]}({rest})' if the mask is exactly the lanes that reach "
                      f"this call (what HIP 6.2's {name} asserts before doing the same), or {OPT_IN}")
    if not frag.clean(call) or len(args) < 2:
        return report(NOT_IN_TARGET, f"'{name}' not rewritten: parse error around it", severity="warning")
    mask_start = frag.span(mask)[0]
    next_start = frag.span(args[1])[0]
    what = f"{name}(full mask, ...)" if lanes is None else f"{name}({frag.text(data, mask)}, ...)"
    why = "" if lanes is None else f" ({lanes}, what the mask-less form acts on)"
    ctx.fix(WARP_SYNC, (Edit(fn_start, fn_end, MASKLESS[name].encode()), Edit(mask_start, next_start, b"")),
            f"{what} -> {MASKLESS[name]}(...): HIP {version} has no warp-sync builtins{why}")


def _syncwarp(ctx: Context, frag: Fragment, fn: ts.Node, call: ts.Node, args: list[ts.Node], report,
              version: str) -> None:
    """`__syncwarp()` below HIP 7.0: what HIP 7.0's is (W249), where the mask, if any, is
    the active lanes (HIP 7.0's own `__syncwarp(mask)` asserts that, then does the same)."""
    hint = "write what HIP 7.0's __syncwarp is: " + SYNCWARP_BODY
    if args and not (_full_mask(ctx, frag, args[0]) or _active_mask(ctx, frag, args[0])):
        return report(NOT_IN_TARGET, f"'__syncwarp' with mask '{frag.text(ctx.source.data, args[0])}' needs HIP "
                      f"7.0; the target is ROCm {version} ({hint}, where the mask is exactly the lanes that reach "
                      "it)")
    if len(args) > 1 or not frag.clean(call):
        return report(NOT_IN_TARGET, f"'__syncwarp' needs HIP 7.0; the target is ROCm {version} ({hint})")
    start, end = frag.span(call)
    mask = " (its mask is every lane that reaches it)" if args else ""
    if ctx.fix(SYNCWARP, Edit(start, end, SYNCWARP_BODY.encode()),
               f"HIP {version} has no __syncwarp: HIP 7.0's definition, a wavefront-scope release fence, a wave "
               f"barrier and an acquire fence{mask}") is None:
        report(NOT_IN_TARGET, f"'__syncwarp' needs HIP 7.0; the target is ROCm {version} ({hint})")


def full_or_active(ctx: Context, frag: Fragment, mask: ts.Node) -> bool:
    """Is the mask provably all ones, or the active lanes (`__activemask()` or a local set to it)?"""
    return _full_mask(ctx, frag, mask) or _active_mask(ctx, frag, mask)


def _active_mask(ctx: Context, frag: Fragment, mask: ts.Node) -> bool:
    """Is the mask `__activemask()` itself (the lanes that run the call)? A local is
    asked of mask_lanes.same_lanes, which follows the conditions between."""
    data = ctx.source.data
    function = mask.child_by_field_name("function") if mask.type == "call_expression" else None
    arguments = mask.child_by_field_name("arguments")
    return function is not None and frag.text(data, function) == "__activemask" and \
        arguments is not None and not arguments.named_children


def _mask_of_maskless(frag: Fragment, data: bytes, call: ts.Node, target: Version) -> bool:
    """Is this `__activemask()` the mask of a call that becomes a mask-less builtin (so it
    goes with the mask, below 6.2), or of a `__syncwarp` that W249 rewrites (below 7.0)?"""
    parent = call.parent
    outer = parent.parent if parent is not None and parent.type == "argument_list" else None
    if outer is None or outer.type != "call_expression" or not frag.clean(outer):
        return False
    args = [a for a in parent.named_children if a.type != "comment"]
    function = outer.child_by_field_name("function")
    if function is None or function.type != "identifier" or not args or args[0] != call:
        return False
    name = frag.text(data, function)
    return (len(args) >= 2 and name in MASKLESS) or \
        (len(args) == 1 and name == "__syncwarp" and not version_at_least(target, DEFAULT_SINCE))


def _all_ones(text: str) -> bool:
    """Is the text (spaces removed) an all-ones literal of 32 bits or more?"""
    while True:
        if text.startswith("(") and text.endswith(")") and balanced(text[1:-1]):
            text = text[1:-1]
            continue
        cast = _WIDE_CAST.match(text)
        if cast and cast.end() < len(text):
            text = text[cast.end():]
            continue
        return bool(FULL_MASK.match(text))


@lru_cache(maxsize=4)
def _macro_values(data: bytes) -> dict[bytes, list[str]]:
    """Each object-like macro of the text: its values (once per file, not per call)."""
    out: dict[bytes, list[str]] = {}
    for name, body in object_macros(data):
        out.setdefault(name, []).append(body.strip(b"()").replace(b" ", b"").decode("utf-8", "replace"))
    return out


def _full_mask(ctx: Context, frag: Fragment, mask: ts.Node, depth: int = 0) -> bool:
    """True when the mask is provably all ones: a literal, an object-like macro of this
    file defined as one, a local variable initialised with one and never assigned, a
    const/constexpr variable of namespace scope initialised with one, or a parameter of a
    function of this source file whose every call passes such a mask."""
    data = ctx.source.data
    text = frag.text(data, mask).replace(" ", "")
    if _all_ones(text):
        return True
    if mask.type != "identifier":
        return False
    word = text.encode()
    values = _macro_values(data).get(word, [])
    if values:
        return len(set(values)) == 1 and _all_ones(values[0])
    found = _local(ctx, frag, mask)
    if found is _PARAMETER:
        return depth < 4 and _every_call_passes_full(ctx, frag, mask, depth)
    if found is not None:
        return found is not _ASSIGNED and _all_ones(found)
    return _namespace_constant(frag, data, word)


_ASSIGNED, _PARAMETER = object(), object()


def _local(ctx: Context, frag: Fragment, name: ts.Node):
    """What the identifier `name` names in its function: the initializer text of a local
    initialised once and never assigned, _ASSIGNED for one assigned or declared without
    a value, _PARAMETER for a parameter never assigned; None when the function declares
    no such name (a name of the namespace scope)."""
    data = ctx.source.data
    word = frag.text(data, name).encode()
    function = function_around(name)
    if function is None:
        return None
    memo, key = _memo(ctx), ("local", id(frag), function.id, word)     # (asked by each shuffle of the function)
    if key not in memo:
        memo[key] = _local_in(ctx, frag, function, word)
    return memo[key]


def _local_in(ctx: Context, frag: Fragment, function: ts.Node, word: bytes):
    """_local's answer for the name `word` in `function`."""
    data = ctx.source.data
    lo, hi = frag.span(function)
    inits, assigned, declared, parameter = [], False, False, False
    for match in re.compile(rb"(?<![\w$])" + re.escape(word) + rb"\b").finditer(ctx.parsed.cleaned, lo, hi):
        node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
        parent = node.parent if node is not None else None
        if parent is None:
            continue
        if parent.type == "init_declarator" and parent.child_by_field_name("declarator") == node:
            value = parent.child_by_field_name("value")
            inits.append(frag.text(data, value).replace(" ", "") if value is not None else "")
        elif (parent.type == "assignment_expression" and parent.child_by_field_name("left") == node) \
                or parent.type == "update_expression" \
                or (parent.type == "pointer_expression" and frag.text(data, parent).startswith("&")):
            assigned = True
        elif parent.type in ("parameter_declaration", "optional_parameter_declaration"):
            parameter = True
        elif parent.type in _DECLARING:
            declared = True
    if parameter and not inits and not declared:
        return _ASSIGNED if assigned else _PARAMETER
    if not (inits or declared or parameter):
        return None
    return inits[0] if len(inits) == 1 and not assigned and not declared and not parameter else _ASSIGNED


def _every_call_passes_full(ctx: Context, frag: Fragment, mask: ts.Node, depth: int) -> bool:
    """Whether the parameter `mask` gets a provably full mask at every call of its function:
    a function of a source file (a header's functions are also called from elsewhere) that
    the file calls at least once and names nowhere but in calls."""
    if Path(ctx.source.path).suffix.lower() in HEADER_SUFFIXES:
        return False
    function = function_around(mask)
    declarator = function.child_by_field_name("declarator") if function is not None else None
    name = declarator.child_by_field_name("declarator") if declarator is not None else None
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    if name is None or name.type != "identifier" or params is None:
        return False
    names = []
    for p in params.named_children:
        target = p.child_by_field_name("declarator")
        while target is not None and target.type != "identifier":
            target = target.child_by_field_name("declarator")
        names.append(frag.text(ctx.source.data, target) if target is not None else None)
    position = names.index(frag.text(ctx.source.data, mask)) if frag.text(ctx.source.data, mask) in names else -1
    word = frag.text(ctx.source.data, name).encode()
    memo = _memo(ctx)
    found, others = _uses(ctx, frag, word, memo)
    if any(node != name for node in others):      # (stops at the second, at the latest)
        return False        # a prototype, an address taken, an overload: not every caller is seen
    # Every other use is a call: the answer is the same for whichever function of this
    # name asks (each shuffle asked, for each copy of a helper, and each asking scanned
    # the file: the file's cost was its square). _full_mask has no side effect.
    key = ("calls", id(frag), word, position, depth, name.id if others else None)
    if key not in memo:
        calls, every = 0, True
        for node, call in found:
            if call is None:
                continue        # the function's own name
            arguments = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
            if position < 0 or position >= len(arguments) or not _full_mask(ctx, frag, arguments[position],
                                                                             depth + 1):
                every = False
                break
            calls += 1
        memo[key] = every and calls > 0
    return memo[key]


def _uses(ctx: Context, frag: Fragment, word: bytes, memo: dict):
    """Each use of the name `word` in the fragment, in file order: (its node, the call
    whose function it is, or None); and the nodes of the uses that are not calls."""
    key = ("uses", id(frag), word)
    if key not in memo:
        found = []
        for match in re.compile(rb"(?<![\w$])" + re.escape(word) + rb"(?![\w$])").finditer(ctx.parsed.cleaned):
            node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
            if node is None:
                continue
            call = node.parent
            if call is None or call.type != "call_expression" or call.child_by_field_name("function") != node:
                call = None
            found.append((node, call))
        memo[key] = found, [node for node, call in found if call is None]
    return memo[key]


_MEMO: list = [None, {}]     # (a weak reference to the Context, its answers)


def _memo(ctx: Context) -> dict:
    """The answers of _local, _every_call_passes_full and _uses for one file (its Context)."""
    if _MEMO[0] is None or _MEMO[0]() is not ctx:
        _MEMO[0], _MEMO[1] = weakref.ref(ctx), {}
    return _MEMO[1]


# Where an identifier is the name a declaration introduces (a parameter, a local without
# an initialiser): a mask so named is not the namespace-scope constant of that name.
_DECLARING = frozenset({"parameter_declaration", "optional_parameter_declaration", "declaration",
                        "pointer_declarator", "reference_declarator", "array_declarator"})


def _namespace_constant(frag: Fragment, data: bytes, word: bytes) -> bool:
    """Is `word` a const or constexpr variable of the file's namespace scope, declared once,
    initialised with all ones?"""
    values, stack = [], [frag.root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type in ("namespace_definition", "linkage_specification", "declaration_list"):
                stack.append(child.child_by_field_name("body") or child)
                continue
            if child.type != "declaration":
                continue
            qualifiers = {frag.text(data, q) for q in child.named_children if q.type == "type_qualifier"}
            for declarator in child.children_by_field_name("declarator"):
                name = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" \
                    else declarator
                if name is None or name.type != "identifier" or frag.text(data, name).encode() != word:
                    continue
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                values.append(frag.text(data, value).replace(" ", "") if value is not None and
                              qualifiers & {"const", "constexpr"} else "")
    return len(values) == 1 and _all_ones(values[0])
