"""Property tests of the hipify pass (H0xx) that read better as Python than as goldens.

Samples of the mapping tables are deterministic (evenly spaced over each library's sorted
entries), so a failure names the same entry on every run. Tests marked
`xfail(strict=True, reason="BUG: ...")` pin translator bugs: they pass once it is fixed.
"""

from __future__ import annotations

import dataclasses

import re

import pytest

from translator.edits import Edit
from translator.ir import module_of
from translator.mapping import ApiEntry, Version, load_tables
from translator.passes import Options
from translator.pipeline import Result, translate

TABLES = load_tables()
DEFAULT: Version = (5, 2)


def run(source: str | bytes, **options) -> Result:
    options.setdefault("rocm_version", DEFAULT)
    options.setdefault("ignore", ("L", "W"))   # launch bounds and warp size: their own tests
    path = options.pop("path", "t.cu")
    data = source.encode("utf-8") if isinstance(source, str) else source
    return translate(path, data, Options(**options))


def word(name: str) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")


def codes(result: Result) -> list[str]:
    return [d.code for d in result.diagnostics]


def _primary_entries() -> list[ApiEntry]:
    """Every entry that lookup() returns for its CUDA name (a name listed by several
    libraries belongs to the first in priority order)."""
    return [e for lib in TABLES.libraries for e in TABLES.entries(lib) if TABLES.lookup(e.cuda) is e]


