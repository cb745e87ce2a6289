"""The shape of CUDA's names, and the CUDA-shaped names a project declares itself.

A name shaped like a CUDA API that the mapping tables do not know is reported by the
hipify pass, unless the project declares it (`#define CUDA_CHECK`, its own
`cudaCheck()`). The workspace collects those declarations over the whole tree with
`declared_names`, by regex (no parse: every file is read once, before translation);
the pass finds the file's own on its parse tree.
"""

from __future__ import annotations

import re

from translator.macrotext import directives

# The shapes of CUDA's names: its runtime, driver (`cuInit`, `CUdevice`, `CU_CTX_*`),
# libraries, intrinsics (`__nv_*`, `__*_sync`, the scoped atomics) and macros.
SHAPE = (rb"(?:cuda[A-Z_]\w*|cu[A-Z]\w*|CU[a-z]\w*|CU_\w+|CUDA_\w+|CUDART_\w+|CUBLAS\w*|CUSPARSE\w*|CURAND\w*|CUFFT\w*|"
         rb"CUSOLVER\w*|CUDNN\w*|NVRTC_\w+|cublas[A-Z]\w*|cusparse[A-Z]\w*|curand[A-Z_]\w*|cufft[A-Z]\w*|"
         rb"cusolver[A-Z]\w*|cudnn[A-Z]\w*|nvrtc[A-Z]\w*|__nv_\w+|__\w+_sync|atomic\w+_(?:block|system)|__CUDA\w*)")
CUDA_SHAPED = re.compile(SHAPE + rb"(?![\w$])")

_KEYWORDS = frozenset({b"return", b"case", b"else", b"do", b"throw", b"new", b"delete", b"sizeof", b"co_return",
                       b"co_yield", b"goto"})
_MACRO = re.compile(rb"[ \t]*(" + SHAPE + rb")(?![\w$])")                       # after `#define`
_TYPE = re.compile(rb"\b(?:struct|class|enum|union|using|namespace)[ \t]+(" + SHAPE + rb")(?![\w$])")
_TYPEDEF = re.compile(rb"\btypedef\b[^;{}]*?\b(" + SHAPE + rb")[ \t]*(?:\[[^;]*\])?;")
_BODY = re.compile(rb"[ \t]*\([^;{}]*\)[ \t]*(?:const[ \t]*)?\{")                   # `(...) {` after a name
_BEFORE = re.compile(rb"([A-Za-z_]\w*)[ \t*&]+\Z")                                 # `type ` before a name


def declared_names(text: bytes) -> set[bytes]:
    """The CUDA-shaped names `text` declares: macros, types, typedefs, and functions
    defined with a body (a name after a type word, before `(...) {`)."""
    if b"cu" not in text and b"CU" not in text and b"__" not in text and b"atomic" not in text:
        return set()
    names = {m.group(1) for _, end in directives(text, b"define") if (m := _MACRO.match(text, end))}
    names |= {m.group(1) for m in _TYPE.finditer(text)} | {m.group(1) for m in _TYPEDEF.finditer(text)}
    for m in CUDA_SHAPED.finditer(text):
        if m.group() in names or not _BODY.match(text, m.end()):
            continue
        before = _BEFORE.search(text, max(0, m.start() - 80), m.start())
        if before is not None and before.group(1) not in _KEYWORDS:
            names.add(m.group())
    return names
