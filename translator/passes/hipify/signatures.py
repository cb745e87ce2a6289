"""H024, H025: calls whose HIP counterpart takes other parameter types than CUDA's.

What it does:
    CUDA's C++ overloads of `cudaHostAlloc`, `cudaMallocPitch` and
    `cudaHostGetDevicePointer` take a typed `T**`; HIP 5.2 declares `hipHostAlloc`,
    `hipMallocPitch` and `hipHostGetDevicePointer` with `void**` only, so `&p` with
    `float *p` has no matching function. The pointer is cast to `(void**)`, as a port by
    hand does (H024); the cast compiles with the `T**` templates later HIP releases add
    too. (`cudaMallocHost`, `cudaMalloc`, `cudaMallocManaged` and `cudaMallocAsync` need
    nothing: HIP 5.2 has their templates.)
    CUDA 13's `cudaMemPrefetchAsync(p, n, location, flags, stream)` and
    `cudaMemAdvise(p, n, advice, location)` (CUDA 12.2's `_v2` forms, the driver's
    `cuMemPrefetchAsync` and `cuMemAdvise` alike) take a `cudaMemLocation`, where HIP's
    counterparts take a device id. From HIP 7.1 they become `hipMemPrefetchAsync_v2` and
    `hipMemAdvise_v2`, which take the location (H024). Below, a location that is provably
    of type device becomes its `.id` (`loc` -> `loc.id`, `cudaMemLocation{..}` ->
    `hipMemLocation{..}.id`) and the flags, which CUDA requires to be 0, are dropped
    (H024); any other location is an error that names the call to write (H025). The
    CUDA 12 forms, which take a device id, map as they are.
Legal when:
    The call has no parse error around it. A location is provably a device when it is
    written in place as `{cudaMemLocationTypeDevice, id}` (positional or designated), or
    is a local variable of the function whose every write to `.type` stores
    `cudaMemLocationTypeDevice`, one of them (or its initializer) before the call in an
    enclosing block, that is never assigned whole, never has its address taken and is
    passed to nothing but these calls. The flags must be written as 0.
Not handled:
    A four-argument `cudaMemPrefetchAsync` or `cudaMemAdvise` whose third or fourth
    argument is neither a literal nor a variable declared in the file: read as CUDA 12's
    device id (a location there fails to compile under hipcc, visibly). A host location:
    H025, whose message gives the call with `hipCpuDeviceId`.
Example:
    cudaHostAlloc(&p, n, cudaHostAllocMapped)  ->  hipHostAlloc((void**)&p, n, hipHostMallocMapped)
    cudaMemPrefetchAsync(p, n, loc, 0, s)      ->  hipMemPrefetchAsync(p, n, loc.id, s)
Safety:
    safe: the cast is what CUDA's template does; a device location's id is the device id
    CUDA 12's form takes, and CUDA requires the flags to be 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.catalog import ERROR, NOTE, rule
from translator.edits import Edit
from translator.frontend import Fragment
from translator.ir import call_of
from translator.ir.nodes import function_around
from translator.mapping import Version, version_at_least, version_str
from translator.passes import Context
from translator.passes.hipify.renames import rename

SIGNATURE = rule(
    "H024", "signature-differs", NOTE, "a call is rewritten to the parameter types of its HIP counterpart", """
Some CUDA calls take other parameter types than their HIP counterparts.

`cudaHostAlloc`, `cudaMallocPitch` and `cudaHostGetDevicePointer` have C++ overloads taking
a typed `T**`; HIP 5.2's `hipHostAlloc`, `hipMallocPitch` and `hipHostGetDevicePointer`
take `void**` only, and C++ converts no `float**` to `void**` implicitly: the pointer is
cast to `(void**)`, which is what CUDA's template does (and which compiles with the
templates later HIP releases add as well).