def _spread(entries: list[ApiEntry], count: int) -> list[ApiEntry]:
    """`count` entries evenly spaced over `entries` (all of them if there are fewer)."""
    if len(entries) <= count:
        return list(entries)
    return [entries[i * len(entries) // count] for i in range(count)]


def _sample_by_library(entries: list[ApiEntry], total: int, floor: int = 4) -> list[ApiEntry]:
    """About `total` entries, each library represented in proportion (at least `floor`)."""
    by_library: dict[str, list[ApiEntry]] = {}
    for e in entries:
        by_library.setdefault(e.library, []).append(e)
    quota = {lib: max(floor, len(es) * total // len(entries)) for lib, es in by_library.items()}
    while sum(min(q, len(by_library[lib])) for lib, q in quota.items()) > total:
        quota[max(quota, key=quota.get)] -= 1
    return [e for lib, es in by_library.items() for e in _spread(sorted(es, key=lambda e: e.cuda), quota[lib])]


def _ids(entries: list[ApiEntry]) -> list[str]:
    return [f"{e.library}:{e.cuda}" for e in entries]


# ------------------------------------------------------------------ every renamed entry

RENAMED = _sample_by_library([e for e in _primary_entries() if e.hip and e.hip != e.cuda], 200)


def test_rename_sample_is_200_names_from_every_library() -> None:
    assert len(RENAMED) == 200
    assert {e.library for e in RENAMED} == {e.library for e in _primary_entries() if e.hip and e.hip != e.cuda}


@pytest.mark.parametrize("entry", RENAMED, ids=_ids(RENAMED))
def test_table_entry_is_renamed_when_called(entry: ApiEntry) -> None:
    # The target is the version that added the HIP name: the lowest one that has it.
    result = run(f"void use() {{\n  {entry.cuda}();\n}}\n", rocm_version=entry.hip_added or DEFAULT,
                 experimental=entry.hip_experimental is not None)
    assert word(entry.hip).search(result.output), result.output
    assert not word(entry.cuda).search(result.output), result.output
    assert not {"H010", "H011", "H013", "H014"} & set(codes(result)), [d.format() for d in result.diagnostics]
    renames = [f for f in result.applied if f.rule == "H001"]
    assert [f.edits for f in renames] == [(Edit(15, 15 + len(entry.cuda), entry.hip.encode()),)]


# ------------------------------------------------------------------ strings and comments

QUOTED = _spread(RENAMED, 40)
CONTEXTS = {
    "string": 'const char* s = "{name}(x) failed";\n',
    "raw-string": 'const char* s = R"({name})";\n',
    "line-comment": "// call {name} here\n",
    "block-comment": "/* {name}(p); {name} */\n",
    "char-array": 'char s[] = "{name}";\n',
}


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("entry", QUOTED, ids=_ids(QUOTED))
def test_name_in_string_or_comment_never_changes(entry: ApiEntry, context: str) -> None:
    source = CONTEXTS[context].format(name=entry.cuda)
    result = run(source, rocm_version=(7, 0), experimental=True)
    assert result.output == source.encode()
    assert result.diagnostics == []


@pytest.mark.parametrize("entry", QUOTED[:10], ids=_ids(QUOTED[:10]))
def test_name_in_string_or_comment_next_to_a_renamed_call(entry: ApiEntry) -> None:
    source = (f"void use() {{\n  {entry.cuda}();  // {entry.cuda} stays in this comment\n"
              f'  const char* s = "{entry.cuda}";  /* {entry.cuda} */\n}}\n')
    result = run(source, rocm_version=(7, 0), experimental=True)
    for kept in (f"// {entry.cuda} stays in this comment", f'"{entry.cuda}"', f"/* {entry.cuda} */"):
        assert result.output.count(kept.encode()) == 1
    assert word(entry.hip).search(result.output)


# ------------------------------------------------------------------ --roc

ROC_BLAS = _spread(sorted((e for e in _primary_entries() if e.library == "blas" and e.roc and e.hip
                           and e.roc != e.hip), key=lambda e: e.cuda), 30)


@pytest.mark.parametrize("entry", ROC_BLAS, ids=_ids(ROC_BLAS))
def test_roc_picks_the_rocblas_name(entry: ApiEntry) -> None:
    source = f"void use() {{\n  {entry.cuda}();\n}}\n"
    roc = run(source, roc=True, rocm_version=(7, 0), experimental=True)
    assert word(entry.roc).search(roc.output), roc.output
    hip = run(source, roc=False, rocm_version=(7, 0), experimental=True)
    assert word(entry.hip).search(hip.output), hip.output


def test_roc_leaves_runtime_names_on_hip_and_renames_the_blas_header() -> None:
    result = run("#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cudaDeviceSynchronize(); cublasCreate(&h); }\n",
                 roc=True)
    assert result.output == (b"\n#include <hip/hip_runtime.h>\n#include <rocblas/rocblas.h>\n"
                             b"void f(rocblas_handle h) { hipDeviceSynchronize(); rocblas_create_handle(&h); }\n")


def test_blas_entry_without_a_roc_name_is_an_error_with_roc() -> None:
    entry = next(e for e in _primary_entries() if e.library == "blas" and e.hip and not e.roc)
    result = run(f"void use() {{ {entry.cuda}(); }}\n", roc=True, rocm_version=(7, 0))
    assert codes(result) == ["H010"]
    assert "rocBLAS" in result.diagnostics[0].message
    assert word(entry.cuda).search(result.output)


# ------------------------------------------------------------------ version gating

GATED = _sample_by_library([e for e in _primary_entries() if e.hip and e.hip != e.cuda and e.hip_added
                            and e.hip_experimental is None and len(e.hip_added) >= 2
                            and e.hip_added[1] > 0 and e.hip_added >= (5, 3)], 40, floor=2)


def _previous_minor(version: Version) -> Version:
    return (version[0], version[1] - 1)


@pytest.mark.parametrize("entry", GATED, ids=_ids(GATED))
def test_api_is_emitted_from_the_version_that_added_it(entry: ApiEntry) -> None:
    source = f"void use() {{\n  {entry.cuda}();\n}}\n"
    added = run(source, rocm_version=entry.hip_added)
    assert word(entry.hip).search(added.output)
    assert "H014" not in codes(added)
    before = run(source, rocm_version=_previous_minor(entry.hip_added))
    assert before.output == source.encode()
    assert [(d.line, d.col, d.code, d.severity) for d in before.diagnostics] == [(2, 3, "H014", "error")]
    assert entry.hip in before.diagnostics[0].message


def test_patch_level_counts() -> None:
    entry = TABLES.lookup("cusparseCreate")          # hipsparseCreate: HIP 1.9.2
    assert entry.hip_added == (1, 9, 2)
    source = "void use() { cusparseCreate(0); }\n"
    assert codes(run(source, rocm_version=(1, 9))) == ["H014"]
    assert b"hipsparseCreate" in run(source, rocm_version=(1, 9, 2)).output


WARP = "__global__ void k(float* a) {\n  a[0] = __shfl_down_sync(0xffffffff, a[0], 16);\n}\n"


@pytest.mark.parametrize("version, call, diagnostics", [
    ((6, 1), "__shfl_down(a[0], 16)", []),
    ((6, 2), "__shfl_down_sync(__activemask(), a[0], 16)", ["H016"]),
    ((6, 9), "__shfl_down_sync(__activemask(), a[0], 16)", ["H016"]),
    ((7, 0), "__shfl_down_sync(__activemask(), a[0], 16)", []),
], ids=["6.1", "6.2", "6.9", "7.0"])
def test_warp_sync_boundaries(version: Version, call: str, diagnostics: list[str]) -> None:
    result = run(WARP, rocm_version=version)
    assert f"a[0] = {call};".encode() in result.output
    assert codes(result) == diagnostics


@pytest.mark.parametrize("version, kept", [((6, 9), False), ((7, 0), True)], ids=["6.9", "7.0"])
def test_syncwarp_needs_7_0(version: Version, kept: bool) -> None:
    result = run("__global__ void k() { __syncwarp(); }\n", rocm_version=version)
    assert b"__syncwarp();" in result.output
    assert codes(result) == ([] if kept else ["H014"])


# ------------------------------------------------------------------ one diagnostic per use

DIAGNOSED = (
    _spread(sorted((e for e in _primary_entries() if not e.hip), key=lambda e: e.cuda), 12)          # H010
    + _spread(sorted((e for e in _primary_entries() if e.hip and e.hip != e.cuda and e.cuda_deprecated
                      and not e.hip_experimental and (e.hip_added or (0,)) <= DEFAULT), key=lambda e: e.cuda), 6)
    + _spread(sorted((e for e in _primary_entries() if e.hip and e.hip_experimental), key=lambda e: e.cuda), 4)
    + _spread(sorted((e for e in _primary_entries() if e.hip and e.hip_added and e.hip_added > (6, 0)
                      and not e.hip_experimental), key=lambda e: e.cuda), 6)                             # H014
)


@pytest.mark.parametrize("entry", DIAGNOSED, ids=_ids(DIAGNOSED))
def test_one_diagnostic_per_use(entry: ApiEntry) -> None:
    # Three uses: in code, in a #define body, in an #else branch.
    source = (f"#define USE() {entry.cuda}()\n"
              f"void a() {{ {entry.cuda}(); }}\n"
              f"#ifdef X\nint b;\n#else\nvoid c() {{ {entry.cuda}(); }}\n#endif\n")
    result = run(source)
    assert len(result.diagnostics) == 3, [d.format() for d in result.diagnostics]
    assert len({(d.line, d.col) for d in result.diagnostics}) == 3
    assert len({d.code for d in result.diagnostics}) == 1


@pytest.mark.parametrize("version", [(5, 2), (6, 2), (7, 0)], ids=["5.2", "6.2", "7.0"])
def test_never_two_diagnostics_for_one_site(version: Version) -> None:
    source = """#include <cuda_runtime.h>
#define SHFL(v) __shfl_xor_sync(mask, v, 1)
__global__ void k(float* a, unsigned mask) {
  float v = __shfl_down_sync(0x0000ffff, a[0], 8) + __shfl_sync(mask, a[1], 0);
  v += __shfl_down_sync(0xffffffff, v, 16) + SHFL(v);
  __syncwarp();
  int n = __reduce_add_sync(0xffffffff, 1);
  unsigned m = __match_any_sync(0xffffffff, n);
  a[0] = v + n + m + __activemask();
}
void h(cudaGraph_t g, cudaGraphExec_t e, unsigned long long f) {
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphExecGetFlags(e, &f);
  cudaThreadSynchronize();
  cudaCtxResetPersistingL2Cache();
  cudaGetFuncBySymbol(0, 0);
  cudaBindTexture(0, 0, 0, 0);
}
"""
    result = run(source, rocm_version=version)
    sites = [(d.line, d.col) for d in result.diagnostics]
    assert len(sites) == len(set(sites)), [d.format() for d in result.diagnostics]
    assert len(result.diagnostics) >= 4


# ------------------------------------------------------------------ the runtime header


def test_byte_order_mark_stays_first() -> None:
    # With no #include the header goes at the top, but after a UTF-8 BOM.
    result = run(b"\xef\xbb\xbfvoid f() { cudaDeviceSynchronize(); }\n")
    assert result.output == b"\xef\xbb\xbf#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n"
    assert result.diagnostics == []


@pytest.mark.parametrize("source", [
    b'#include "k.h"\nvoid f() { k<<<1, 64>>>(); }\n',
    b"void f(dim3 g) {}\n",
    b"float4 f(float x) { return make_float4(x, x, x, x); }\n",
    b"int2 f(uint3 v) { return make_int2(v.x, v.y); }\n",
    b"void f(int *p) { hipMalloc(&p, 4); }\n",
], ids=["launch", "dim3", "float4", "int2-uint3", "hip-api"])
def test_runtime_header_for_launches_dim3_vector_types_and_hip_names(source: bytes) -> None:
    # Nothing to rename, but hipcc declares none of these without hip/hip_runtime.h.
    result = run(source)
    expected = (b"\n#include <hip/hip_runtime.h>\n" if source.startswith(b"#include") else
                b"#include <hip/hip_runtime.h>\n") + source
    assert result.output == expected
    assert run(result.output).output == result.output


def test_runtime_words_in_comments_and_strings_only_need_no_header() -> None:
    source = b'// float4, dim3, hipMalloc, k<<<1, 1>>>\nconst char *s = "threadIdx dim3";\n'
    assert run(source).output == source
    assert run(b"float4 f();\n", path="t.cpp").output == b"float4 f();\n"   # plain C++ may have its own


def test_a_users_hip_like_name_needs_no_runtime_header_and_a_guarded_include_is_kept() -> None:
    # Only the names HIP's runtime declares count (a user rule's hipNewCopy does not).
    assert run(b"void f(int *p) { hipNewCopy(p, 4); }\n").output == b"void f(int *p) { hipNewCopy(p, 4); }\n"
    # The include inside a guard, its #define after: the guard's code comes after it.
    guarded = b"#ifndef G\n#include <hip/hip_runtime.h>\n\n#define G\nhipError_t e();\n#endif\n"
    assert run(guarded).output == guarded


def test_runtime_header_goes_before_code_that_precedes_the_includes() -> None:
    # CMake's HIP language pre-includes nothing: the table needs NULL, the typedef dim3.
    source = (b"// lead\nstatic int* table = NULL;\ntypedef dim3 Grid;\n#include <cuda_runtime.h>\n"
              b"void f() { cudaDeviceSynchronize(); }\n")
    result = run(source)
    assert result.output == (b"// lead\n#include <hip/hip_runtime.h>\nstatic int* table = NULL;\ntypedef dim3 Grid;\n"
                             b"#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n")
    assert run(result.output).output == result.output
    # Code inside an #if goes after the include, which goes before the #if (not into an #if 0).
    result = run(b"/* c */\n#if 0\nold\n#endif\nint x;\n#include <stdio.h>\n__global__ void k() {}\n")
    assert result.output == (b"/* c */\n#include <hip/hip_runtime.h>\n#if 0\nold\n#endif\nint x;\n"
                             b"#include <stdio.h>\n__global__ void k() {}\n")
    # Only directives before the first include: before that include, as HIPIFY puts it.
    result = run(b"#define N 4\n#include <stdio.h>\n__global__ void k() {}\n")
    assert result.output == b"#define N 4\n\n#include <hip/hip_runtime.h>\n#include <stdio.h>\n__global__ void k() {}\n"


def test_no_header_inserted_when_nothing_changes() -> None:
    source = b"// cudaMalloc, in a comment only\nint main() { return 0; }\n"
    assert run(source).output == source


# ------------------------------------------------------------------ known bugs


def test_runtime_header_goes_before_the_first_include() -> None:
    result = run("#include <stdio.h>\n#include <vector>\nvoid f() { cudaDeviceSynchronize(); }\n")
    assert result.output == (b"\n#include <hip/hip_runtime.h>\n#include <stdio.h>\n#include <vector>\n"
                             b"void f() { hipDeviceSynchronize(); }\n")


def test_overload_is_gated_on_the_name_it_emits() -> None:
    result = run("void f(cudaGraph_t g, cudaGraphExec_t e) { cudaGraphInstantiate(&e, g, 0); }\n",
                 rocm_version=(4, 5))
    assert b"hipGraphInstantiateWithFlags" not in result.output
    assert codes(result) == ["H014"]


def test_roc_names_are_version_gated() -> None:
    result = run("void f() { cublasSaxpy_64(h, n, &a, x, 1, y, 1); }\n", roc=True, rocm_version=(5, 2))
    assert b"rocblas_saxpy_64" not in result.output
    assert codes(result) == ["H014"]


def test_using_namespace_cub() -> None:
    assert run("#include <cub/cub.cuh>\nusing namespace cub;\n").output.endswith(b"using namespace hipcub;\n")


def test_applied_edits_are_offsets_into_the_input() -> None:
    source = b"cudaStream_t s;\n#include <stdio.h>\n"
    result = run(source)
    insertion = [e for f in result.applied if f.rule == "H002" for e in f.edits]
    # Before the line that uses hipStream_t, which comes before `#include <stdio.h>`.
    assert insertion == [Edit(0, 0, b"#include <hip/hip_runtime.h>\n")]


def test_comment_inside_launch_configuration_is_kept() -> None:
    result = run("__global__ void k(int);\nvoid f() { k<<<1, /* block */ 64>>>(3); }\n",
                 hip_kernel_execution_syntax=True)
    assert b"hipLaunchKernelGGL(k" in result.output
    assert b"/* block */" in result.output


def test_cudnn_deprecation_names_cudnn() -> None:
    result = run("void f() { cudnnActivationForward(h, a, &x, d, p, &y, d, q); }\n", miopen=True)
    [warning] = [d for d in result.diagnostics if d.code == "H012"]
    assert "cuDNN 9.0.0" in warning.message


@pytest.mark.parametrize("source, options", [
    ("void f(CUfunction fn) { int g, b; cuOccupancyMaxPotentialBlockSize(&g, &b, fn, 0, 0, 0); }\n", {}),
    ("void f(cudnnHandle_t h, cudnnTensorDescriptor_t d, float* x) { float a = 1, b = 0;\n"
     "  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &a, d, x, &b, d, x); }\n",
     {"miopen": True}),
], ids=["cuOccupancyMaxPotentialBlockSize", "cudnnSoftmaxForward-miopen"])
def test_changed_signature_is_rewritten_or_diagnosed(source: str, options: dict) -> None:
    # Either rewritten as HIPIFY does, or left alone with a diagnostic naming the call.
    rewritten = {
        "cuOccupancyMaxPotentialBlockSize": b"hipModuleOccupancyMaxPotentialBlockSize(&g, &b, fn, 0, 0)",
        "cudnnSoftmaxForward": b"miopenSoftmaxForward_V2(h, &a, d, x, &b, d, x, MIOPEN_SOFTMAX_ACCURATE, "
                               b"MIOPEN_SOFTMAX_MODE_INSTANCE)",
    }
    name = next(n for n in rewritten if n in source)
    result = run(source, **options)
    assert rewritten[name] in result.output or (
        name.encode() in result.output and any(name in d.message for d in result.diagnostics))


def test_get_texture_reference_wraps_the_symbol() -> None:
    result = run("texture<float, 1> tex;\nvoid g() { const textureReference* r; cudaGetTextureReference(&r, &tex); }\n")
    assert b"hipGetTextureReference(&r, HIP_SYMBOL(&tex))" in result.output


def test_string_inside_a_parse_error_region_is_kept() -> None:
    result = run('void f(float* d, const float* h) {\n'
                 '  COPY(float, d, h, "cudaMemcpy failed", cudaMemcpyHostToDevice);\n}\n')
    assert b'"cudaMemcpy failed"' in result.output
    assert b"hipMemcpyHostToDevice" in result.output


def test_header_insertion_keeps_a_broken_file_idempotent() -> None:
    source = b'}\nv = __shfl_down_sync(0xffffffff, v, 16);\ncudaMalloc(&p, n); "x"\n'
    first = run(source)
    assert run(first.output).output == first.output
    assert "P003" not in codes(first)


def test_identity_names_deprecated_in_cuda_get_no_warning() -> None:
    # HIP keeps `__shfl_down` and supports it; CUDA's deprecation of it says nothing about
    # the output, and our own warp-sync rewrite emits it, so a second run must stay quiet.
    first = run("__global__ void k(float *p) { p[0] = __shfl_down_sync(0xffffffff, p[0], 1); }\n")
    assert b"__shfl_down(p[0], 1)" in first.output and codes(first) == []
    second = run(first.output.decode())
    assert second.output == first.output and codes(second) == []


def test_include_guard_found_after_comments_and_many_comments_without_guard() -> None:
    # The guard search skips leading blanks and comments; a file that opens with many
    # comments and has no guard must not send it into exponential backtracking (it did:
    # CUDA's cuda_fp6.hpp never finished).
    guarded = "/* a */\n// b\n/* c\n * d */\n#ifndef K_CUH\n#define K_CUH\nvoid f() { cudaDeviceReset(); }\n#endif\n"
    assert run(guarded).output.startswith(
        b"/* a */\n// b\n/* c\n * d */\n#ifndef K_CUH\n#include <hip/hip_runtime.h>\n\n#define K_CUH\n")
    many = "".join(f"/* note {i} */\n" for i in range(60)) + "void f() { cudaDeviceReset(); }\n"
    assert run(many).output.startswith(b"#include <hip/hip_runtime.h>\n/* note 0 */")


def test_an_edit_that_breaks_the_parse_is_an_internal_error(monkeypatch) -> None:
    # A pass that wrote `{` into clean code: the re-parse check names the place.
    from translator import passes
    from translator.edits import replace
    original = passes.all_passes()["hipify"]

    def broken(ctx):
        original.run(ctx)
        at = ctx.source.data.index(b"int y")
        if not ctx.source.data[:at].endswith(b"{ "):    # once: the pass converges
            ctx.fixes.append(replace(at, at, "{ ", "H999", "a bad edit"))
    monkeypatch.setitem(passes.PASSES, "hipify", dataclasses.replace(original, run=broken))
    result = run("void f() { cudaDeviceReset(); }\nint y;\n")
    [p003] = [d for d in result.diagnostics if d.code == "P003"]
    # At the input's line, naming the output's position (the include added a line).
    assert (p003.line, p003.severity) == (2, "error") and "internal error" in p003.message
    assert "at output 3:" in p003.message


def test_renames_inside_a_broken_region_are_not_internal_errors() -> None:
    # tree-sitter's recovery weighs token lengths: a longer name inside a region that does
    # not parse may change how it recovers, which is no error of the translation.
    source = ("#ifdef _WIN32\n#define CB __stdcall\n#else\n#define CB\n#endif\n"
              "typedef void (CB *CUhostFn)(void *userData);\nvoid g(CUhostFn fn);\n")
    result = run(source)
    assert b"hipHostFn_t" in result.output
    assert "P003" not in codes(result)


def test_a_declared_name_is_not_replaced_by_a_type_expression() -> None:
    # HIP has no name for CUoccupancyB2DSize: the tables give `void*`, fine where it is
    # used as a type, not where a declaration introduces it.
    source = "typedef size_t (*CUoccupancyB2DSize)(int blockSize);\nvoid g(CUoccupancyB2DSize cb);\n"
    result = run(source)
    assert result.output.endswith(b"typedef size_t (*CUoccupancyB2DSize)(int blockSize);\nvoid g(void* cb);\n")
    assert codes(result) == ["H018"]


def test_a_name_removed_in_the_target_is_kept_with_an_error(monkeypatch) -> None:
    # HIPIFY's tables list no removal today; an entry that says `removed in 6.0` is kept
    # as CUDA from that target on, with an error, and renamed below it.
    from translator.mapping import MappingTables
    lookup = MappingTables.lookup

    def removed(self, name):
        entry = lookup(self, name)
        return dataclasses.replace(entry, hip_removed=(6, 0)) if name == "cudaMallocPitch" else entry
    monkeypatch.setattr(MappingTables, "lookup", removed)
    source = "void f(void **p, size_t *q) { cudaMallocPitch(p, q, 4, 4); }\n"
    result = run(source, rocm_version=(6, 2))
    assert result.output == source.encode()
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:1:31: error: 'hipMallocPitch' (for 'cudaMallocPitch') was removed in HIP 6.0; the target is "
        "ROCm 6.2 [H011]"]
    assert b"hipMallocPitch(p, q, 4, 4)" in run(source, rocm_version=(5, 2)).output


def test_overlapping_fixes_give_p004(monkeypatch) -> None:
    from translator import passes
    from translator.passes.hipify.renames import RENAME
    from translator.edits import Edit
    original = passes.all_passes()["hipify"]

    def greedy(ctx):
        original.run(ctx)
        at = ctx.source.data.find(b"cudaFree")
        if at >= 0:
            ctx.fix(RENAME, Edit(at, at + 4, b"HIP_"), "a second rename of the same bytes")
    monkeypatch.setitem(passes.PASSES, "hipify", dataclasses.replace(original, run=greedy))
    result = run("void f() { cudaFree(0); }\n")
    assert result.output == b"#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n"
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:1:12: warning: edit not applied, it overlaps another: a second rename of the same bytes [P004]"]


# ------------------------------------------------------------------ legacy cuBLAS (H023)

def _cublas_headers() -> tuple[str, str, str] | None:
    """The text of CUDA's cublas.h, cublas_api.h and cublas_v2.h, comments removed, from
    $CU2HIP_CUDA_INCLUDE, PyPI's nvidia-* wheels or the CI cache; None where absent."""
    import os
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    places = [Path(p) for p in os.environ.get("CU2HIP_CUDA_INCLUDE", "").split(os.pathsep) if p]
    places += [Path(p) / "nvidia" / "cu13" / "include" for p in sys.path]
    places.append(root / ".ci" / "cache" / "cuda-headers" / "nvidia" / "cu13" / "include")
    for place in places:
        if (place / "cublas.h").is_file():
            return tuple(re.sub(r"/\*.*?\*/", " ", (place / name).read_text(encoding="utf-8"), flags=re.S)
                         for name in ("cublas.h", "cublas_api.h", "cublas_v2.h"))
    return None


def _prototypes(text: str) -> dict[str, list[str]]:
    """name -> parameter declarations of every `CUBLASWINAPI name(...)` in a header."""
    found = {}
    for m in re.finditer(r"CUBLASWINAPI\s+(cublas\w+)\s*\(([^)]*)\)", text):
        params = [" ".join(p.split()) for p in m.group(2).split(",")]
        found[m.group(1)] = [] if params == ["void"] else params
    return found


@pytest.mark.skipif(_cublas_headers() is None, reason="CUDA's cublas.h not found: set CU2HIP_CUDA_INCLUDE")
def test_legacy_cublas_routines_are_those_of_cudas_headers() -> None:
    from translator.passes.hipify.legacy_blas import ROUTINES
    legacy_h, api_h, v2_h = _cublas_headers()
    legacy, api = _prototypes(legacy_h), _prototypes(api_h)
    assert sorted(ROUTINES) == sorted(legacy) and len(ROUTINES) == 157
    for name, params in legacy.items():
        routine = ROUTINES[name]
        assert routine.arguments == len(params), name
        v2 = api.get(name + "_v2")
        # cublas_v2.h makes the legacy name the _v2 function's, exactly where one exists.
        assert (f"#define {name} {name}_v2" in v2_h) == (v2 is not None), name
        assert routine.v2_arguments == (len(v2) if v2 else None), name
        if v2 is None or name == "cublasGetVersion":
            continue
        # The message's v2 arguments: `&` exactly where the legacy API passed a value that
        # v2 takes by address, and where v2 adds an output (a result); options become enums.
        written = re.search(rf"{name}\(handle, ([^)]*)\)", routine.message).group(1).split(", ")
        note = re.search(r"\) \(([^)]*); not char\) first", routine.message)
        enums = {p: t for group in (note.group(1).split("; ") if note else ())
                 for t in [group.split(": ")[1]] for p in group.split(": ")[0].split(", ")}
        assert len(written) == len(v2) - 1, name
        for i, declared in enumerate(v2[1:]):
            # (TRMM's added output C is a matrix, like B: no `&`.)
            by_address = "*" in declared and (params[i:i + 1] == [] and declared.endswith(" result")
                                              or params[i:i + 1] != [] and "*" not in params[i])
            assert written[i].startswith("&") == by_address, (name, declared)
            assert written[i].lstrip("&") == declared.split()[-1].lstrip("*"), (name, declared)
            if i < len(params) and params[i].startswith("char "):
                assert enums.pop(written[i]) == declared.split()[0], (name, declared)
        assert enums == {}, name


def test_legacy_and_v2_argument_counts_never_coincide() -> None:
    from translator.passes.hipify.legacy_blas import ROUTINES
    assert all(r.arguments != r.v2_arguments for r in ROUTINES.values())


def test_a_legacy_routine_is_not_renamed_in_a_later_round() -> None:
    # The launch rewrite makes a second round, whose text includes hipblas.h, not cublas.h:
    # the function pointer (no call, so no argument count) must still be left as it is.
    source = ("#include <cublas.h>\n__global__ void k(float *x) { x[0] = 1; }\n"
              "void f(float *x) {\n  k<<<1, 1>>>(x);\n  void (*s)(int, float, float *, int) = cublasSscal;\n}\n")
    result = run(source, hip_kernel_execution_syntax=True)
    assert result.output == (
        b"\n#include <hip/hip_runtime.h>\n#include <hipblas.h>\n__global__ void k(float *x) { x[0] = 1; }\n"
        b"void f(float *x) {\n  hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, x);\n"
        b"  void (*s)(int, float, float *, int) = cublasSscal;\n}\n")
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:5:41: error: legacy cuBLAS 'cublasSscal' takes no handle: port to cublas_v2.h's "
        "cublasSscal(handle, n, &alpha, x, incx) first; not translated [H023]"]


def test_cublas_v2_wins_where_a_file_includes_both_headers() -> None:
    source = ("#ifdef OLD_BLAS\n#include <cublas.h>\n#else\n#include <cublas_v2.h>\n#endif\n"
              "void f(cublasHandle_t h, float *x) { const float a = 2; cublasSscal(h, 4, &a, x, 1); }\n")
    result = run(source)
    assert result.output.endswith(
        b"#endif\nvoid f(hipblasHandle_t h, float *x) { const float a = 2; hipblasSscal(h, 4, &a, x, 1); }\n")
    assert result.diagnostics == []


def test_a_legacy_call_that_does_not_parse_stays_in_a_translation() -> None:
    # Its argument count cannot be trusted, so it is not taken for v2's form: a second run
    # leaves what the first left (found by bench/fuzz.py).
    call = "cublasSgemm('N', 'T', n, n, n, 1.0f, a, n, <<<<a, n, 0.0f, a, n);"
    first = run("#include <cublas.h>\nvoid f(float *a, int n) { " + call + " }\n")
    assert call.encode() in first.output
    again = run(first.output)
    assert again.output == first.output
    assert "H023" in {d.code for d in again.diagnostics}


def test_a_call_in_v2_form_under_the_legacy_header_is_v2() -> None:
    # It has the handle: renamed by the first run as by a second (found by bench/fuzz.py).
    source = "#include <cublas.h>\nvoid f(cublasHandle_t h, float *a) { cublasSgemm(h, 0, 0, 1, 1, 1, a, a, 1, a, 1, a, a, 1); }\n"
    first = run(source)
    assert b"hipblasSgemm(h, 0, 0, 1, 1, 1, a, a, 1, a, 1, a, a, 1)" in first.output
    assert "H023" not in {d.code for d in first.diagnostics}
    assert run(first.output).output == first.output


def test_the_legacy_header_is_found_in_a_file_of_cr_line_endings() -> None:
    # Found by bench/fuzz.py: `^` of a multi-line regex does not start a line after CR.
    first = run(b"#include <cublas.h>\rvoid f(float *x) { cublasSscal(4, 2.0f, x, 1); }\r")
    assert b"cublasSscal(4" in first.output
    assert run(first.output).output == first.output


def test_an_ignored_legacy_call_is_still_not_renamed() -> None:
    # Silencing H023 (by option or by comment) does not bring back the wrong rename.
    header = b"\n#include <hip/hip_runtime.h>\n#include <hipblas.h>\n"
    source = "#include <cublas.h>\nvoid f(float *x) { cublasSscal(4, 2.0f, x, 1); }\n"
    result = run(source, ignore=("H023",))
    assert result.output == header + b"void f(float *x) { cublasSscal(4, 2.0f, x, 1); }\n"
    assert result.diagnostics == []
    commented = source.replace("}\n", "}  // cu2hip: ignore[H023]\n")
    result = run(commented)
    assert result.output == header + b"void f(float *x) { cublasSscal(4, 2.0f, x, 1); }  // cu2hip: ignore[H023]\n"
    assert result.diagnostics == []


# ------------------------------------------------------------------ hipify-clang's matchers, launches in macros

def test_macro_operators_read_as_cpp_keeps_offsets_literals_and_comments() -> None:
    from translator.frontend import macro_operators_read
    body = b'name ## _k<<<g, b>>>(x); printf("%s ## #", #name); /* # ## */ f(a, ##__VA_ARGS__) // ##\n\'#\''
    read = macro_operators_read(body)
    assert len(read) == len(body)
    assert read == b'name :: _k<<<g, b>>>(x); printf("%s ## #",  name); /* # ## */ f(a, ::__VA_ARGS__) // ##\n\'#\''
    assert macro_operators_read(b"k<<<1, 2>>>(x)") == b"k<<<1, 2>>>(x)"


def test_launch_in_a_pasting_body_is_a_launch_site() -> None:
    source = "__global__ void a_kernel(int *x) {}\n#define L(op, ...) op##_kernel<<<1, 32>>>(__VA_ARGS__)\n"
    result = run(source, hip_kernel_execution_syntax=True)
    (site,) = module_of("x.cu", source.encode()).launches
    assert (site.kernel, site.in_macro, site.clean) == ("op##_kernel", True, True)
    assert b"#define L(op, ...) hipLaunchKernelGGL(op##_kernel, dim3(1), dim3(32), 0, 0, __VA_ARGS__)\n" \
        in result.output


@pytest.mark.parametrize("source", [
    "__global__ void k(int *x) {}\n#define L(kern, ...) \\\n  kern<<<1, \\\n    32>>>(__VA_ARGS__)\n"
    "void f(int *x) { L(k, x); }\n",
    "template <typename T> __global__ void k(T *x) {}\n#define L(T, x) k<T><<<1, 32, 0, 0>>>(x)\n",
    "__global__ void k() {}\n#define L(n) k<<<1, (n)>>>()\nvoid f() { L(4); k<<<1, 1>>> (); }\n",
], ids=["line-splices", "template-parameter", "no-arguments"])
def test_launch_syntax_output_is_a_fixed_point(source: str) -> None:
    first = run(source, hip_kernel_execution_syntax=True)
    assert b"<<<" not in first.output
    again = run(first.output, hip_kernel_execution_syntax=True)
    assert again.output == first.output and again.applied == []


def test_launch_kept_warnings_need_the_hip_syntax_option() -> None:
    source = "__global__ void k(int *x) {}\n#define CALL(k) k<<<1, 32>>>\nint f(int *x) { return k<<<1, 1>>>(x), 0; }\n"
    assert codes(run(source)) == []
    assert [(d.line, d.code, d.severity) for d in run(source, hip_kernel_execution_syntax=True).diagnostics] == [
        (2, "H003", "warning"), (3, "H003", "warning")]


def test_half2_member_rewrite_is_idempotent_and_can_be_ignored() -> None:
    source = "__device__ float f(half2 v, half2 *p) { return __half2float(v.y) + __half2float(p[0].x); }\n"
    first = run(source)
    assert first.output == (b"#include <hip/hip_runtime.h>\n__device__ float f(half2 v, half2 *p) { return "
                            b"__half2float(reinterpret_cast<half&>(v.y)) + "
                            b"__half2float(reinterpret_cast<half&>(p[0].x)); }\n")
    assert [f.rule for f in first.applied] == ["H002", "H027", "H027"]
    assert run(first.output).output == first.output
    assert run(source, ignore=("H027",)).output == b"#include <hip/hip_runtime.h>\n" + source.encode()


def test_half2_member_of_an_undeclared_or_other_type_is_left() -> None:
    source = ("struct S { half2 h; };\n__device__ float f(S s, float2 v, half2 *p) {\n"
              "  return __half2float(s.h.x) + v.x + __half2float(p.x);\n}\n")
    assert run(source).output == b"#include <hip/hip_runtime.h>\n" + source.encode()


def test_data_type_selection_changes_nothing_without_roc() -> None:
    source = "#include <library_types.h>\nvoid f(cudaDataType_t t) { cudaDataType u = CUDA_R_32F; (void)(t == u); }\n"
    assert run(source, use_hip_data_types=True).output == run(source).output
    assert b"void f(hipDataType t) { hipDataType u = HIP_R_32F;" in run(source).output


def test_data_type_selection_is_a_rename_gated_on_the_target() -> None:
    source = "void f(cudaDataType_t t);\n"
    result = run(source, roc=True, use_hip_data_types=True)
    assert result.output == b"#include <hip/hip_runtime.h>\nvoid f(hipDataType t);\n"
    assert [f.rule for f in result.applied] == ["H002", "H001"]
    old = run(source, roc=True, use_hip_data_types=True, rocm_version=(5, 0))
    assert old.output == source.encode() and codes(old) == ["H014"]


def test_pasted_name_is_reported_per_use_in_the_file() -> None:
    source = ("#define R(op, a, b) __f##op##_rd(a, b)\n#define E(f) __##f##f\n"
              "__device__ float g(float a) { return R(add, a, a) + R(sub, a, a) + E(exp)(a); }\n"
              "// R(mul, a, a) in a comment\n")
    result = run(source)
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:3:38: error: a use of macro 'R' pastes '__fadd_rd' with ##, which has no HIP equivalent [H028]",
        "t.cu:3:53: error: a use of macro 'R' pastes '__fsub_rd' with ##, which has no HIP equivalent [H028]"]
    assert result.output == b"#include <hip/hip_runtime.h>\n" + source.encode()


def test_cooperative_launch_gets_hips_missing_defaults() -> None:
    source = "__global__ void k() {}\nvoid f(void **a) { cudaLaunchCooperativeKernel(k, 1, 32, a); }\n"
    assert run(source).output == (b"#include <hip/hip_runtime.h>\n__global__ void k() {}\nvoid f(void **a) { "
                                  b"hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), 1, 32, a, 0, 0); }\n")


# ------------------------------------------------------------------ library argument rewrites (H021, H022)

from pathlib import Path  # noqa: E402

from translator.passes.hipify.library_calls import HIP_REWRITES, PRECISIONS, REWRITES  # noqa: E402

ROCSPARSE_FUNCTIONS = Path("/usr/include/rocsparse/rocsparse-functions.h")
HIPSPARSE_HEADER = Path("/usr/include/hipsparse/hipsparse.h")


def _call_arguments(output: bytes, name: str) -> list[str]:
    """The arguments of the first call of `name` in `output`, split at top-level commas."""
    text = output.decode()
    start = text.index(name + "(") + len(name) + 1
    depth, args, current = 0, [], ""
    for ch in text[start:]:
        if ch == ")" and depth == 0:
            break
        depth += (ch in "(<") - (ch in ")>")
        if ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
        else:
            current += ch
    return args + [current.strip()]


def _prototype_arity(header: Path, name: str, status: str) -> int:
    found = re.findall(status + r"\s+" + re.escape(name) + r"\s*\(([^)]*)\)", header.read_text())
    assert found, f"{name} is not declared in {header}"
    return len(re.sub(r"/\*.*?\*/", "", found[-1], flags=re.S).split(","))


@pytest.mark.skipif(not ROCSPARSE_FUNCTIONS.exists(), reason="rocSPARSE's headers are not installed (librocsparse-dev)")
@pytest.mark.parametrize("name", sorted(n for n, r in REWRITES.items() if n.startswith("cusparse") and r.since is None))
def test_rocsparse_rewrite_gives_the_installed_prototypes_argument_count(name: str) -> None:
    rewrite = REWRITES[name]
    arguments = ", ".join(f"a{i}" for i in range(rewrite.arguments))
    result = run(f"void f() {{ {name}({arguments}); }}\n", roc=True, rocm_version=(6, 3))
    roc = TABLES.lookup(name).roc
    assert [f.rule for f in result.applied if f.rule == "H021"] == ["H021"]
    assert len(_call_arguments(result.output, roc)) == _prototype_arity(ROCSPARSE_FUNCTIONS, "rocsparse_" +
                                                                         roc.removeprefix("rocsparse_"),
                                                                         "rocsparse_status")


@pytest.mark.skipif(not HIPSPARSE_HEADER.exists(), reason="hipSPARSE's header is not installed (libhipsparse-dev)")
def test_hipsparse_rewrite_gives_the_installed_prototypes_argument_count() -> None:
    for name, rewrite in HIP_REWRITES.items():
        result = run(f"void f() {{ {name}({', '.join(f'a{i}' for i in range(rewrite.arguments))}); }}\n",
                     rocm_version=(6, 3))
        hip = TABLES.lookup(name).hip
        assert len(_call_arguments(result.output, hip)) == _prototype_arity(HIPSPARSE_HEADER, hip, "hipsparseStatus_t")


def test_the_rewrite_table_covers_whole_precision_families_and_known_names() -> None:
    for name, rewrite in {**REWRITES, **HIP_REWRITES}.items():
        entry = TABLES.lookup(name)
        assert entry is not None and entry.library in ("sparse", "dnn"), name
        assert (entry.roc if rewrite.to_roc else entry.hip), name
        for op in rewrite.ops:      # what an operation takes is an argument of the call
            if op.kind == "add":
                assert 0 <= op.index <= rewrite.arguments + 1, name
            else:
                assert 0 <= op.index and op.index + op.count <= rewrite.arguments, name
    families = {n[:8] + "?" + n[9:] for n in REWRITES if n.startswith("cusparse") and n[8] in PRECISIONS
                and n[9:].startswith(("csr", "bsr", "gtsv", "gpsv", "gemvi"))}
    assert len(families) == 32     # hipify-clang's 30 and csrgemm2_bufferSizeExt, bsrsm2_analysis
    for family in families:
        assert all(family.replace("?", p, 1) in REWRITES for p in PRECISIONS), family


def test_spmv_rewrite_follows_rocsparse_3s_signature_and_needs_rocm_6() -> None:
    source = "void f() { cusparseSpMV(h, op, a, A, x, b, y, t, alg, buf); }\n"
    new = run(source, roc=True, rocm_version=(6, 0))
    assert b"rocsparse_spmv(h, op, a, A, x, b, y, t, alg, rocsparse_spmv_stage_compute, nullptr, buf);" in new.output
    old = run(source, roc=True, rocm_version=(5, 7))
    assert old.output == source.encode()
    assert [d.format() for d in old.diagnostics] == [
        "t.cu:1:12: error: 'cusparseSpMV' -> 'rocsparse_spmv': rocSPARSE takes different arguments; not translated: "
        "'rocsparse_spmv' takes the rewritten arguments from ROCm 6.0; the target is ROCm 5.7 [H017]"]


def test_a_library_rewrite_applies_only_to_the_mapping_it_is_for() -> None:
    sparse = "void f() { cusparseScsrilu02(h, m, n, d, v, r, c, i, p, b); }\n"
    assert run(sparse).output == (b"#include <hip/hip_runtime.h>\n"
                                  b"void f() { hipsparseScsrilu02(h, m, n, d, v, r, c, i, p, b); }\n")
    softmax = "void f() { cudnnSoftmaxForward(h, al, mo, a, xd, x, b, yd, y); }\n"
    result = run(softmax, roc=True, rocm_version=(6, 3))
    assert "H021" not in {f.rule for f in result.applied}
    assert b"(h, al, mo, a, xd, x, b, yd, y)" in result.output


def test_a_call_with_another_argument_count_is_refused() -> None:
    source = "void f() { cusparseScsrilu02(h, m, n, d, v, r, c, i, b); }\n"
    result = run(source, roc=True)
    assert result.output == source.encode()
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:1:12: error: 'cusparseScsrilu02' -> 'rocsparse_scsrilu0': rocSPARSE takes different arguments; not "
        "translated: the call has 9 arguments where the rewrite is for 10 [H017]"]


