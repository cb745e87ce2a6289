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
from translator.mapping import ApiEntry, Version, load_tables
from translator.passes import Options
from translator.pipeline import Result, translate

TABLES = load_tables()
DEFAULT: Version = (5, 2)


def run(source: str | bytes, **options) -> Result:
    options.setdefault("rocm_version", DEFAULT)
    data = source.encode("utf-8") if isinstance(source, str) else source
    return translate("t.cu", data, Options(**options))


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
    assert result.output == (b"\n#include <hip/hip_runtime.h>\n#include <rocblas.h>\n"
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
    ((6, 2), "__shfl_down_sync(0xffffffffffffffffull, a[0], 16)", ["H016"]),
    ((6, 9), "__shfl_down_sync(0xffffffffffffffffull, a[0], 16)", ["H016"]),
    ((7, 0), "__shfl_down_sync(0xffffffffffffffffull, a[0], 16)", []),
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
    assert insertion == [Edit(16, 16, b"\n#include <hip/hip_runtime.h>\n")]   # before `#include <stdio.h>`


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
