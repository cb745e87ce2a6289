"""The warp-size pass (W2xx): the device-function call graph and lane model it reads, the
rule selectors, the per-topic statistics, idempotence over the corpus's warp code, and
the compilers' verdict on its output (hipcc for gfx90a, nvcc for `--target cuda`).

The rewrites and diagnostics themselves are pinned by the golden cases under
tests/passes/W2??_*/."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.frontend import parse_file
from translator.ir.calls import call_graph
from translator.ir.warp import component_model, warp_facts
from translator.passes import Options
from translator.pipeline import translate

ROOT = Path(__file__).resolve().parent.parent
WARP_CODE = [ROOT / "corpus" / "kernels" / n for n in ("warp_shuffle_ballot.cu", "template_reduce.cu",
                                                       "coop_groups.cu")] \
    + sorted((ROOT / "corpus" / "warp").glob("*.cu"))

HELPERS = b"""
__device__ int leaf(int v) { return __shfl_xor_sync(0xffffffff, v, 16); }
__device__ int middle(int v, int lane) { return leaf(v) + lane; }
__device__ int alone(int v) { return v; }
__global__ void k(int *out) {
  const int lane = threadIdx.x % 32;
  out[threadIdx.x] = middle(out[threadIdx.x], lane);
}
__global__ void other(int *out) { out[0] = alone(out[1]); }
void host(int *p) { k<<<1, 64>>>(p); }
"""


def test_call_graph_lists_device_code_and_joins_callers_and_callees() -> None:
    graph = call_graph(parse_file(HELPERS))
    assert [(f.name, f.kernel, f.calls) for f in graph.functions] == [
        ("leaf", False, ()), ("middle", False, ("leaf",)), ("alone", False, ()), ("k", True, ("middle",)),
        ("other", True, ("alone",))]
    assert graph.callers("leaf") == {"middle"} and graph.callees("k") == {"middle"}
    assert graph.components() == [frozenset({"leaf", "middle", "k"}), frozenset({"alone", "other"})]


def test_a_helper_parameter_is_a_thread_value_when_a_caller_passes_one() -> None:
    source = HELPERS.replace(b"return leaf(v) + lane;", b"return leaf(v) + (lane == 31);")
    facts = warp_facts(parse_file(source))
    assert [(s.function, s.kind, s.width, s.text) for s in facts.lanes] == [
        ("middle", "last", "32", "lane == 31"), ("k", "lane", "32", "threadIdx.x % 32")]
    assert [(s.function, s.basis) for s in facts.shuffles] == [("leaf", "32")]
    assert component_model(facts.within(facts.graph.component("k"))) == "32"


def test_data_loaded_at_a_thread_index_is_not_a_lane() -> None:
    facts = warp_facts(parse_file(b"""