CUDA 13's `cudaMemPrefetchAsync(ptr, count, location, flags, stream)` and
`cudaMemAdvise(ptr, count, advice, location)`, CUDA 12.2's `cudaMemPrefetchAsync_v2` and
`cudaMemAdvise_v2`, and the driver's `cuMemPrefetchAsync` and `cuMemAdvise` take a
`cudaMemLocation`; HIP's `hipMemPrefetchAsync` and `hipMemAdvise` take a device id. From
HIP 7.1 the call becomes `hipMemPrefetchAsync_v2` / `hipMemAdvise_v2`, which take the
location. Below, a location that is provably `{cudaMemLocationTypeDevice, id}` becomes its
`.id` and the flags (which CUDA requires to be 0) are dropped.""",
    edits=True, safe=True,
    example="void f(size_t n) {\n  float *p;\n  cudaHostAlloc(&p, n, cudaHostAllocMapped);\n}\n",
    translation="#include <hip/hip_runtime.h>\nvoid f(size_t n) {\n  float *p;\n"
                "  hipHostAlloc((void**)&p, n, hipHostMallocMapped);\n}\n")
LOCATION = rule(
    "H025", "memory-location-not-device", ERROR, "a memory location that is not provably a device: not translated", """
HIP's `hipMemPrefetchAsync` and `hipMemAdvise` take a device id where CUDA 13's
`cudaMemPrefetchAsync` and `cudaMemAdvise` (and the `_v2` forms of CUDA 12.2) take a
`cudaMemLocation`; `hipMemPrefetchAsync_v2` and `hipMemAdvise_v2`, which take a location,
exist from HIP 7.1. Where the location is not provably of type device (a parameter, a
variable written elsewhere, a host location) or the flags are not written as 0, the call
is left as it is, and the message gives the call to write: the location's `.id` for a
device, `hipCpuDeviceId` for the host.""",
    example="void f(float *p, cudaMemLocation loc) { cudaMemPrefetchAsync(p, 64, loc, 0, 0); }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "void f(float *p, hipMemLocation loc) { cudaMemPrefetchAsync(p, 64, loc, 0, 0); }\n",
    unconverted=True)

# Calls whose CUDA C++ overload takes a typed T** where HIP's counterpart takes void**:
# which argument. HIP 5.2's hip_runtime_api.h has templates for hipMalloc, hipHostMalloc,
# hipMallocManaged, hipMallocAsync and hipMallocFromPoolAsync only.
VOID_POINTER_ARGUMENT = {"cudaHostAlloc": 0, "cudaMallocPitch": 0, "cudaHostGetDevicePointer": 0}
_VOID_POINTER_POINTER = re.compile(r"\(\s*void\s*\*\s*\*\s*\)|(?:reinterpret|static)_cast\s*<\s*void\s*\*\s*\*\s*>")
# Expressions a prefix cast applies to whole, without parentheses.
_UNARY = frozenset({"identifier", "pointer_expression", "field_expression", "subscript_expression",
                    "call_expression", "parenthesized_expression", "cast_expression", "qualified_identifier"})


@dataclass(frozen=True)
class LocationCall:
    location: int               # the index of the location (CUDA 13) / device (CUDA 12) argument
    flags: int | None           # the index of CUDA 13's flags argument, if it has one
    base: str                   # the CUDA name whose table entry gives the HIP call below 7.1
    v2: str                     # the HIP call that takes a location (HIP 7.1)
    driver: bool


_PREFETCH = dict(location=2, flags=3, v2="hipMemPrefetchAsync_v2")
_ADVISE = dict(location=3, flags=None, v2="hipMemAdvise_v2")
LOCATION_CALLS = {
    "cudaMemPrefetchAsync": LocationCall(**_PREFETCH, base="cudaMemPrefetchAsync", driver=False),
    "cudaMemPrefetchAsync_v2": LocationCall(**_PREFETCH, base="cudaMemPrefetchAsync", driver=False),
    "cuMemPrefetchAsync": LocationCall(**_PREFETCH, base="cuMemPrefetchAsync", driver=True),
    "cuMemPrefetchAsync_v2": LocationCall(**_PREFETCH, base="cuMemPrefetchAsync", driver=True),
    "cudaMemAdvise": LocationCall(**_ADVISE, base="cudaMemAdvise", driver=False),
    "cudaMemAdvise_v2": LocationCall(**_ADVISE, base="cudaMemAdvise", driver=False),
    "cuMemAdvise": LocationCall(**_ADVISE, base="cuMemAdvise", driver=True),
    "cuMemAdvise_v2": LocationCall(**_ADVISE, base="cuMemAdvise", driver=True),
}
# hipMemPrefetchAsync_v2 and hipMemAdvise_v2 are declared from HIP 7.1 (hip_runtime_api.h).
V2_SINCE: Version = (7, 1)
# The location types and the device enumerators, HIP's spellings included: a later round
# reads the text an earlier one renamed.
LOCATION_TYPES = frozenset({"cudaMemLocation", "CUmemLocation", "CUmemLocation_v1", "CUmemLocation_st",
                            "hipMemLocation"})
DEVICE_TYPES = {False: "cudaMemLocationTypeDevice", True: "CU_MEM_LOCATION_TYPE_DEVICE"}
DEVICE_NAMES = frozenset(DEVICE_TYPES.values()) | {"hipMemLocationTypeDevice"}
# Arguments that are a device id in CUDA 12's forms.
_DEVICE_WORDS = frozenset({"cudaCpuDeviceId", "cudaInvalidDeviceId", "CU_DEVICE_CPU", "CU_DEVICE_INVALID"})
_ZERO = re.compile(r"(0+|0[xX]0+)[uUlL]*\Z")
_WORD = re.compile(r"[A-Za-z_]\w*")
NAMES = frozenset(VOID_POINTER_ARGUMENT) | frozenset(LOCATION_CALLS)


def rewrite(ctx: Context, use) -> bool:
    """The rewrites of one use; True when its name needs nothing more."""
    call = call_of(use.node)
    if call is None:
        return False
    node = call.child_by_field_name("arguments")
    args = [a for a in node.named_children if a.type != "comment"] if node is not None else []
    name = use.api.name
    if name in VOID_POINTER_ARGUMENT:
        _void_pointer(ctx, use.fragment, call, args, VOID_POINTER_ARGUMENT[name], name)
        return False
    return _location(ctx, use, call, args, LOCATION_CALLS[name])


# ------------------------------------------------------------------ T** -> void**

def _void_pointer(ctx: Context, frag: Fragment, call: ts.Node, args: list[ts.Node], index: int, name: str) -> None:
    if index >= len(args) or not frag.clean(call):
        return
    arg = args[index]
    text = frag.text(ctx.source.data, arg)
    if _VOID_POINTER_POINTER.match(text) or _points_to_void(ctx, frag, arg):
        return
    start, end = frag.span(arg)
    reason = f"{name}: HIP's counterpart takes void**, to which C++ converts no T** implicitly"
    if arg.type in _UNARY:
        ctx.fix(SIGNATURE, Edit(start, start, b"(void**)"), reason)
    else:
        ctx.fix(SIGNATURE, (Edit(start, start, b"(void**)("), Edit(end, end, b")")), reason)


def _points_to_void(ctx: Context, frag: Fragment, arg: ts.Node) -> bool:
    """Is the argument already a `void**`: `&x` with `void *x`, or `p` with `void **p`,
    declared in its function or at file scope?"""
    data = ctx.source.data
    depth, target = 0, arg
    if arg.type == "pointer_expression" and frag.text(data, arg).startswith("&"):
        depth, target = 1, arg.child_by_field_name("argument")
    if target is None or target.type != "identifier":
        return False
    found = _declaration(ctx, frag, arg, frag.text(data, target))
    if found is None:
        return False
    type_text, declarator = found
    words = [w for w in type_text.split() if w not in ("const", "volatile")]
    while declarator is not None and declarator.type == "pointer_declarator":
        depth += 1
        declarator = declarator.child_by_field_name("declarator")
    return words == ["void"] and depth == 2 and declarator is not None and declarator.type == "identifier"


# ------------------------------------------------------------------ memory locations

def _location(ctx: Context, use, call: ts.Node, args: list[ts.Node], spec: LocationCall) -> bool:
    name, frag, data = use.api.name, use.fragment, ctx.source.data
    if spec.location >= len(args) or not _takes_location(ctx, frag, name, args, spec):
        return False          # CUDA 12's form: a device id, as HIP takes it
    target = ctx.options.rocm_version
    name_start, name_end = use.api.span
    entry = ctx.tables.lookup(spec.base)
    hip = entry.hip if entry is not None and entry.hip else spec.base
    if not frag.clean(call):
        ctx.report(LOCATION, name_start, f"'{name}' takes a memory location where {hip} takes a device id; "
                   "not rewritten: parse error around the call", end=name_end, subject=name)
        return True
    if version_at_least(target, V2_SINCE):
        ctx.fix(SIGNATURE, Edit(name_start, name_end, spec.v2.encode()),
                f"{name} takes a memory location, as {spec.v2} does (HIP {version_str(V2_SINCE)})")
        return True
    loc = args[spec.location]
    flags = args[spec.flags] if spec.flags is not None and spec.flags < len(args) else None
    flags_zero = flags is None or bool(_ZERO.match(frag.text(data, flags).replace(" ", "")))
    edits = _device_id(ctx, frag, call, loc, spec)
    if edits is None or not flags_zero:
        ctx.report(LOCATION, name_start, _manual_fix(ctx, frag, name, hip, args, spec, edits is not None, flags_zero),
                   end=name_end, subject=name)
        return True
    if flags is not None:
        after = args.index(flags) + 1
        cut = (Edit(frag.span(flags)[0], frag.span(args[after])[0], b"") if after < len(args)
               else Edit(frag.span(loc)[1], frag.span(flags)[1], b""))
        edits = edits + (cut,)
    ctx.fix(SIGNATURE, edits, f"{name}: {hip} takes the device id of the location "
            f"{DEVICE_TYPES[spec.driver]} names" + (", and no flags (CUDA requires 0)" if flags is not None else ""))
    if entry is not None and name != spec.base:
        rename(ctx, use.api.span, entry, written=name)
        return True
    return False


def _takes_location(ctx: Context, frag: Fragment, name: str, args: list[ts.Node], spec: LocationCall) -> bool:
    """Is this the location form (CUDA 13, or a `_v2`), not CUDA 12's device id?"""
    if name != spec.base or (spec.flags is not None and len(args) > spec.flags + 1):
        return True
    arg = args[spec.location]
    if arg.type in ("initializer_list", "compound_literal_expression"):
        return True
    if arg.type != "identifier":
        return False
    word = frag.text(ctx.source.data, arg)
    if word in _DEVICE_WORDS:
        return False
    found = _declaration(ctx, frag, arg, word)
    return found is not None and bool(LOCATION_TYPES & set(_WORD.findall(found[0])))


