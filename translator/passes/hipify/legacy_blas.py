"""H023: calls of cuBLAS's legacy API (`cublas.h`), which hipBLAS does not have.

What it does:
    `cublas.h` declares cuBLAS's first API: no handle (`cublasInit()` ... `cublasShutdown()`),
    scalars by value, results returned (`float cublasSdot(n, x, incx, y, incy)`),
    `char` options (`'N'`, `'T'`), errors through `cublasGetError()`. `cublas_v2.h` maps the
    same names onto the handle-taking `_v2` functions, which are what hipBLAS and rocBLAS
    offer under those names. A rename of a legacy call would therefore compile into a
    call with other arguments, or not at all. In a translation unit that uses the legacy
    API each use of one of the 157 routines `cublas.h` declares gets H023 (an error, no
    edit) naming its replacement: the v2 call with its arguments (`cublasSscal(handle, n,
    &alpha, x, incx)`), `cublasCreate`/`cublasDestroy` for `cublasInit`/`cublasShutdown`,
    `cudaMalloc`/`cudaFree` for `cublasAlloc`/`cublasFree`. Everything else such a unit uses
    is the same in both APIs and is translated as usual: the handle-less helpers
    (`cublasSetVector`, `cublasGetVector`, `cublasSetMatrix`, `cublasGetMatrix` and their
    `Async` forms take the same arguments as hipBLAS's and rocBLAS's), the types and the
    status values (`cublasStatus`, `CUBLAS_STATUS_SUCCESS`), and the `_v2` functions
    `cublas_api.h` declares for both.
    Which API a translation unit uses is read from the includes of the input file (in
    every round, so that a name this module leaves is never renamed in a later one):
    `#include <cublas_v2.h>` (or `"cublas_v2.h"`) means v2, whether `cublas.h` is included
    too or not (CUDA's headers refuse both in one unit, so a file that names both chooses
    between them with `#if`, and v2 is the API hipBLAS has); `cublas.h` without it means
    legacy. A file that includes neither gets its cuBLAS declarations through a header of
    its own: there a call is legacy when its argument count is the legacy routine's
    (which never equals its v2 form's), and a use of a name only `cublas.h` declares
    (`cublasInit`, `cublasShutdown`, `cublasGetError`, `cublasAlloc`, `cublasFree`,
    `cublasSetKernelStream`) is legacy always.
    The `#include <cublas.h>` itself is mapped by H002 as hipify-clang maps it, to hipBLAS's
    header (rocBLAS's with --roc): hipBLAS has no legacy header, and the helpers and types
    the unit keeps using are declared there, so the include compiles and only the legacy
    calls, reported here, remain to be ported. (hipify-clang, too, leaves these names in
    a file that does not include cublas_v2.h, with a warning that only their `_v2` forms
    are supported.)
Legal when:
    Always (a diagnostic).
Not handled:
    No legacy call is rewritten into its v2 form: that needs a handle the program does
    not have (created once, passed to every call), `&` on scalar arguments that may be
    expressions, the `char` options turned into enums and the returned results into
    output arguments. An include in a block comment, or in an `#if 0` branch, still
    counts. A file that includes neither header and uses a legacy name outside a call
    (a function pointer), or through a macro that hides the arguments, is translated as
    a v2 use.
Example:
    #include <cublas.h> ... cublasSscal(n, 2.0f, x, 1);  ->  error: legacy cuBLAS
    'cublasSscal' takes no handle: port to cublas_v2.h's cublasSscal(handle, n, &alpha,
    x, incx) first; not translated
Safety:
    no edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from translator.catalog import ERROR, rule
from translator.ir import call_of
from translator.passes import Context
from translator.passes.hipify.calls import arguments

LEGACY_CUBLAS = rule(
    "H023", "legacy-cublas", ERROR, "a call of cuBLAS's legacy API (`cublas.h`) has no HIP counterpart",
    """
