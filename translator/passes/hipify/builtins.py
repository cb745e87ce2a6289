"""H020: a function or operator of the user's that HIP's headers already define.

What it does:
    CUDA lacks some device functions that HIP provides (`atomicMax(float*, float)`,
    `atomicMin` on float and double, `atomicAdd(double*, double)` before sm_60,
    `__ffsll(unsigned long long)`), so CUDA code defines its own; under hipcc the two
    definitions collide. The user's definition is kept for CUDA only, inside
    `#ifndef __HIP__` ... `#endif`, with a warning: HIP's function is used instead.
    Operators too: HIP's vector types (`float4`, `int2`, ...) have member `+=`, `-=`,
    `*=`, `/=` taking a vector, `++` and `--`, and `__half`/`__half2` have `+ - * /`,
    the comparisons, the compound assignments, unary `+ -`, `++` and `--`; a user's
    non-template operator with the same operands (`operator+=(float4&, float4)`, helper_math
    style, or `operator*(half2, half2)`) makes every use ambiguous under hipcc. A vector
    operator is kept for CUDA only (`#ifndef __HIP__`); a half one also for HIP builds
    that define `__HIP_NO_HALF_OPERATORS__`, where HIP declares none
    (`#if !defined(__HIP__) || defined(__HIP_NO_HALF_OPERATORS__)`).
Legal when:
    The definition's name and parameter types are those of a HIP function or operator
    (the tables below, verified in HIP 5.2's headers) and the target is HIP 5.2 or newer;
    the definition has no parse error around it and stands on lines of its own.
Not handled:
    A declaration without a body, a definition inside a macro, one that shares its
    lines with other code: a warning, no edit. Binary vector operators
    (`float4 operator+(float4, float4)`, `float4 operator*(float4, float)`) and the
    compound assignments taking a scalar: HIP's are templates, which a user's
    non-template operator wins against, so they do not collide and are left alone.
    bfloat16 operators (HIP 5.2 has no hip_bf16.h).
Example:
    __device__ float atomicMax(float *a, float v) {...}  ->  #ifndef __HIP__ ... #endif
Safety:
    semantic: HIP's function is assumed to do what the user's did (the same operation
    under the same name).
"""

from __future__ import annotations

import re

from translator.catalog import WARNING, rule
from translator.edits import Edit
from translator.mapping import version_at_least
from translator.passes import Context
from translator.frontend import node_at

HIP_DEFINES = rule(
    "H020", "hip-defines-it", WARNING, "a user's function that HIP already defines is kept for CUDA only", """
HIP provides some device functions that CUDA lacks (`atomicMax` and `atomicMin` on
float and double, `atomicAdd` on double, `__ffsll` on unsigned long long); a CUDA
program's own definition of one collides with HIP's under hipcc. The definition is
wrapped in `#ifndef __HIP__` so that CUDA builds keep it and HIP builds use HIP's.""",
    edits=True, safe=False,
    example="__device__ float atomicMax(float *a, float v) {\n  return v;\n}\n",
    translation="#include <hip/hip_runtime.h>\n#ifndef __HIP__\n__device__ float atomicMax(float *a, float v) {\n"
                "  return v;\n}\n#endif\n")

# name -> the parameter type lists HIP defines it for (HIP 5.2: amd_hip_atomic.h,
# amd_device_functions.h), types written as the normalisation below writes them.
PROVIDED = {
    "atomicMax": {("float*", "float"), ("double*", "double")},
    "atomicMin": {("float*", "float"), ("double*", "double")},
    "atomicAdd": {("double*", "double")},
    "__ffsll": {("unsigned long long",)},
}
SINCE = (5, 2)
_DEFINITION = re.compile(rb"\b(?:" + b"|".join(n.encode() for n in PROVIDED) + rb")\s*\(")