def _device_id(ctx: Context, frag: Fragment, call: ts.Node, loc: ts.Node,
               spec: LocationCall) -> tuple[Edit, ...] | None:
    """The edits that turn a location provably of type device into its id, or None."""
    data = ctx.source.data
    start, end = frag.span(loc)
    if loc.type == "compound_literal_expression":
        type_node = loc.child_by_field_name("type")
        if type_node is None or not LOCATION_TYPES & set(_WORD.findall(frag.text(data, type_node))) \
                or _literal_type(frag, data, loc.child_by_field_name("value")) not in DEVICE_NAMES:
            return None
        return (Edit(end, end, b".id"),)
    if loc.type == "initializer_list":
        entry = ctx.tables.lookup("CUmemLocation" if spec.driver else "cudaMemLocation")
        if _literal_type(frag, data, loc) not in DEVICE_NAMES or entry is None or not entry.hip \
                or (entry.hip_added is not None and not version_at_least(ctx.options.rocm_version, entry.hip_added)):
            return None
        return (Edit(start, start, entry.hip.encode()), Edit(end, end, b".id"))
    if loc.type == "identifier" and _device_variable(ctx, frag, call, frag.text(data, loc)):
        return (Edit(end, end, b".id"),)
    return None


def _literal_type(frag: Fragment, data: bytes, init: ts.Node | None) -> str | None:
    """The text of the `type` an initializer list gives a location: its first element, or
    its `.type = ...` designator; None when it gives none."""
    if init is None or init.type != "initializer_list":
        return None
    items = [c for c in init.named_children if c.type != "comment"]
    if not items:
        return None
    if items[0].type == "initializer_pair":
        for pair in items:
            designator = pair.child_by_field_name("designator")
            value = pair.child_by_field_name("value")
            if designator is not None and value is not None and \
                    frag.text(data, designator).replace(" ", "") == ".type":
                return frag.text(data, value).strip().removeprefix("::")
        return None
    return frag.text(data, items[0]).strip().removeprefix("::")