`cublas.h` declares cuBLAS's legacy API: no handle, scalars by value, results returned,
`char` options, errors through `cublasGetError()`. hipBLAS and rocBLAS have only the
handle-taking functions of `cublas_v2.h`, whose names are the same, so a rename would
compile into a call with other arguments. The call is kept; the message names the v2
call to port it to (create a handle with `cublasCreate`, pass it first, pass scalars by
address and take results through the last argument), after which cu2hip translates it.
The handle-less helpers (`cublasSetVector`, `cublasGetMatrix`, ...), the types and the
status values are the same in both APIs and are translated as usual. A file that
includes `cublas_v2.h` is v2 whatever else it includes; one that includes neither header
is legacy where a call has the legacy argument count.""",
    example="#include <cuda_runtime.h>\n#include <cublas.h>\nvoid f(float *x) { cublasSscal(10, 2.0f, x, 1); }\n",
    translation="#include <hip/hip_runtime.h>\n#include <hipblas.h>\n"
                "void f(float *x) { cublasSscal(10, 2.0f, x, 1); }\n",
    unconverted=True)


@dataclass(frozen=True)
class Legacy:
    """One routine of cublas.h."""
    arguments: int            # how many it takes
    v2_arguments: int | None  # how many cublas_v2.h's function of the same name takes (None: no such function)
    message: str


# The BLAS routines of cublas.h, by operation: their names, their parameters, and the
# parameters of cublas_v2.h's function of the same name after the handle, as v2 names
# them, `&` marking a value v2 takes by address (checked against CUDA 13's cublas.h and
# cublas_api.h: tests/test_hipify.py).
_BLAS = (
    # Level 1
    (("Snrm2", "Dnrm2", "Scnrm2", "Dznrm2"), "n, x, incx", "n, x, incx, &result"),
    (("Sdot", "Ddot", "Cdotu", "Cdotc", "Zdotu", "Zdotc"), "n, x, incx, y, incy", "n, x, incx, y, incy, &result"),
    (("Sscal", "Dscal", "Cscal", "Zscal", "Csscal", "Zdscal"), "n, alpha, x, incx", "n, &alpha, x, incx"),
    (("Saxpy", "Daxpy", "Caxpy", "Zaxpy"), "n, alpha, x, incx, y, incy", "n, &alpha, x, incx, y, incy"),
    (("Scopy", "Dcopy", "Ccopy", "Zcopy", "Sswap", "Dswap", "Cswap", "Zswap"), "n, x, incx, y, incy",
     "n, x, incx, y, incy"),
    (("Isamax", "Idamax", "Icamax", "Izamax", "Isamin", "Idamin", "Icamin", "Izamin",
      "Sasum", "Dasum", "Scasum", "Dzasum"), "n, x, incx", "n, x, incx, &result"),
    (("Srot", "Drot", "Crot", "Zrot", "Csrot", "Zdrot"), "n, x, incx, y, incy, c, s", "n, x, incx, y, incy, &c, &s"),
    (("Srotg", "Drotg"), "a, b, c, s", "a, b, c, s"),
    (("Crotg", "Zrotg"), "a, b, c, s", "a, &b, c, s"),
    (("Srotm", "Drotm"), "n, x, incx, y, incy, param", "n, x, incx, y, incy, param"),
    (("Srotmg", "Drotmg"), "d1, d2, x1, y1, param", "d1, d2, x1, y1, param"),
    # Level 2
    (("Sgemv", "Dgemv", "Cgemv", "Zgemv"), "trans, m, n, alpha, A, lda, x, incx, beta, y, incy",
     "trans, m, n, &alpha, A, lda, x, incx, &beta, y, incy"),
    (("Sgbmv", "Dgbmv", "Cgbmv", "Zgbmv"), "trans, m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy",
     "trans, m, n, kl, ku, &alpha, A, lda, x, incx, &beta, y, incy"),
    (("Strmv", "Dtrmv", "Ctrmv", "Ztrmv", "Strsv", "Dtrsv", "Ctrsv", "Ztrsv"),
     "uplo, trans, diag, n, A, lda, x, incx", "uplo, trans, diag, n, A, lda, x, incx"),
    (("Stbmv", "Dtbmv", "Ctbmv", "Ztbmv", "Stbsv", "Dtbsv", "Ctbsv", "Ztbsv"),
     "uplo, trans, diag, n, k, A, lda, x, incx", "uplo, trans, diag, n, k, A, lda, x, incx"),
    (("Stpmv", "Dtpmv", "Ctpmv", "Ztpmv", "Stpsv", "Dtpsv", "Ctpsv", "Ztpsv"),
     "uplo, trans, diag, n, AP, x, incx", "uplo, trans, diag, n, AP, x, incx"),
    (("Ssymv", "Dsymv", "Chemv", "Zhemv"), "uplo, n, alpha, A, lda, x, incx, beta, y, incy",
     "uplo, n, &alpha, A, lda, x, incx, &beta, y, incy"),
    (("Ssbmv", "Dsbmv", "Chbmv", "Zhbmv"), "uplo, n, k, alpha, A, lda, x, incx, beta, y, incy",
     "uplo, n, k, &alpha, A, lda, x, incx, &beta, y, incy"),
    (("Sspmv", "Dspmv", "Chpmv", "Zhpmv"), "uplo, n, alpha, AP, x, incx, beta, y, incy",
     "uplo, n, &alpha, AP, x, incx, &beta, y, incy"),
    (("Sger", "Dger", "Cgeru", "Cgerc", "Zgeru", "Zgerc"), "m, n, alpha, x, incx, y, incy, A, lda",
     "m, n, &alpha, x, incx, y, incy, A, lda"),
    (("Ssyr", "Dsyr", "Cher", "Zher"), "uplo, n, alpha, x, incx, A, lda", "uplo, n, &alpha, x, incx, A, lda"),
    (("Sspr", "Dspr", "Chpr", "Zhpr"), "uplo, n, alpha, x, incx, AP", "uplo, n, &alpha, x, incx, AP"),
    (("Ssyr2", "Dsyr2", "Cher2", "Zher2"), "uplo, n, alpha, x, incx, y, incy, A, lda",
     "uplo, n, &alpha, x, incx, y, incy, A, lda"),
    (("Sspr2", "Dspr2", "Chpr2", "Zhpr2"), "uplo, n, alpha, x, incx, y, incy, AP",
     "uplo, n, &alpha, x, incx, y, incy, AP"),
    # Level 3
    (("Sgemm", "Dgemm", "Cgemm", "Zgemm"), "transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc",
     "transa, transb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc"),
    (("Ssyrk", "Dsyrk", "Csyrk", "Zsyrk", "Cherk", "Zherk"), "uplo, trans, n, k, alpha, A, lda, beta, C, ldc",
     "uplo, trans, n, k, &alpha, A, lda, &beta, C, ldc"),
    (("Ssyr2k", "Dsyr2k", "Csyr2k", "Zsyr2k", "Cher2k", "Zher2k"),
     "uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc",
     "uplo, trans, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc"),
    (("Ssymm", "Dsymm", "Csymm", "Zsymm", "Chemm", "Zhemm"), "side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc",
     "side, uplo, m, n, &alpha, A, lda, B, ldb, &beta, C, ldc"),
    (("Strsm", "Dtrsm", "Ctrsm", "Ztrsm"), "side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb",
     "side, uplo, trans, diag, m, n, &alpha, A, lda, B, ldb"),
    # v2's TRMM writes to a separate C (pass B, ldb again to keep it in place)
    (("Strmm", "Dtrmm", "Ctrmm", "Ztrmm"), "side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb",
     "side, uplo, trans, diag, m, n, &alpha, A, lda, B, ldb, C, ldc"),
)
# The legacy API's `char` options and the enum types cublas_v2.h takes instead.
_OPTION_TYPES = {"side": "cublasSideMode_t", "uplo": "cublasFillMode_t", "trans": "cublasOperation_t",
                 "transa": "cublasOperation_t", "transb": "cublasOperation_t", "diag": "cublasDiagType_t"}
# The rest of cublas.h: (name, its arguments, the v2 function of that name's, what to port it to).
_NONE = "has no hipBLAS or rocBLAS counterpart"
_HELPERS = (
    ("cublasInit", 0, None, f"{_NONE}: port to cublas_v2.h's cublasCreate(&handle) first"),
    ("cublasShutdown", 0, None, f"{_NONE}: port to cublas_v2.h's cublasDestroy(handle) first"),
    ("cublasGetError", 0, None, f"{_NONE}: cublas_v2.h's calls return their cublasStatus_t; check that instead"),
    ("cublasAlloc", 3, None, f"{_NONE}: port to cudaMalloc(&devicePtr, (size_t)n * elemSize) first"),
    ("cublasFree", 1, None, f"{_NONE}: port to cudaFree(devicePtr) first"),
    ("cublasSetKernelStream", 1, None, "takes no handle: port to cublas_v2.h's cublasSetStream(handle, stream) first"),
    ("cublasGetVersion", 1, 2, "takes no handle: port to cublas_v2.h's cublasGetVersion(handle, &version) first"),
)


def _routines() -> dict[str, Legacy]:
    out = {}
    for names, legacy, v2 in _BLAS:
        legacy_names, v2_names = legacy.split(", "), v2.split(", ")
        by_type: dict[str, list[str]] = {}      # the options, by their v2 names
        for p, v2_name in zip(legacy_names, v2_names):
            if p in _OPTION_TYPES:
                by_type.setdefault(_OPTION_TYPES[p], []).append(v2_name)
        typed = "".join(f"{', '.join(ps)}: {t}; " for t, ps in by_type.items())
        note = f" ({typed}not char)" if typed else ""
        for short in names:
            name = "cublas" + short
            out[name] = Legacy(len(legacy_names), 1 + len(v2_names),
                               f"legacy cuBLAS '{name}' takes no handle: port to cublas_v2.h's "
                               f"{name}(handle, {v2}){note} first; not translated")
    for name, count, v2_count, how in _HELPERS:
        out[name] = Legacy(count, v2_count, f"legacy cuBLAS '{name}' {how}; not translated")
    return out


ROUTINES = _routines()

LEGACY, V2, UNDECLARED, TRANSLATED = "legacy", "v2", "undeclared", "translated"
_INCLUDE = re.compile(rb'(?:^|(?<=\r))[ \t]*#[ \t]*include[ \t]*[<"](cublas(?:_v2)?\.h)[>"]', re.M)


_TRANSLATED = re.compile(rb"(?:^|(?<=\r))[ \t]*#[ \t]*include[ \t]*[<\"](?:hipblas\.h|hipblas/hipblas\.h|rocblas\.h|"
                         rb"rocblas/rocblas\.h)[>\"]", re.M)


def api_of(data: bytes) -> str:
    """Which cuBLAS API a file's own includes choose: V2, LEGACY or UNDECLARED (neither
    header is included)."""
    found = {m.group(1) for m in _INCLUDE.finditer(data)}
    if b"cublas_v2.h" in found:
        return V2
    if not found and _TRANSLATED.search(data):
        # No cuBLAS header but hipBLAS's or rocBLAS's: a translation (or a port), where a
        # cuBLAS name that is no call was left by a first run as legacy.
        return TRANSLATED
    return LEGACY if found else UNDECLARED


def report_legacy(ctx: Context) -> frozenset[tuple[int, int]]:
    """H023 for each use of a legacy cuBLAS routine; the spans of those uses, which the
    pass leaves as they are (even where the diagnostic is suppressed)."""
    candidates = [u for u in ctx.uses if u.api.name in ROUTINES]
    if not candidates:
        return frozenset()
    # The input's includes, in every round: a later round's text has hipBLAS's header
    # where the input had cublas.h (translator.pipeline.MappedSource keeps the input).
    api = api_of(getattr(ctx.source, "original", ctx.source).data)
    if api == V2:
        return frozenset()
    # Where neither header is included, a call is legacy by its argument count; a use
    # that is no call (a function pointer) is legacy when some call of the file is. (That
    # is also what makes a second run over the output, whose cublas.h has become
    # hipBLAS's header, leave what the first run left.)
    # In a translation (hipBLAS's header, no cuBLAS one) only a call in v2's form that
    # parses is v2: whatever else names a routine was left by the first run. So a call in
    # v2's form is v2 under cublas.h too (a first run renames it, as a second would).
    evidence = api == UNDECLARED and any(_legacy_call(u) for u in candidates)
    left = set()
    for use in candidates:
        routine = ROUTINES[use.api.name]
        if api in (TRANSLATED, LEGACY) and routine.v2_arguments is not None \
                and routine.v2_arguments != routine.arguments:
            call = call_of(use.node)
            if call is not None and not call.has_error and len(arguments(call)) == routine.v2_arguments:
                continue        # v2's form whatever the header (a call with a parse error inside: left)
        elif api == UNDECLARED and routine.v2_arguments is not None:
            call = call_of(use.node)
            if call is None and not evidence or call is not None and len(arguments(call)) != routine.arguments:
                continue
        start, end = use.api.span
        ctx.report(LEGACY_CUBLAS, start, routine.message, end=end, subject=use.api.name)
        left.add(use.api.span)
    return frozenset(left)


def _legacy_call(use) -> bool:
    """A call with the legacy argument count of a routine v2 also has."""
    routine = ROUTINES[use.api.name]
    call = call_of(use.node)
    return routine.v2_arguments is not None and call is not None and len(arguments(call)) == routine.arguments