def test_ignoring_h021_leaves_the_call_unrenamed_with_h017() -> None:
    source = "void f() { cusparseScsrilu02(h, m, n, d, v, r, c, i, p, b); }\n"
    result = run(source, roc=True, ignore=("H021",))
    assert result.output == source.encode()
    assert codes(result) == ["H017"]
    assert "turned off" in result.diagnostics[0].message


def test_moved_arguments_are_renamed_where_they_land_without_overlaps() -> None:
    source = ("void f() {\n  cudnnSoftmaxBackward(h, CUDNN_SOFTMAX_LOG,\n                       CUDNN_SOFTMAX_MODE_INSTANCE, "
              "a, yd, y, dyd, dy, b, dxd, dx);\n}\n")
    result = run(source, miopen=True, rocm_version=(6, 3))
    assert result.output == (b"#include <hip/hip_runtime.h>\nvoid f() {\n  miopenSoftmaxBackward_V2(h, a, yd, y, dyd, "
                             b"dy, b, dxd, dx, MIOPEN_SOFTMAX_LOG,\n                       MIOPEN_SOFTMAX_MODE_INSTANCE);\n}\n")
    assert "P004" not in codes(result)
    assert run(result.output.decode(), miopen=True, rocm_version=(6, 3)).output == result.output


