"""H002, H015, H034: CUDA headers become HIP's, and HIP code asks for the HIP runtime header.

What it does:
    Maps every `#include` of a CUDA header to its HIP (or, with --roc/--miopen, roc* or
    MIOpen) header, keeping the user's `<>` or `""`; removes a second include that maps
    to a header already included (one inside a function is renamed, as part of its body)
    and a header with no counterpart
    (`device_launch_parameters.h`). A file the pass changes asks for
    `hip/hip_runtime.h`, which the pipeline adds where HIPIFY puts it unless the
    output includes it already.
Legal when:
    Always: header names are table facts.
Not handled:
    A header HIP lists as unsupported (H015): kept, with a warning. A HIP header newer
    than the target ROCm (`cuda_bf16.h` needs ROCm 5.7's `hip/hip_bf16.h`): kept, H034,
    which names the `--rocm-version` that has it; the statistics count the file as
    unconvertible at the target (no rewrite makes it compile there).
Example:
    #include <cuda_runtime.h>  ->  #include <hip/hip_runtime.h>
Safety:
    safe.
"""

from __future__ import annotations

import re

from translator.catalog import ERROR, NOTE, WARNING, rule
from translator.edits import Edit
from translator.frontend import include_directives
from translator.ir.nodes import function_around
from translator.mapping import version_at_least, version_str
from translator.passes import Context
from translator.passes.hipify.builtins import VECTOR_TYPES

HEADER = rule(
    "H002", "map-header", NOTE, "a CUDA include becomes its HIP include", """
Each CUDA header maps to its HIP header (`cuda_runtime.h` to `hip/hip_runtime.h`,
`cublas_v2.h` to `hipblas/hipblas.h`); an include of a header already included, or of
one with no HIP counterpart, is removed. HIP code needs `hip/hip_runtime.h` where nvcc
included CUDA's runtime implicitly (a .cu file's launches, dim3, vector types, CUDA's
language and HIP names need it too): it is added after `#pragma once` or the include
guard, else before the first include, or before the first line of code where code
comes before the first include, else at the top.""",
    edits=True, safe=True, example="#include <cuda_runtime.h>\n#include <cuda.h>\nvoid f() {}\n",
    translation="#include <hip/hip_runtime.h>\n\nvoid f() {}\n")
UNSUPPORTED_HEADER = rule(
    "H015", "unsupported-header", WARNING, "the CUDA header is unsupported in HIP", """
HIP lists the header as having no counterpart that can be supported (for example
Caffe2's CUDA headers); the include is kept and will not resolve on AMD.""",
    example="#include <caffe2/core/common_gpu.h>\n")

HEADER_NOT_IN_TARGET = rule(
    "H034", "header-not-in-target", ERROR, "the HIP header arrives in a newer ROCm than the target", """
The CUDA header's HIP counterpart is installed from a ROCm release newer than
`--rocm-version` (`cuda_bf16.h`'s `hip/hip_bf16.h` from ROCm 5.7). The include is kept,
and the file cannot compile at the target whatever is rewritten: `--print-stats` counts it
as unconvertible at the target. Translate with the `--rocm-version` the message names if
the code will be built with that ROCm, or keep the file out of the AMD build.""",
    example="#include <cuda_bf16.h>\n", unconverted=True, blocks_file=True, options=("--rocm-version", "5.2"))

RUNTIME_HEADER = "hip/hip_runtime.h"
_ROC_APIS = frozenset({"API_BLAS", "API_RAND", "API_SPARSE", "API_SOLVER"})
# rocBLAS's header lives in its own folder from ROCm 5.2, whose file reorganization left
# the top-level rocblas.h a deprecated wrapper (rocSPARSE's: corrections.tsv).
_ROC_HEADER_FOLDERS = {"rocblas.h": ((5, 2), "rocblas/rocblas.h")}


COOPERATIVE_GROUPS_HEADER = "hip/hip_cooperative_groups.h"