__device__ unsigned mix(unsigned k) { return k * 3u; }
__global__ void bits(const unsigned *keys, unsigned *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned k = keys[i];
  out[k >> 5] |= 1u << (k & 31);
  out[mix(i) & 31] += 1u;
  out[i / 32] = 0;
}
"""))
    assert [s.text for s in facts.lanes] == ["i / 32"]


def test_the_models() -> None:
    def model(body: str) -> str:
        facts = warp_facts(parse_file(f"__global__ void k(int *o, int v) {{ {body} }}\n".encode()))
        return component_model(facts.within(facts.graph.component("k")))
    assert model("o[0] = v;") == "none"
    assert model("o[threadIdx.x / 32] = __shfl_down_sync(~0u, v, 16);") == "32"
    assert model("o[threadIdx.x / warpSize] = v;") == "warpSize"
    # A per-warp output indexed on 32 next to warpSize lanes: not rewritable.
    assert model("o[threadIdx.x / 32] = v + threadIdx.x % warpSize;") == "mixed"
    assert model("__shared__ int s[32]; s[threadIdx.x / 32] = v + threadIdx.x % warpSize;") == "generic"


SOURCE = b"""#define FULL 0xffffffff
__device__ int sum(int v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(FULL, v, o);
  return v;
}
__global__ void k(int *out, int v) {
  v = sum(v);
  int any = __any_sync(FULL, v > 0);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v + any;
}
"""


def test_ignore_w_turns_the_pass_off_and_select_w_shows_only_its_findings() -> None:
    everything = translate("t.cu", SOURCE, Options(target="cuda"))
    assert sorted({f.rule for f in everything.applied}) == ["W201"]
    assert [d.code for d in everything.diagnostics] == ["W214"]
    off = translate("t.cu", SOURCE, Options(target="cuda", ignore=("W",)))
    assert off.output == SOURCE and off.diagnostics == []
    hip = translate("t.cu", SOURCE, Options(rocm_version=(5, 2), select=("W",)))
    assert [f.rule for f in hip.applied] == ["W201"]
    assert [d.code for d in hip.diagnostics] == ["W214"]
    assert b"__shfl_down_sync(FULL, v, o, 32)" in hip.output      # the renames are not selected


def test_print_stats_says_per_file_how_many_hazards_were_rewritten_and_left(tmp_path: Path, capsys) -> None:
    (tmp_path / "w.cu").write_bytes(SOURCE)
    (tmp_path / "plain.cu").write_bytes(b"__global__ void k(float *x) { x[0] = 1; }\n")
    assert main(["translate", str(tmp_path / "w.cu"), str(tmp_path / "plain.cu"), "-o", str(tmp_path / "out"),
                 "--print-stats", "--target", "cuda", "-q"]) == 0
    blocks = capsys.readouterr().out.split("[cu2hip] statistics: ")[1:]
    w, plain, total = blocks
    assert "  warp-size: 1 rewritten, 1 left for review\n" in w
    assert "warp-size" not in plain
    assert "  warp-size: 1 rewritten, 1 left for review\n" in total


@pytest.mark.parametrize("version", [(5, 2), (6, 2), (7, 0)], ids=lambda v: ".".join(map(str, v)))
@pytest.mark.parametrize("path", WARP_CODE, ids=lambda p: p.name)
def test_a_second_run_over_the_output_changes_nothing(path: Path, version) -> None:
    for options in (Options(rocm_version=version), Options(target="cuda", rocm_version=version)):
        once = translate(path.name, path.read_bytes(), options)
        assert translate(path.name, once.output, options).output == once.output


def _translated(tmp_path: Path, *flags: str) -> Path:
    out = tmp_path / "out"
    assert main(["translate", str(ROOT / "corpus" / "kernels"), str(ROOT / "corpus" / "warp"), "-o", str(out),
                 "-q", *flags]) == 0
    return out


@pytest.mark.skipif(shutil.which("hipcc") is None, reason="hipcc is not installed")
def test_hipcc_compiles_the_translated_warp_code_for_gfx90a(tmp_path: Path) -> None:
    version = toolchain.installed_hip_version() or (5, 2)
    out = _translated(tmp_path, "--rocm-version", ".".join(map(str, version)))
    # A file whose translation has an error diagnostic (a `*_sync` call with a mask that
    # is not provably full, below HIP 6.2: H014) does not compile, and says so.
    clean = [p for p in WARP_CODE
             if not any(d.severity == "error" for d in translate(p.name, p.read_bytes(),
                                                                 Options(rocm_version=version)).diagnostics)]
    assert set(WARP_CODE[:3]) <= set(clean)
    for path in clean:
        hip = next(out.rglob(path.name))
        proc = subprocess.run(["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-fsyntax-only",
                               "-DHIP_ENABLE_WARP_SYNC_BUILTINS", str(hip)],
                              capture_output=True, text=True, env={**toolchain.os.environ, "HIP_PLATFORM": "amd"})
        assert proc.returncode == 0, f"{path.name}:\n{proc.stderr[-3000:]}"


# HIP 6.2's warp-sync builtins, declared for an older hipcc (the one installed may predate
# them): each asserts an 8-byte mask, as HIP's do, then does what the mask-less builtin does.
SYNC_SHIM = """// HIP 6.2's warp-sync builtins as declared for a HIP 5.2 compiler: a mask must be an
// 8-byte integer (HIP's static_assert), then the mask-less builtin does the work.
#include <hip/hip_runtime.h>
#define CU2HIP_MASK_CHECK(M) static_assert(sizeof(M) == 8, "HIP warp masks are 64-bit")
template <class M, class T> __device__ T __shfl_sync(M m, T v, int l, int w = warpSize) { CU2HIP_MASK_CHECK(M); return __shfl(v, l, w); }
template <class M, class T> __device__ T __shfl_up_sync(M m, T v, unsigned d, int w = warpSize) { CU2HIP_MASK_CHECK(M); return __shfl_up(v, d, w); }
template <class M, class T> __device__ T __shfl_down_sync(M m, T v, unsigned d, int w = warpSize) { CU2HIP_MASK_CHECK(M); return __shfl_down(v, d, w); }
template <class M, class T> __device__ T __shfl_xor_sync(M m, T v, int d, int w = warpSize) { CU2HIP_MASK_CHECK(M); return __shfl_xor(v, d, w); }
template <class M> __device__ unsigned long long __ballot_sync(M m, int p) { CU2HIP_MASK_CHECK(M); return __ballot(p); }
template <class M> __device__ int __any_sync(M m, int p) { CU2HIP_MASK_CHECK(M); return __any(p); }
template <class M> __device__ int __all_sync(M m, int p) { CU2HIP_MASK_CHECK(M); return __all(p); }
template <class M, class T> __device__ T __reduce_add_sync(M m, T v) { CU2HIP_MASK_CHECK(M); return v; }
__device__ inline unsigned long long __activemask() { return __ballot(1); }
template <class M> __device__ void __syncwarp(M m) { CU2HIP_MASK_CHECK(M); }
__device__ inline void __syncwarp() {}
"""


@pytest.mark.skipif(shutil.which("hipcc") is None, reason="hipcc is not installed")
@pytest.mark.parametrize("version", ["6.2", "7.0"])
def test_hipcc_accepts_the_64_bit_masks_of_the_sync_builtins(tmp_path: Path, version: str) -> None:
    """Files whose translation reports no 32-bit mask (W211, W213) pass HIP's static_assert."""
    out = _translated(tmp_path, "--rocm-version", version)
    (tmp_path / "shim.h").write_text(SYNC_SHIM)
    options = Options(rocm_version=tuple(int(x) for x in version.split(".")))
    compiled = []
    for path in WARP_CODE:
        codes = {d.code for d in translate(path.name, path.read_bytes(), options).diagnostics}
        if codes & {"W211", "W213"}:
            continue
        hip = next(out.rglob(path.name))
        proc = subprocess.run(["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-fsyntax-only", "-include",
                               str(tmp_path / "shim.h"), str(hip)],
                              capture_output=True, text=True, env={**toolchain.os.environ, "HIP_PLATFORM": "amd"})
        assert proc.returncode == 0, f"{path.name}:\n{proc.stderr[-3000:]}"
        compiled.append(path)
    assert set(WARP_CODE[1:3]) <= set(compiled)


NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_nvcc_compiles_the_cuda_target_output(tmp_path: Path) -> None:
    out = _translated(tmp_path, "--target", "cuda")
    for path in WARP_CODE:
        cu = next(out.rglob(path.name))
        proc = subprocess.run([NVCC, "-arch=sm_90", "-c", str(cu), "-o", str(tmp_path / (path.stem + ".o"))],
                              capture_output=True, text=True)
        assert proc.returncode == 0, f"{path.name}:\n{proc.stderr[-3000:]}"


def test_bytes_that_are_not_utf8_in_a_tile_size_are_no_exception() -> None:
    # Found by bench/fuzz.py.
    result = translate("t.cu", b"__global__ void e() { auto t = tiled_partition<32\xb0>(g); }\n", Options())
    assert result.output.startswith(b"#include <hip/hip_runtime.h>")


def test_a_shuffle_with_a_width_of_its_own_gets_no_other() -> None:
    # Found by bench/fuzz.py: a width that is not a literal was given a second one.
    source = b"__device__ float f(float v, int w) { return __shfl_down_sync(0xffffffff, v, 8, w); }\n"
    assert translate("t.cu", source, Options(target="cuda")).output == source


_HEADER_FROM_WARPSIZE = b"""#pragma once
__device__ inline int warp_sum(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}
"""
_HEADER_ON_32 = _HEADER_FROM_WARPSIZE.replace(b"warpSize / 2", b"16")
_CALLER = b"""#include "reduce.cuh"
__global__ void k(const int *in, int *out) {
  __shared__ int partial[32];
  const int lane = threadIdx.x %s;
  int v = warp_sum(in[threadIdx.x]);
  if (lane == 0) partial[threadIdx.x %s] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
"""


