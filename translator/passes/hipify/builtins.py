"""H020: a function of the user's that HIP's headers already define.

What it does:
    CUDA lacks some device functions that HIP provides (`atomicMax(float*, float)`,
    `atomicMin` on float and double, `atomicAdd(double*, double)` before sm_60,
    `__ffsll(unsigned long long)`), so CUDA code defines its own; under hipcc the two
    definitions collide. The user's definition is kept for CUDA only, inside
    `#ifndef __HIP__` ... `#endif`, with a warning: HIP's function is used instead.
Legal when:
    The definition's name and parameter types are those of a HIP function (the table
    below, verified in HIP 5.2's headers) and the target is HIP 5.2 or newer; the
    definition has no parse error around it and stands on lines of its own.
Not handled:
    A declaration without a body, a definition inside a macro, one that shares its
    lines with other code: a warning, no edit.
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


def guard_definitions(ctx: Context) -> None:
    data, text = ctx.source.data, ctx.parsed.cleaned
    if not version_at_least(ctx.options.rocm_version, SINCE) or not any(n.encode() in text for n in PROVIDED):
        return
    frag = ctx.parsed.main
    for match in _DEFINITION.finditer(text):
        name_end = match.start() + len(match.group().rstrip(b"( \t\r\n"))
        node = node_at(frag.root, match.start(), name_end)
        declarator = node.parent if node is not None else None
        function = declarator.parent if declarator is not None else None
        if declarator is None or declarator.type != "function_declarator" or function is None \
                or function.type != "function_definition":
            continue
        if _for_cuda_only(data, function):
            continue          # already kept out of HIP builds
        name = match.group().decode().split("(")[0].strip()
        params = declarator.child_by_field_name("parameters")
        if _types(data, params) not in PROVIDED[name]:
            continue
        start, end = function.start_byte, function.end_byte
        line_start = data.rfind(b"\n", 0, start) + 1
        line_end = data.find(b"\n", end)
        line_end = len(data) if line_end == -1 else line_end
        signature = f"{name}({', '.join(_types(data, params))})"
        if not frag.clean(function) or data[line_start:start].strip() or data[end:line_end].strip():
            ctx.report(HIP_DEFINES, start, f"HIP already defines '{signature}'; this definition collides with it "
                       "under hipcc (not rewritten: it shares its lines or does not parse)", end=end)
            continue
        newline = ctx.source.newline
        fix = ctx.fix(HIP_DEFINES, (Edit(line_start, line_start, b"#ifndef __HIP__" + newline),
                                    Edit(line_end, line_end, newline + b"#endif")),
                      f"HIP already defines {signature}: the definition is kept for CUDA only")
        ctx.report(HIP_DEFINES, start, f"HIP already defines '{signature}'; the definition is kept for CUDA only "
                   "(#ifndef __HIP__) and HIP's is used", end=end, fix=fix)


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