def map_headers(ctx: Context) -> None:
    data = ctx.source.data
    seen: set[str] = set()
    o = ctx.options
    directives = include_directives(ctx.parsed)
    names = [data[path.start_byte + 1:path.end_byte - 1].decode("utf-8", "replace") for _, path in directives]
    runtime_at = [k for k, name in enumerate(names)
                  if name == RUNTIME_HEADER or getattr(ctx.tables.header(name), "hip", None) == RUNTIME_HEADER]
    for k, ((node, path), header) in enumerate(zip(directives, names)):
        entry = ctx.tables.header(header)
        if entry is None:
            seen.add(header)
            continue
        if entry.unsupported:
            ctx.report(UNSUPPORTED_HEADER, path.start_byte, f"'{header}' is an unsupported header in HIP",
                       end=path.end_byte, subject=header)
            continue
        to_roc = (o.roc and entry.api in _ROC_APIS) or (o.miopen and entry.api == "API_DNN")
        new = (entry.roc or entry.hip) if to_roc else entry.hip
        if to_roc and new in _ROC_HEADER_FOLDERS and version_at_least(o.rocm_version, _ROC_HEADER_FOLDERS[new][0]):
            new = _ROC_HEADER_FOLDERS[new][1]
        if new and new == entry.hip and entry.hip_added is not None \
                and not version_at_least(o.rocm_version, entry.hip_added):
            since = ".".join(map(str, entry.hip_added[:2]))
            ctx.report(HEADER_NOT_IN_TARGET, path.start_byte, f"'{new}' (for '{header}') needs HIP "
                       f"{version_str(entry.hip_added)}: translate with --rocm-version {since} or newer; at the "
                       f"target, ROCm {version_str(o.rocm_version)}, the file cannot compile", end=path.end_byte,
                       subject=header)
            seen.add(header)
            continue
        if new in seen and function_around(node) is not None:
            # Kept (renamed): a directive inside a function is part of its body's shape,
            # which the optimizing passes read; the header's guard makes it harmless.
            ctx.fix(HEADER, Edit(path.start_byte + 1, path.end_byte - 1, new.encode()), f"{header} -> {new}")
            continue
        if not new or new in seen:
            reason = f"'{header}' has no HIP counterpart" if not new else f"'{new}' is already included"
            ctx.fix(HEADER, Edit(_spliced_start(data, node.start_byte), path.end_byte, b""),
                    f"remove #include: {reason}")
            continue
        if new == COOPERATIVE_GROUPS_HEADER and RUNTIME_HEADER not in seen and runtime_at and runtime_at[0] > k:
            # HIP's cooperative-groups header needs the runtime's declarations before it
            # (HIP 5.2's fails on hipBlockDim_z otherwise); the file includes the runtime
            # only further down, where the finalizer would leave it.
            line_end = _line_end(data, path.end_byte)
            newline = b"\r\n" if data[line_end:line_end + 2] == b"\r\n" else b"\n"
            seen.update((RUNTIME_HEADER, new))
            ctx.fix(HEADER, (Edit(path.start_byte + 1, path.end_byte - 1, RUNTIME_HEADER.encode()),
                             Edit(line_end, line_end, newline + b"#include <" + new.encode() + b">")),
                    f"{header} -> {RUNTIME_HEADER} then {new}: HIP's cooperative groups need the runtime header "
                    "first, and the file includes it only later")
            continue
        seen.add(new)
        ctx.fix(HEADER, Edit(path.start_byte + 1, path.end_byte - 1, new.encode()), f"{header} -> {new}")


def _line_end(data: bytes, offset: int) -> int:
    """The offset of the end of the line holding `offset` (before its CR LF or LF)."""
    end = data.find(b"\n", offset)
    end = len(data) if end < 0 else end
    return end - 1 if end > 0 and data[end - 1:end] == b"\r" else end


# CUDA's language, which nvcc declares without any include and hipcc only through
# hip/hip_runtime.h: a .cu file that uses it needs the header even with no API call.
LANGUAGE_WORDS = frozenset({b"__global__", b"__device__", b"__shared__", b"__constant__", b"__managed__",
                            b"threadIdx", b"blockIdx", b"blockDim", b"gridDim", b"warpSize", b"__syncthreads"})