# The operators HIP 5.2 declares as non-templates, which a user's operator with the same
# operands makes ambiguous. HIP_vector_type (amd_hip_vector_types.h): members `+= -= *= /=`
# taking a vector, `++` and `--` (the others, and the binary operators, are templates).
# __half and __half2 (amd_hip_fp16.h, unless __HIP_NO_HALF_OPERATORS__): friends
# `+ - * /` and the comparisons, members `+= -= *= /=`, unary `+ -`, `++`, `--`.
VECTOR_TYPES = frozenset(f"{base}{n}" for base in ("char", "uchar", "short", "ushort", "int", "uint", "long",
                                                   "ulong", "longlong", "ulonglong", "float", "double")
                         for n in (1, 2, 3, 4))
HALF_TYPES = {"__half": "__half", "half": "__half", "__half2": "__half2", "half2": "__half2"}
VECTOR_OPERATORS = frozenset({"+=", "-=", "*=", "/=", "++", "--"})
HALF_OPERATORS = frozenset({"+", "-", "*", "/", "==", "!=", "<", ">", "<=", ">=", "+=", "-=", "*=", "/=",
                            "++", "--"})
VECTOR_GUARD = b"#ifndef __HIP__"
HALF_GUARD = b"#if !defined(__HIP__) || defined(__HIP_NO_HALF_OPERATORS__)"
_OPERATOR = re.compile(rb"\boperator\s*(\+\+|--|[-+*/]=|==|!=|<=|>=|[-+*/<>])\s*\(")


def guard_definitions(ctx: Context) -> None:
    text = ctx.parsed.cleaned
    if not version_at_least(ctx.options.rocm_version, SINCE):
        return
    if any(n.encode() in text for n in PROVIDED):
        for match in _DEFINITION.finditer(text):
            name_end = match.start() + len(match.group().rstrip(b"( \t\r\n"))
            found = _definition(ctx, match.start(), name_end)
            if found is None:
                continue
            declarator, function = found
            name = match.group().decode().split("(")[0].strip()
            params = declarator.child_by_field_name("parameters")
            types = _types(ctx.source.data, params)
            if types in PROVIDED[name]:
                _guard(ctx, function, f"{name}({', '.join(types)})", VECTOR_GUARD)
    if b"operator" in text:
        for match in _OPERATOR.finditer(text):
            found = _definition(ctx, match.start(), match.end(1))
            if found is None:
                continue
            declarator, function = found
            operands = _operands(ctx.source.data, declarator.child_by_field_name("parameters"))
            guard = _operator_guard(match.group(1).decode(), operands)
            if guard is not None:
                shown = ", ".join(("const " if ref == "const&" else "") + base + ("&" if ref else "")
                                  for base, ref in operands)
                _guard(ctx, function, f"operator{match.group(1).decode()}({shown})", guard)


def _definition(ctx: Context, start: int, end: int):
    """(function_declarator, function_definition) for a name at [start, end) that a
    definition declares, unless the definition is already kept out of HIP builds."""
    node = node_at(ctx.parsed.main.root, start, end)
    declarator = node.parent if node is not None else None
    function = declarator.parent if declarator is not None else None
    while function is not None and function.type in ("reference_declarator", "pointer_declarator"):
        function = function.parent          # `float4 &operator+=(...)`
    if declarator is None or declarator.type != "function_declarator" or function is None \
            or function.type != "function_definition" or _for_cuda_only(ctx.source.data, function):
        return None
    if function.parent is not None and function.parent.type in ("field_declaration_list", "friend_declaration"):
        return None           # a class's member or friend: not the global function HIP declares
    return declarator, function


def _guard(ctx: Context, function, signature: str, guard: bytes) -> None:
    """Wrap the definition in `guard` ... `#endif`, or warn where it cannot be."""
    data, frag = ctx.source.data, ctx.parsed.main
    start, end = function.start_byte, function.end_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end == -1 else line_end
    if not frag.clean(function) or data[line_start:start].strip() or data[end:line_end].strip():
        ctx.report(HIP_DEFINES, start, f"HIP already defines '{signature}'; this definition collides with it "
                   "under hipcc (not rewritten: it shares its lines or does not parse)", end=end)
        return
    newline = ctx.source.newline
    fix = ctx.fix(HIP_DEFINES, (Edit(line_start, line_start, guard + newline),
                                Edit(line_end, line_end, newline + b"#endif")),
                  f"HIP already defines {signature}: the definition is kept for CUDA"
                  + ("" if guard == VECTOR_GUARD else " and for HIP without its half operators"))
    kept = "for CUDA only (#ifndef __HIP__) and HIP's is used" if guard == VECTOR_GUARD else \
        "for CUDA and for HIP builds that define __HIP_NO_HALF_OPERATORS__; other HIP builds use HIP's"
    ctx.report(HIP_DEFINES, start, f"HIP already defines '{signature}'; the definition is kept {kept}",
               end=end, fix=fix)