def test_lanes_of_32_calling_a_headers_reduction_over_warpsize_follow_it(tmp_path, capsys) -> None:
    # The kernel has no warp builtin nor warpSize of its own: its helper, in a local header,
    # reduces over warpSize, so the kernel's lanes and warps of 32 are rewritten with it.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "reduce.cuh").write_bytes(_HEADER_FROM_WARPSIZE)
    (tmp_path / "src" / "k.cu").write_bytes(_CALLER % (b"% 32", b"/ 32"))
    assert main(["translate", str(tmp_path / "src"), "-o", str(tmp_path / "out"), "--ignore", "L",
                 "--no-cache"]) == 0
    out = (tmp_path / "out" / "k.cu").read_bytes()
    assert b"const int lane = threadIdx.x % warpSize;" in out
    assert b"partial[threadIdx.x / warpSize] = v;" in out
    assert out.count(b"warpSize") == 2
    # Without the header among the run's files its helper's body is not known: nothing changes.
    alone = translate("k.cu", _CALLER % (b"% 32", b"/ 32"), Options(ignore=("L",)))
    assert b"% 32" in alone.output and not [d for d in alone.diagnostics if d.code.startswith("W22")]


def test_lanes_from_warpsize_calling_a_headers_reduction_on_32_are_reported(tmp_path) -> None:
    header = tmp_path / "reduce.cuh"
    header.write_bytes(_HEADER_ON_32)
    source = _CALLER % (b"% warpSize", b"/ warpSize")
    result = translate(str(tmp_path / "k.cu"), source,
                       Options(ignore=("L",), local_headers=((str(header.resolve()), _HEADER_ON_32),)))
    found = [(d.code, d.line, d.col) for d in result.diagnostics if d.code.startswith("W2")]
    assert found == [("W222", 4, 20), ("W222", 6, 26)]
    assert "warp_sum, which these functions call, works on 32-lane groups (the translation of reduce.cuh " \
           "keeps them)" in result.diagnostics[0].message
    assert result.output.count(b"warpSize") == source.count(b"warpSize")
    # The header's own translation gives its shuffles 32-lane groups, as for any code on 32.
    alone = translate(str(header), _HEADER_ON_32, Options(ignore=("L",)))
    assert b"__shfl_xor(v, offset, 32)" in alone.output


_THROUGH = b"""#define LEADER(m) (__ffs(m) - 1)
__device__ int below(unsigned m, int lane) { return __popc(m & ((1u << lane) - 1)); }
__global__ void k(int *out) {
  const int lane = threadIdx.x % warpSize;
  unsigned b = __ballot_sync(0xffffffff, out[threadIdx.x] > 0);
  out[threadIdx.x] = LEADER(b) + below(b, lane);
}
"""