def test_a_buffer_size_cast_is_warned_once_at_the_argument() -> None:
    result = run("void f(int *n) { cusparseSgemvi_bufferSize(h, op, 4, 4, 8, n); }\n", roc=True)
    assert b"rocsparse_sgemvi_buffer_size(h, op, 4, 4, 8, reinterpret_cast<size_t*>(n));" in result.output
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:1:60: warning: 'cusparseSgemvi_bufferSize': rocsparse_sgemvi_buffer_size writes a size_t through "
        "argument 'n', which the CUDA call passes as int* [H022]"]


def test_rocblas_types_are_for_host_code_of_blas_files_only() -> None:
    blas = ("#include <cublas_v2.h>\n__global__ void k(cuComplex *x) {}\n"
            "void f(cublasHandle_t h, cuComplex *x, __half *y) {}\n")
    output = run(blas, roc=True).output
    assert b"__global__ void k(hipComplex *x) {}" in output
    assert b"void f(rocblas_handle h, rocblas_float_complex *x, rocblas_half *y) {}" in output
    sparse = "#include <cusparse.h>\nvoid f(cusparseHandle_t h, cuComplex *x) {}\n"
    assert b"void f(rocsparse_handle h, hipComplex *x) {}" in run(sparse, roc=True).output
    assert b"void f(hipblasHandle_t h, hipComplex *x, __half *y) {}" in run(blas).output


