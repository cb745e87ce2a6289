"""The shape of CUDA's names, and the CUDA-shaped names a project declares itself.

A name shaped like a CUDA API that the mapping tables do not know is reported by the
hipify pass, unless the project declares it (`#define CUDA_CHECK`, its own
`cudaCheck()`). The workspace collects those declarations over the whole tree with
`declared_names`, by regex (no parse: every file is read once, before translation);
the pass finds the file's own on its parse tree.
"""

from __future__ import annotations

import re

# The shapes of CUDA's names: its runtime, driver, libraries, intrinsics and macros.
SHAPE = (rb"(?:cuda[A-Z_]\w*|cu[A-Z]\w*|CU_\w+|CUDA_\w+|CUDART_\w+|CUBLAS\w*|CUSPARSE\w*|CURAND\w*|CUFFT\w*|"
         rb"CUSOLVER\w*|CUDNN\w*|NVRTC_\w+|cublas[A-Z]\w*|cusparse[A-Z]\w*|curand[A-Z_]\w*|cufft[A-Z]\w*|"
         rb"cusolver[A-Z]\w*|cudnn[A-Z]\w*|nvrtc[A-Z]\w*|__nv_\w+|__\w+_sync|atomic\w+_(?:block|system)|__CUDA\w*)")
CUDA_SHAPED = re.compile(SHAPE + rb"(?![\w$])")

_KEYWORDS = rb"(?!(?:return|case|else|do|throw|new|delete|sizeof|co_return|co_yield|goto)\b)"
_DECLARATIONS = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+(" + SHAPE + rb")(?![\w$])"                       # a macro
    rb"|\b(?:struct|class|enum|union|using|namespace)[ \t]+(" + SHAPE + rb")(?![\w$])"   # a type
    rb"|\btypedef\b[^;{}]*?\b(" + SHAPE + rb")[ \t]*(?:\[[^;]*\])?;"                # a typedef
    rb"|\b" + _KEYWORDS + rb"[A-Za-z_]\w*[ \t*&]+(" + SHAPE + rb")[ \t]*\([^;{}]*\)[ \t]*(?:const[ \t]*)?\{",  # a function
    re.M)


def declared_names(text: bytes) -> set[bytes]:
    """The CUDA-shaped names `text` declares: macros, types, typedefs, functions defined
    with a body."""
    if b"cu" not in text and b"CU" not in text and b"__" not in text and b"atomic" not in text:
        return set()
    return {next(g for g in m.groups() if g) for m in _DECLARATIONS.finditer(text)}
