"""H041, H042: tests of CUDA headers' include guards, in helper headers.

What it does:
    A helper header (CUDA Samples' `helper_cuda.h`) tests whether a CUDA header was
    included before it by that header's include guard (`#ifdef __DRIVER_TYPES_H__`).
    Once translated, the CUDA header is not included, the guard is never defined, and
    the code under it silently drops out. Where the HIP header that replaces it has a
    guard of its own, the test names that guard instead (H041): the condition keeps its
    meaning, "the runtime's types are declared". Where no HIP guard is known (a
    library's, whose HIP header this machine could not check), the test is reported
    (H042), never silently kept.
Legal when:
    The name is one of the CUDA guards below, in a `#if`, `#ifdef`, `#ifndef` or `#elif`
    condition. The pairs are facts: the CUDA guards from CUDA 13's headers, the HIP
    guards from Debian's HIP 5.2 headers, each of which `hip/hip_runtime.h` defines
    (`hipcc -E -dM`) except the cooperative-groups and fp16 ones, which their own
    headers define.
Not handled:
    A guard written through a macro; a guard tested outside a directive.
Example:
    #ifdef __DRIVER_TYPES_H__  ->  #ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
Safety:
    semantic: the code under the test now compiles, as it did under CUDA.
"""

from __future__ import annotations

import re

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.passes import Context

GUARD = rule(
    "H041", "cuda-include-guard", NOTE, "a test of a CUDA header's include guard names the HIP header's guard", """
Helper headers test CUDA's own include guards to know what was included before them
(`#ifdef __DRIVER_TYPES_H__` around an error-string function for `cudaError_t`). After
translation no CUDA header is included, so such a test would drop its code without a
word; it names the guard of the HIP header that replaces the CUDA one instead.""",
    edits=True, safe=False,
    example="#include <cuda_runtime.h>\n#ifdef __DRIVER_TYPES_H__\nint have_types = 1;\n#endif\n",
    translation="#include <hip/hip_runtime.h>\n#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H\nint have_types = 1;\n#endif\n")
UNMAPPED_GUARD = rule(
    "H042", "cuda-include-guard-unmapped", WARNING, "a test of a CUDA library header's include guard has no HIP guard", """
The condition tests the include guard of a CUDA library's header (`CUBLAS_API_H_`,
`_CUFFT_H_`, ...), which is never defined once the file is translated: the code under it
drops out. No HIP guard is known for it: test the HIP library's header guard or
`__HIP_PLATFORM_AMD__` by hand.""",
    example="#ifdef _CUFFT_H_\nint fft = 1;\n#endif\n")

# CUDA's guard -> (the CUDA header, the HIP header's guard).
GUARDS = {
    "__DRIVER_TYPES_H__": ("driver_types.h", "HIP_INCLUDE_HIP_DRIVER_TYPES_H"),
    "__CUDA_RUNTIME_H__": ("cuda_runtime.h", "HIP_INCLUDE_HIP_HIP_RUNTIME_H"),
    "__CUDA_RUNTIME_API_H__": ("cuda_runtime_api.h", "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H"),
    "__VECTOR_TYPES_H__": ("vector_types.h", "HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H"),
    "__CUDA_FP16_H__": ("cuda_fp16.h", "HIP_INCLUDE_HIP_HIP_FP16_H"),
    "_COOPERATIVE_GROUPS_H_": ("cooperative_groups.h", "HIP_INCLUDE_HIP_HIP_COOPERATIVE_GROUP_H"),
}
# The library guards CUDA Samples' helper_cuda.h tests, with no checked HIP guard.
LIBRARY_GUARDS = {
    "__cuda_cuda_h__": "cuda.h", "CUBLAS_API_H_": "cublas_api.h", "_CUFFT_H_": "cufft.h", "CURAND_H_": "curand.h",
    "CUSOLVER_COMMON_H_": "cusolver_common.h", "NV_NPPIDEFS_H": "nppdefs.h", "CUSPARSEAPI": "cusparse.h",
    "NVJPEGAPI": "nvjpeg.h",
}
NAMES = frozenset(GUARDS) | frozenset(LIBRARY_GUARDS)
_CONDITION = re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b[^\n]*", re.M)
_NAME = re.compile(rb"(?<![\w$])(" + b"|".join(re.escape(n.encode()) for n in sorted(NAMES)) + rb")(?![\w$])")


def map_guards(ctx: Context) -> None:
    if not any(n.encode() in ctx.parsed.words for n in NAMES):
        return
    data = ctx.source.data
    for line in _CONDITION.finditer(data):
        for m in _NAME.finditer(data, line.start(), line.end()):
            name = m.group(1).decode()
            if name in GUARDS:
                header, hip = GUARDS[name]
                ctx.fix(GUARD, Edit(m.start(1), m.end(1), hip.encode()),
                        f"{name} (the guard of CUDA's {header}) -> {hip}, the guard of the HIP header that replaces it")
            elif ctx.options.target == "hip":
                ctx.report(UNMAPPED_GUARD, m.start(1), f"'{name}' is the include guard of CUDA's "
                           f"{LIBRARY_GUARDS[name]}, never defined once translated: the code under this test drops "
                           "out; no HIP guard is known for it", end=m.end(1), subject=name)