# The types and functions CUDA's runtime header declares that no table renames (HIP keeps
# their names): dim3 and the vector types with their make_ functions (vector_types.h,
# vector_functions.h), which nvcc's implicit include declares too.
VECTOR_WORDS = frozenset(n.encode() for base in VECTOR_TYPES for n in (base, "make_" + base))
RUNTIME_WORDS = LANGUAGE_WORDS | VECTOR_WORDS | {b"dim3"}
# HIP's own names (hipMalloc, hipStream_t, hipThreadIdx_x) and macros: code already HIP
# needs the header as much.
_HIP_NAME = re.compile(rb"hip[A-Z]\w*|HIP_(?:KERNEL_NAME|SYMBOL|DYNAMIC_SHARED)")
# HIP's own macros, which no CUDA name maps to.
_HIP_MACROS = frozenset({b"HIP_KERNEL_NAME", b"HIP_SYMBOL", b"HIP_DYNAMIC_SHARED", b"hipLaunchKernelGGL"})
_NOT_CODE = frozenset({"comment", "string_literal", "string_content", "raw_string_literal", "char_literal",
                       "system_lib_string", "escape_sequence"})
CUDA_SOURCE_SUFFIXES = (".cu", ".cuh")


def _spliced_start(data: bytes, start: int) -> int:
    """Where a directive really starts: before the line splices (`\\` at the end of the
    lines above) that join it to them, which would otherwise be left dangling."""
    while True:
        if data[max(start - 2, 0):start] == b"\\\n":
            start -= 2
        elif data[max(start - 3, 0):start] == b"\\\r\n":
            start -= 3
        else:
            return start


def request_runtime(ctx: Context) -> None:
    """HIP code needs the HIP runtime header (nvcc includes CUDA's implicitly): a file the
    pass changed, or a .cu/.cuh file that uses CUDA's language, launches a kernel, uses
    dim3 or a vector type, or already calls HIP."""
    if ctx.fixes:
        ctx.request_header(RUNTIME_HEADER, HEADER, "HIP code needs hip/hip_runtime.h (HIPIFY inserts it)")
    elif ctx.source.path.endswith(CUDA_SOURCE_SUFFIXES):
        used = runtime_use(ctx)
        if used is not None:
            ctx.request_header(RUNTIME_HEADER, HEADER, f"{used} needs hip/hip_runtime.h under hipcc; nvcc "
                               "included CUDA's runtime header implicitly")


def runtime_use(ctx: Context) -> str | None:
    """What in the file's code needs HIP's runtime header (shown in the reason), or None:
    a kernel launch, a word of CUDA's language, dim3, a vector type or make_ function, or
    a HIP name, written in code (not only in a comment or a string)."""
    if ctx.module.launches:
        return "a kernel launch (<<<...>>>)"
    words = ctx.parsed.words
    known = ctx.tables.runtime_hip_names()
    hip_names = any(w.startswith((b"hip", b"HIP_")) and (w in known or w in _HIP_MACROS) for w in words)
    if RUNTIME_WORDS.isdisjoint(words) and not hip_names:
        return None
    root, text = ctx.parsed.main.root, ctx.parsed.cleaned
    pattern = ctx.parsed.word_pattern(RUNTIME_WORDS)
    for found in ((pattern,) if pattern is not None else ()) + ((_HIP_NAME,) if hip_names else ()):
        for match in found.finditer(text):
            if match.start() and (text[match.start() - 1:match.start()].isalnum()
                                  or text[match.start() - 1:match.start()] in b"_$"):
                continue
            name = match.group()
            if name not in RUNTIME_WORDS and found is pattern:
                continue
            if found is _HIP_NAME and name not in known and name not in _HIP_MACROS:
                continue
            # The smallest node around it: a macro's body (preproc_arg) is code too.
            node = root.descendant_for_byte_range(match.start(), match.end())
            if node is not None and node.type not in _NOT_CODE:
                return f"'{name.decode()}'"
    return None
