"""H001 and the diagnostics of a name: rename CUDA APIs to HIP from the mapping tables.

What it does:
    Renames every CUDA function, type, enumerator, macro and device function that the
    tables map (translator/data, generated from HIPIFY's tables), in code, `#if`
    branches and `#define` bodies alike, member names included (as HIPIFY's token
    rewriter does); `cub::` and `using namespace cub;` become `hipcub`. With --roc or
    --miopen, library names map to rocBLAS, rocSPARSE, rocRAND, rocSOLVER or MIOpen;
    with --roc, the scalar types rocBLAS's calls take become rocBLAS's in the host code
    of a file that calls cuBLAS (`cuComplex` to `rocblas_float_complex`, `__half` to
    `rocblas_half`), as hipify-clang maps them.
Legal when:
    A table fact, the name's version in the target ROCm permitting.
Not handled:
    A name with no counterpart (H010), removed (H011) or not yet in the target (H014),
    experimental without --experimental (H013): a diagnostic, no edit. A call whose
    MIOpen or rocSPARSE counterpart takes other arguments that no rewrite of
    library_calls covers (H017). A declaration of a CUDA name whose counterpart is not a
    name (H018). rocBLAS's types in device code (a kernel keeps HIP's `__half`, whose
    arithmetic `rocblas_half` lacks), so a kernel parameter and the host variable passed
    to it may end up with different types; `make_cuComplex` and the other complex
    functions stay HIP's, returning HIP's types.
Example:
    cudaStream_t s; cudaStreamCreate(&s);  ->  hipStream_t s; hipStreamCreate(&s);
Safety:
    safe.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.catalog import ERROR, NOTE, WARNING, Rule, rule
from translator.edits import Edit
from translator.mapping import ApiEntry, Version, version_at_least, version_str
from translator.passes import Context
from translator.scan import NAMESPACES

RENAME = rule(
    "H001", "rename-api", NOTE, "a CUDA name becomes its HIP name", """
A CUDA runtime, driver, device, RTC, complex or library name that HIPIFY's tables map is
renamed wherever it is code: calls, types, enumerators, macros, `#if` conditions and
`#define` bodies; strings and comments are left alone. `cub::` becomes `hipcub::`.""",
    edits=True, safe=True, example="cudaStream_t s;\ncudaStreamCreate(&s);\n",
    translation="#include <hip/hip_runtime.h>\nhipStream_t s;\nhipStreamCreate(&s);\n")
NO_EQUIVALENT = rule(
    "H010", "no-hip-equivalent", ERROR, "the CUDA name has no HIP counterpart", """
HIP has nothing that does what this API does, so the name is kept and the file will not
compile for AMD until the call is replaced by hand (or with a user rule).""",
    example="void f(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f(hipArray_t a) { cudaArrayGetPlane(0, a, 0); }\n",
    unconverted=True)
REMOVED = rule(
    "H011", "removed-in-target", ERROR, "the HIP counterpart was removed in the target ROCm version", """