def test_rocblas_header_is_in_its_folder_from_rocm_5_2() -> None:
    source = "#include <cublas_v2.h>\nvoid f(cublasHandle_t h) {}\n"
    assert b"#include <rocblas/rocblas.h>\n" in run(source, roc=True, rocm_version=(5, 2)).output
    assert b"#include <rocblas.h>\n" in run(source, roc=True, rocm_version=(5, 1)).output


def test_a_library_rewrite_waits_for_its_counterparts_version() -> None:
    source = "void f() { cusparseSgtsvInterleavedBatch(h, 0, m, dl, d, du, x, n, b); }\n"
    old = run(source, roc=True, rocm_version=(5, 0))
    assert old.output == source.encode()
    assert [d.format() for d in old.diagnostics] == [
        "t.cu:1:12: error: 'rocsparse_sgtsv_interleaved_batch' (for 'cusparseSgtsvInterleavedBatch') needs rocSPARSE "
        "5.1.0; the target is ROCm 5.0 (--rocm-version) [H014]"]
    assert b"rocsparse_sgtsv_interleaved_batch(h, 0, m, dl, d, du, x, n, n, b);" in \
        run(source, roc=True, rocm_version=(5, 1)).output


def test_a_legacy_name_outside_any_call_is_left_by_a_second_run_too() -> None:
    # The first run leaves it (cublas.h: legacy) and maps the header to hipBLAS's; the
    # second sees hipBLAS's header and no cuBLAS one: a cuBLAS name that is no call was
    # left on purpose. A call there is still decided by its argument count.
    first = run("#include <cublas.h>\nvoid (*p)(int, float, float *, int) = cublasSscal;\n")
    assert b"= cublasSscal;" in first.output and [d.code for d in first.diagnostics] == ["H023"]
    assert run(first.output).output == first.output
    port = run("#include <hipblas.h>\nvoid f(hipblasHandle_t h, float *x) { float a = 2; "
               "cublasSscal(h, 4, &a, x, 1); }\n")
    assert b"hipblasSscal(h, 4, &a, x, 1)" in port.output