def _device_variable(ctx: Context, frag: Fragment, call: ts.Node, word: str) -> bool:
    """Is the local variable `word` of type device where `call` reads it? Every write to
    its `.type` must store the device enumerator, one of them (or its initializer) must come before the
    call in a block around it, and it is never written whole, never has its address taken,
    and is passed to nothing but the location calls."""
    data = ctx.source.data
    function = function_around(call)
    if function is None:
        return False
    declarations, proofs = 0, []
    for node in _identifiers(function, frag, data, word):
        parent = node.parent
        if parent is None:
            return False
        if parent.type in ("init_declarator", "declaration"):
            declaration = parent.parent if parent.type == "init_declarator" else parent
            if parent.type == "init_declarator" and parent.child_by_field_name("declarator") != node \
                    or parent.type == "declaration" and node not in parent.children_by_field_name("declarator"):
                return False
            type_node = declaration.child_by_field_name("type") if declaration is not None else None
            if type_node is None or not LOCATION_TYPES & set(_WORD.findall(frag.text(data, type_node))):
                return False
            declarations += 1
            value = parent.child_by_field_name("value") if parent.type == "init_declarator" else None
            if value is not None and value.type == "compound_literal_expression":
                value = value.child_by_field_name("value")
            if value is None or (value.type == "initializer_list" and not value.named_children):
                continue       # no initializer, or `{}`: a write to `.type` must come first
            if _literal_type(frag, data, value) not in DEVICE_NAMES:
                return False
            proofs.append(declaration)
        elif parent.type == "field_expression" and parent.child_by_field_name("argument") == node:
            field = frag.text(data, parent.child_by_field_name("field"))
            if field == "id":
                continue
            if field != "type":
                return False
            written = _type_write(frag, data, parent)
            if written is False or (written is not None and written not in DEVICE_NAMES):
                return False
            if written is not None:
                proofs.append(parent.parent.parent)       # the statement `loc.type = ...;`
        elif not _location_argument(frag, data, node):
            return False
    return declarations == 1 and any(_before_in_block(statement, call) for statement in proofs)