def _operator_guard(operator: str, operands: tuple[tuple[str, str], ...]) -> bytes | None:
    """The guard for a user's operator that HIP declares with the same operands, or None."""
    bases = [HALF_TYPES.get(base, base) for base, _ in operands]
    refs = [ref for _, ref in operands]
    by_value = ("", "const&")
    if len(operands) == 2 and operator in ("++", "--"):
        if bases[1] != "int" or refs[1] != "":
            return None
        bases, refs = bases[:1], refs[:1]
    if not bases or len(set(bases)) != 1:
        return None
    half = bases[0] in HALF_TYPES.values()
    if not half and bases[0] not in VECTOR_TYPES:
        return None
    if operator in ("++", "--"):
        matched = len(bases) == 1 and refs == ["&"]
    elif operator.endswith("=") and operator not in ("==", "!=", "<=", ">="):
        matched = len(bases) == 2 and refs[0] == "&" and refs[1] in by_value
    elif not half:
        return None
    elif len(bases) == 1:
        matched = operator in ("+", "-") and refs[0] in by_value
    else:
        matched = all(ref in by_value for ref in refs)
    if not matched:
        return None
    if half:
        return HALF_GUARD if operator in HALF_OPERATORS else None
    return VECTOR_GUARD if operator in VECTOR_OPERATORS else None


def _operands(data: bytes, params) -> tuple[tuple[str, str], ...]:
    """Each parameter as (type, how it is passed): the type without cv-qualifiers or
    name; "" by value, "&" by reference, "const&" by const reference, "?" otherwise (a
    pointer, an array: no operator above takes one)."""
    out = []
    for p in params.named_children if params is not None else ():
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        declarator = p.child_by_field_name("declarator")
        head = data[p.start_byte:declarator.start_byte if declarator is not None else p.end_byte]
        words = head.decode("utf-8", "replace").split()
        base = " ".join(w for w in words if w not in ("const", "volatile"))
        kind = declarator.type if declarator is not None else None
        if kind == "reference_declarator" and data[declarator.start_byte:declarator.end_byte].count(b"&") == 1 \
                and b"*" not in data[declarator.start_byte:declarator.end_byte]:
            passed = "const&" if "const" in words else "&"
        elif kind in (None, "identifier"):
            passed = ""
        else:
            passed = "?"
        out.append((base, passed))
    return tuple(out)


def _for_cuda_only(data: bytes, node) -> bool:
    """Is the node inside an `#ifndef __HIP__` (or an `#if` whose condition names __HIP__
    or __HIP_PLATFORM_AMD__)?"""
    parent = node.parent
    while parent is not None:
        if parent.type in ("preproc_ifdef", "preproc_if"):
            head = data[parent.start_byte:data.find(b"\n", parent.start_byte)]
            if b"__HIP__" in head or b"__HIP_PLATFORM_AMD__" in head or b"__HIPCC__" in head:
                return True
        parent = parent.parent
    return False


def _types(data: bytes, params) -> tuple[str, ...]:
    """Each parameter's type, normalised: qualifiers and the name dropped, `*` attached,
    `unsigned long long int` as `unsigned long long`."""
    out = []
    for p in params.named_children if params is not None else ():
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        type_node = p.child_by_field_name("type")
        base = data[type_node.start_byte:type_node.end_byte].decode("utf-8", "replace") if type_node else ""
        declarator = p.child_by_field_name("declarator")
        stars = data[declarator.start_byte:declarator.end_byte].count(b"*") if declarator is not None else 0
        base = " ".join(w for w in base.split() if w not in ("const", "volatile"))
        base = re.sub(r"^(unsigned )?(long long|short|long) int$", r"\1\2", base)
        out.append(base + "*" * stars)
    return tuple(out)