The counterpart existed in older HIP releases but not in the version the output must
compile with (`--rocm-version`). The name is kept: replace the call, or target an older
ROCm. (HIPIFY's tables list no removal today; the rule fires when they do.)""", unconverted=True)
DEPRECATED = rule(
    "H012", "deprecated-api", WARNING, "the CUDA API, or its HIP counterpart, is deprecated", """
The name is translated, but CUDA deprecated (or removed) it, or HIP deprecated its
counterpart in the target version: plan to move to the replacement API.""",
    example="void f() { cudaThreadSynchronize(); }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n")
EXPERIMENTAL = rule(
    "H013", "experimental-api", WARNING, "the HIP counterpart is experimental: not translated without `--experimental`", """
HIP marks the counterpart experimental; its behaviour may change between releases. Pass
`--experimental` to translate it anyway.""",
    example="void f(unsigned long long *flags) { cudaGraphExecGetFlags(0, flags); }\n",
    options=("--rocm-version", "6.3"),
    unconverted=True)
NOT_IN_TARGET = rule(
    "H014", "not-in-target", ERROR, "the HIP counterpart needs a newer ROCm than the target", """
The counterpart exists from a HIP release newer than `--rocm-version`. The name is kept:
raise the target version if the code will be built with that ROCm, or replace the call.""",
    example="void f() { cudaGraphAddNode(0, 0, 0, 0, 0); }\n", unconverted=True)
ARGUMENTS_DIFFER = rule(
    "H017", "arguments-differ", ERROR, "the counterpart takes other arguments: not translated", """
The rocSPARSE (`--roc`), MIOpen (`--miopen`) or HIP counterpart takes its arguments in
another order or number, so a rename alone would compile into a wrong call, and no
argument rewrite (H021) applies: the counterpart needs a value the CUDA call has not
(rocsparse_csrsv_zero_pivot's matrix descriptor), or the call is not one the rewrite
knows (another argument count, a parse error around it, a name used as no call, a
target ROCm older than the rewritten signature). The call is left as it is, to be
rewritten by hand.""",
    example="void f() { cusparseXcsrsv2_zeroPivot(h, info, &pivot); }\n", options=("--roc",),
    unconverted=True)
DECLARED_NAME = rule(
    "H018", "declared-name-not-renamed", WARNING, "a declaration introduces a CUDA name whose counterpart is not a name", """
HIP spells the counterpart as a type expression (`CUoccupancyB2DSize` is `void*`), which
cannot stand where a declaration introduces the name; the declaration is left as it is.""",
    example="typedef size_t (*CUoccupancyB2DSize)(int);\n")

ROC_LIBRARIES = frozenset({"blas", "rand", "sparse", "solver"})
LIBRARY_NAMES = {"blas": "rocBLAS", "rand": "rocRAND", "sparse": "rocSPARSE", "solver": "rocSOLVER",
                 "dnn": "MIOpen"}
# Calls whose rocSPARSE counterpart (--roc) takes other arguments and that no rewrite of
# library_calls covers (cuSPARSE's prototypes, as hipSPARSE repeats them, against
# rocSPARSE 5.3's): rocSPARSE's takes an argument the CUDA call has no value for (the
# matrix descriptor of rocsparse_csrsv_zero_pivot, the block direction of a blocked-ELL
# matrix). A rename alone would compile into a wrong call: a diagnostic and no edit.
DIFFERENT_ARGUMENTS = {
    "sparse": frozenset({
        "cusparseXcsrsv2_zeroPivot", "cusparseCreateBlockedEll", "cusparseBlockedEllGet",
        "cusparseCreateConstBlockedEll", "cusparseConstBlockedEllGet"}),
}
# With --roc, the scalar types rocBLAS's calls take, in BLAS code (hipify-clang's roc
# column for cuComplex's types, src/CUDA2HIP_Complex_API_types.cpp, and for the half and
# bfloat16 device types, src/CUDA2HIP_Device_types.cpp).
ROC_TYPES = {
    "cuComplex": "rocblas_float_complex", "cuFloatComplex": "rocblas_float_complex",
    "cuDoubleComplex": "rocblas_double_complex", "__half": "rocblas_half", "__nv_bfloat16": "rocblas_bfloat16",
}
# The version columns of a library's table count in that library's releases.
CUDA_SIDE = {"dnn": "cuDNN"}
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")
_DEVICE_QUALIFIERS = frozenset({"__global__", "__device__"})


def counterpart(entry: ApiEntry, ctx: Context) -> tuple[str | None, Version | None, Version | None,
                                                        Version | None, Version | None, str]:
    """(name, added, deprecated, removed, experimental, where) for the options in force."""
    o = ctx.options
    if (o.roc and entry.library in ROC_LIBRARIES) or (o.miopen and entry.library == "dnn"):
        return (entry.roc, entry.roc_added, entry.roc_deprecated, entry.roc_removed,
                entry.roc_experimental, LIBRARY_NAMES[entry.library])
    return entry.hip, entry.hip_added, entry.hip_deprecated, entry.hip_removed, entry.hip_experimental, "HIP"




def refusal(ctx: Context, entry: ApiEntry, written: str | None = None) -> tuple[Rule, str] | None:
    """Why a use of `entry` gets a diagnostic and no rename (the counterpart is missing,
    experimental, removed or too new, or takes other arguments), or None."""
    cuda = written or entry.cuda
    name, added, _deprecated, removed, experimental, where = counterpart(entry, ctx)
    target = ctx.options.rocm_version   # the roc* libraries and MIOpen are numbered like ROCm
    if name is None:
        return NO_EQUIVALENT, f"'{cuda}' has no {where} equivalent"
    if experimental is not None and not ctx.options.experimental:
        return EXPERIMENTAL, (f"'{cuda}' maps to '{name}', experimental in {where} {version_str(experimental)}; "
                              "not translated without --experimental")
    if removed is not None and version_at_least(target, removed):
        return REMOVED, (f"'{name}' (for '{cuda}') was removed in {where} {version_str(removed)}; the target is "
                         f"ROCm {version_str(target)}")
    if added is not None and not version_at_least(target, added):
        return NOT_IN_TARGET, (f"'{name}' (for '{cuda}') needs {where} {version_str(added)}; the target is ROCm "
                               f"{version_str(target)} (--rocm-version)")
    if where != "HIP" and cuda in DIFFERENT_ARGUMENTS.get(entry.library, ()):
        return ARGUMENTS_DIFFER, f"'{cuda}' -> '{name}': {where} takes different arguments; not translated"
    return None


def _rocblas_host_code(ctx: Context, node: ts.Node) -> bool:
    """Is the node in host code of a file that calls cuBLAS? (rocBLAS's half type is no
    arithmetic type, and a kernel's parameters keep HIP's types.)"""
    if not any(w.startswith(b"cublas") for w in ctx.parsed.words):
        return False
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        parent = parent.parent
    return parent is None or all(c.type not in _DEVICE_QUALIFIERS for c in parent.children)


def _declared_here(node: ts.Node) -> bool:
    """Is the node the name a declaration introduces (not its type)?"""
    parent = node.parent
    if parent is None or parent.child_by_field_name("type") == node:
        return False
    return parent.type.endswith("declarator") or (
        parent.type in ("type_definition", "declaration", "field_declaration")
        and parent.child_by_field_name("declarator") == node)


def rename(ctx: Context, span: tuple[int, int], entry: ApiEntry, written: str | None = None,
           node: ts.Node | None = None) -> None:
    """One use of a table entry: an edit, or a diagnostic, or both; never two diagnostics.
    `written` is the name in the source when `entry` is another overload's."""
    o = ctx.options
    cuda = written or entry.cuda
    name, _added, deprecated, _removed, _experimental, where = counterpart(entry, ctx)
    start, end = span
    refused = refusal(ctx, entry, written)
    if refused is not None:
        return ctx.report(refused[0], start, refused[1], end=end, subject=cuda)
    target = o.rocm_version
    if o.roc and cuda in ROC_TYPES and node is not None and _rocblas_host_code(ctx, node):
        name, deprecated, where = ROC_TYPES[cuda], None, "rocBLAS"
    if name != cuda and node is not None and not _IDENTIFIER.match(name) and _declared_here(node):
        return ctx.report(DECLARED_NAME, start, f"'{cuda}' is declared here; its {where} counterpart '{name}' is "
                          "not a name, so it is left as is", end=end, subject=cuda)
    fix = None
    if name != cuda:
        fix = ctx.fix(RENAME, _edit(span, name), f"{cuda} -> {name} ({entry.library} API)")
    notes = []
    side = CUDA_SIDE.get(entry.library, "CUDA")
    if name == cuda:
        pass  # HIP keeps the name and supports it: CUDA's deprecation says nothing about the output
    elif entry.cuda_removed is not None:
        notes.append(f"removed in {side} {version_str(entry.cuda_removed)}")
    elif entry.cuda_deprecated is not None:
        notes.append(f"deprecated since {side} {version_str(entry.cuda_deprecated)}")
    if deprecated is not None and version_at_least(target, deprecated):
        notes.append(f"its {where} counterpart '{name}' is deprecated since {where} {version_str(deprecated)}")
    if notes:
        ctx.report(DEPRECATED, start, f"'{cuda}': " + "; ".join(notes), end=end, fix=fix, subject=cuda)


def rename_namespace(ctx: Context, use) -> None:
    new = NAMESPACES[use.api.name]
    ctx.fix(RENAME, _edit(use.api.span, new), f"namespace {use.api.name} -> {new}")


def _edit(span: tuple[int, int], text: str) -> Edit:
    return Edit(span[0], span[1], text.encode())