def _type_write(frag: Fragment, data: bytes, field: ts.Node) -> str | bool | None:
    """For `loc.type`: the value a plain `loc.type = V;` statement stores, None for a read,
    False for any other write (`+=`, `++`, `&loc.type`, an assignment inside an expression)."""
    parent = field.parent
    if parent is None:
        return False
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == field:
        operator = parent.child_by_field_name("operator")
        right = parent.child_by_field_name("right")
        if operator is None or operator.type != "=" or right is None or parent.parent is None \
                or parent.parent.type != "expression_statement":
            return False
        return frag.text(data, right).strip().removeprefix("::")
    if parent.type == "update_expression" or \
            (parent.type == "pointer_expression" and frag.text(data, parent).startswith("&")):
        return False
    return None


def _location_argument(frag: Fragment, data: bytes, node: ts.Node) -> bool:
    """Is the identifier the location argument of one of the location calls?"""
    parent = node.parent
    call = parent.parent if parent is not None and parent.type == "argument_list" else None
    if call is None or call.type != "call_expression":
        return False
    function = call.child_by_field_name("function")
    spec = LOCATION_CALLS.get(frag.text(data, function)) if function is not None else None
    args = [a for a in parent.named_children if a.type != "comment"]
    return spec is not None and spec.location < len(args) and args[spec.location] == node