def test_a_legacy_call_of_another_argument_count_is_left_by_a_second_run_too() -> None:
    first = run("#include<cublas.h>cublasSscal()")
    assert run(first.output).output == first.output


_DEVICE_PROPS = """#include <cstdio>
void show(const cudaDeviceProp& q) { printf("%zu %zu\\n", q.sharedMemPerBlock, q.sharedMemPerMultiprocessor); }
int main() {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    size_t optin = p.sharedMemPerBlockOptin;
    cudaDeviceProp* pp = &p;
    printf("%d %zu %d\\n", pp->multiProcessorCount, optin, pp->regsPerMultiprocessor);
    return 0;
}
"""


def test_device_prop_fields_the_target_struct_names_otherwise_are_renamed_and_missing_ones_are_errors():
    # ROCm 5.2's hipDeviceProp_t (translator/data/device_props.tsv, from its header):
    # sharedMemPerMultiprocessor is maxSharedMemoryPerMultiProcessor there; the opt-in and
    # the registers per multiprocessor do not exist, which hipcc would only say as "no member".
    result = run(_DEVICE_PROPS, rocm_version=(5, 2))
    assert b"q.maxSharedMemoryPerMultiProcessor)" in result.output
    assert b"p.sharedMemPerBlockOptin" in result.output      # left, with its error
    errors = [(d.code, d.line, d.col) for d in result.diagnostics if d.severity == "error"]
    assert errors == [("H044", 6, 22), ("H044", 8, 63)]
    assert "use sharedMemPerBlock" in next(d.message for d in result.diagnostics if d.line == 6)
    # A release with no field list (6.0: CUDA's struct) is left to the compiler.
    later = run(_DEVICE_PROPS, rocm_version=(6, 0))
    assert b"q.sharedMemPerMultiprocessor)" in later.output
    assert not [d for d in later.diagnostics if d.code in ("H043", "H044")]