def test_a_ballot_passed_to_a_helper_and_a_counting_macro_is_widened_with_them() -> None:
    result = translate("k.cu", _THROUGH, Options(target="cuda", ignore=("L",)))
    assert result.output == _THROUGH.replace(b"__ffs(m)", b"__ffsll(m)").replace(
        b"unsigned m", b"unsigned long long m").replace(b"__popc(m & ((1u", b"__popcll(m & ((1ull").replace(
        b"unsigned b", b"unsigned long long b")
    assert [d.code for d in result.diagnostics] == []
    again = translate("k.cu", result.output, Options(target="cuda", ignore=("L",)))
    assert again.output == result.output


@pytest.mark.parametrize("change,line,col,why", [
    # the helper is also called with a value that is not a mask
    (lambda s: s.replace(b"below(b, lane);", b"below(b, lane) + below(out[0], 1);"), 6, 34,
     "is passed to 'below', which is also called with a value that is not a widened mask ('below(b, lane)'), so it "
     "is not widened: declare 'm' of 'below' unsigned long long and pass it only 64-bit masks"),
    # the helper keeps the mask in 32 bits
    (lambda s: s.replace(b"int below(unsigned m, int lane) { return __popc(m & ((1u << lane) - 1)); }",
                         b"unsigned below(unsigned m, int lane) { return m; }"), 6, 34,
     "is passed to 'below', whose parameter 'm' is returned as 'unsigned' by 'below' ('return m;') there "
     "('below(b, lane)'), so it is not widened: in 'below', declare 'below' to return unsigned long long; then "
     "declare 'm' unsigned long long"),
    # the macro is used in host code too
    (lambda s: s + b"int host(int v) { return LEADER(v); }\n", 6, 22,
     "is passed to the macro 'LEADER', which the file uses where its arguments are not known to be masks "
     "('LEADER(b)'), so it is not widened: expand 'LEADER' at this use"),
    # the macro's body does more with its parameter than count it
    (lambda s: s.replace(b"(__ffs(m) - 1)", b"(__ffs(m) - 1 + (m > 0))"), 6, 29,
     "is passed to the macro 'LEADER', whose body does more with it than count it with __popc/__ffs ('b'), so it is "
     "not widened: expand 'LEADER' at this use and compute on unsigned long long there"),
])
def test_a_ballot_that_a_helper_or_macro_cannot_take_in_64_bits_is_reported(change, line, col, why) -> None:
    source = change(_THROUGH)
    result = translate("k.cu", source, Options(target="cuda", ignore=("L",)))
    found = [d for d in result.diagnostics if d.code == "W213"]
    assert [(d.line, d.col) for d in found] == [(line, col)]
    assert why in found[0].message
    assert result.output == source


@pytest.mark.parametrize("members, rewritten, why", [
    ("b.x = 32; b.y = 2;", True, ""),
    # 16 x 2 is 32 threads, but its rows are 16 wide: the product is not the width.
    ("b.x = 16; b.y = 2;", False, "k's launches have blocks 16 wide"),
    ("b.x = 32; b.y = 2; if (n) b.x = 64;", False, "a launch of k has a block whose width is not known here"),
])
def test_the_row_width_of_a_dim3_written_member_by_member_is_its_x(members, rewritten, why) -> None:
    source = ("__global__ void k(float *out) {\n  int t = threadIdx.y * warpSize + threadIdx.x;\n"
              "  out[blockIdx.x * 64 + t] = t;\n}\n"
              "void run(float *out, int n) { dim3 b; " + members + " k<<<4, b>>>(out); }\n")
    result = translate("t.cu", source.encode(), Options(target="cuda", ignore=("L",)))
    assert ("threadIdx.y * 32 + threadIdx.x" in result.output.decode()) == rewritten
    notes = [d.message for d in result.diagnostics if d.code == "W224"]
    assert (notes == []) if rewritten else (len(notes) == 1 and why in notes[0]), notes