def _before_in_block(statement: ts.Node | None, call: ts.Node) -> bool:
    """Does the statement run before the call whenever the call runs: a statement of a
    block (or of one `#if` branch) around the call, ending before it?"""
    if statement is None or statement.end_byte > call.start_byte:
        return False
    block = statement.parent
    if block is None or block.type not in _BLOCKS:
        return False
    node = call
    while node is not None and node != block:
        if node.type in ("preproc_else", "preproc_elif", "preproc_elifdef") and node.parent == block:
            return False      # another branch of the same #if
        node = node.parent
    return node is not None


# What holds statements that run in order: a block, or a branch of an #if inside one.
_BLOCKS = frozenset({"compound_statement", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                     "preproc_elifdef"})


def _identifiers(scope: ts.Node, frag: Fragment, data: bytes, word: str):
    """Every identifier node named `word` under `scope`, in document order."""
    encoded = word.encode()
    stack = [scope]
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            start, end = frag.span(node)
            if data[start:end] == encoded:
                yield node
            continue
        stack.extend(reversed(node.children))


def _declaration(ctx: Context, frag: Fragment, use: ts.Node, word: str) -> tuple[str, ts.Node] | None:
    """(type text, declarator) of the declaration of `word` in the function around `use`
    (parameters included), else at file scope; None when there is none."""
    data = ctx.source.data
    scopes = [s for s in (function_around(use), frag.root) if s is not None]
    for scope in scopes:
        for node in _identifiers(scope, frag, data, word):
            declarator = node
            while declarator.parent is not None and declarator.parent.type in (
                    "pointer_declarator", "reference_declarator", "array_declarator", "init_declarator"):
                if declarator.parent.type == "init_declarator":
                    if declarator.parent.child_by_field_name("declarator") != declarator:
                        break
                    declarator = declarator.parent
                    break
                declarator = declarator.parent
            holder = declarator.parent
            if holder is None or holder.type not in ("declaration", "parameter_declaration"):
                continue
            if declarator not in holder.children_by_field_name("declarator"):
                continue
            type_node = holder.child_by_field_name("type")
            if type_node is None:
                continue
            inner = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" \
                else declarator
            return frag.text(data, type_node), inner
    return None


def _manual_fix(ctx: Context, frag: Fragment, name: str, hip: str, args: list[ts.Node], spec: LocationCall,
                device: bool, flags_zero: bool) -> str:
    """The H025 message: why, and the call to write."""
    data = ctx.source.data
    texts = [frag.text(data, a) for a in args]
    loc = args[spec.location]
    location = texts[spec.location]
    reasons = []
    if not device:
        reasons.append(f"the location '{location}' is not provably {{{DEVICE_TYPES[spec.driver]}, id}}")
    if not flags_zero:
        reasons.append(f"the flags '{texts[spec.flags]}' are not 0 (CUDA requires 0; {hip} takes none)")
    kept = [_in_hip(ctx, t) for i, t in enumerate(texts) if i != spec.flags]
    location = _in_hip(ctx, location)
    at = spec.location
    identifier_like = loc.type in _UNARY or loc.type == "compound_literal_expression"
    as_id = f"{location}.id" if identifier_like else f"({location}).id"
    device_call = f"{hip}({', '.join(kept[:at] + [as_id] + kept[at + 1:])})"
    host_call = f"{hip}({', '.join(kept[:at] + ['hipCpuDeviceId'] + kept[at + 1:])})"
    return (f"'{name}' takes a memory location where {hip} takes a device id: {'; '.join(reasons)}, and "
            f"{spec.v2} needs HIP {version_str(V2_SINCE)} (target ROCm {version_str(ctx.options.rocm_version)}); "
            f"write {device_call} for a device location, or {host_call} for the host")


def _in_hip(ctx: Context, text: str) -> str:
    """The text with the CUDA names the tables map to a HIP name spelled in HIP."""
    def hip(match: re.Match) -> str:
        entry = ctx.tables.lookup(match.group())
        return entry.hip if entry is not None and entry.hip and _WORD.fullmatch(entry.hip) else match.group()
    return _WORD.sub(hip, text)
