"""The 64-lane model: translated corpus programs run on HIP-CPU (warpSize 64) and pass.

A compile for gfx90a proves nothing about lanes 32-63. HIP-CPU (AMD's header-only HIP
runtime for CPUs, MIT) runs HIP on the CPU with 64-lane wavefronts; a header of the project's
(scripts/model/wave64.h) gives it AMD's warp semantics (shuffle widths, votes of the active lanes, the 64-bit
`*_sync` masks HIP asserts, `__syncwarp` from 7.0). Each self-checking corpus program that
HIP-CPU can run is translated (`--hip-kernel-execution-syntax`, at `--rocm-version` 6.0
and 7.0), built with g++ against HIP-CPU and the header, and run: it must print PASS and
exit 0. Each warp program is also translated with `--ignore W` (HIPIFY's translation,
without the warp-size pass) and run: HIPIFY_ALONE_FAILS is where that fails, checked
exactly, so that a warp program that passes without the pass is seen to test nothing.

HIP-CPU's location: $CU2HIP_HIP_CPU, else ../shared/hip-cpu beside the checkout. The
builds run in parallel (one g++ per CPU), once per distinct translation.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from translator.corpus import load_manifest

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = load_manifest(ROOT)
_spec = importlib.util.spec_from_file_location("cu2hip_run_on_model", ROOT / "scripts" / "run_on_model.py")
model = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = model
_spec.loader.exec_module(model)
VERSIONS = ((6, 0), (7, 0))

# The corpus programs HIP-CPU cannot run, and why (README's "Running a translation on
# the 64-lane model" lists the same).
NOT_ON_MODEL = {
    "corpus/libraries/curand_host.cu": "cuRAND (hipRAND): HIP-CPU has no libraries",
    "corpus/libraries/curand_device.cu": "cuRAND's device API (hipRAND): HIP-CPU has no libraries",
    "corpus/libraries/cublas_gemm_axpy.cu": "cuBLAS (hipBLAS): HIP-CPU has no libraries",
    "corpus/libraries/cublas_legacy.cu": "cuBLAS (hipBLAS): HIP-CPU has no libraries",
    "corpus/libraries/cusparse_spmv.cu": "cuSPARSE (hipSPARSE): HIP-CPU has no libraries",
    "corpus/libraries/rocsparse_ilu0.cu": "cuSPARSE (hipSPARSE): HIP-CPU has no libraries",
    "corpus/libraries/cufft_roundtrip.cu": "cuFFT (hipFFT): HIP-CPU has no libraries",
    "corpus/libraries/cub_reduce_scan.cu": "CUB (hipCUB): HIP-CPU has no libraries",
    "corpus/libraries/thrust_pipeline.cu": "Thrust (rocThrust): HIP-CPU has no libraries",
    "corpus/fusion/neg_cublas_between.cu": "cuBLAS (hipBLAS): HIP-CPU has no libraries",
    "corpus/driver/driver_module_load.cu": "the driver API's modules (hipModuleLoad): not in HIP-CPU",
    "corpus/driver/nvrtc_saxpy.cu": "NVRTC (hipRTC): not in HIP-CPU",
    "corpus/textures/texture_object_2d.cu": "texture objects: not in HIP-CPU",
    "corpus/textures/surface_object_2d.cu": "surface objects: not in HIP-CPU",
    "corpus/kernels/coop_groups.cu": "cooperative groups: not in HIP-CPU",
    "corpus/warp/tiled_partition.cu": "cooperative groups: not in HIP-CPU",
    "corpus/numerics/fp16_arith.cu": "HIP-CPU's __half arithmetic rounds unlike the GPU's (the program checks bits)",
    "corpus/numerics/bf16_arith.cu": "HIP-CPU has no hip/hip_bf16.h",
    "corpus/numerics/api_differences.cu": "HIP-CPU has no atomicMax of float",
    "corpus/kernels/atomics.cu": "HIP-CPU has no __int_as_float / __float_as_int",
    "corpus/kernels/math_intrinsics.cu": "HIP-CPU has no rsqrtf / __fdividef",
    "corpus/kernels/template_reduce.cu": "HIP-CPU has no __align__",
    "corpus/memory/managed.cu": "HIP-CPU has no __managed__ variables",
    "corpus/memory/async_pinned.cu": "HIP-CPU has no hipHostAlloc",
    "corpus/memory/pitched_2d_3d.cu": "HIP-CPU has no hipPitchedPtr (3-D copies)",
    "corpus/runtime/streams_events.cu": "HIP-CPU has no stream priorities (hipDeviceGetStreamPriorityRange)",
    "corpus/runtime/device_properties.cu": "HIP-CPU has no hipDeviceGetAttribute (the model answers only the "
                                           "multiprocessor count)",
    "corpus/runtime/error_handling.cu": "HIP-CPU has no hipDeviceGetAttribute (the model answers only the "
                                        "multiprocessor count)",
    "corpus/kernels/occupancy_launch.cu": "HIP-CPU has no hipDeviceGetAttribute nor hipOccupancyMaxPotentialBlockSize "
                                          "of a kernel",
    "corpus/graphs/graph_capture.cu": "HIP-CPU has no graphs (hipGraph_t)",
    "corpus/graphs/graph_explicit.cu": "HIP-CPU has no graphs (hipGraph_t)",
    "corpus/kernels/rebalance_launches.cu": "HIP-CPU does not link its extern __shared__ array "
                                            "(part)",
    "corpus/warp/ptx_idioms.cu": "HIP-CPU has no __bitextract_u32 / __bitinsert_u32 (what the PTX becomes)",
    "corpus/numerics/strict_cxx.cu": "HIP-CPU has no half2 outside its own namespace",
    "corpus/preprocessor/macro_launch.cu": "its two streams race on HIP-CPU: the same translation passes and fails "
                                           "from run to run (its copies and launches are ordered on the GPU)",
}

# Where HIPIFY's translation alone (`--ignore W`) fails on the model: (program, version) -> why.
_V6, _V7 = (6, 0), (7, 0)
HIPIFY_ALONE_FAILS: dict[tuple[str, tuple[int, int]], str] = {
    ("corpus/kernels/warp_shuffle_ballot.cu", _V6): "reductions from offset 16 span the wavefront: a lane reads "
                                                     "an inactive lane",
    ("corpus/kernels/warp_shuffle_ballot.cu", _V7): "the same, with the *_sync builtins",
    ("corpus/warp/warp_reduce.cu", _V6): "reductions from 16 without a width: a lane reads an inactive lane",
    ("corpus/warp/warp_reduce.cu", _V7): "the same, with the *_sync builtins",
    ("corpus/warp/warp_ballot.cu", _V6): "32-bit ballots and votes of the whole wavefront: wrong counts",
    ("corpus/warp/warp_ballot.cu", _V7): "a 32-bit __activemask() mask fails HIP's static_assert",
    # corpus/warp/warp_scan.cu passes on the model without the pass too (so it tests nothing here);
    # corpus/warp/lookalikes.cu has nothing for the pass to do.
    ("corpus/warp/warp_sync_votes.cu", _V6): "__syncwarp is not declared below HIP 7.0",
    ("corpus/warp/warp_sync_votes.cu", _V7): "votes of the whole wavefront and a macro's shuffle without width",
    ("corpus/warp/warp_mixed.cu", _V6): "lanes and warps of 32 next to a reduction over warpSize",
    ("corpus/warp/warp_mixed.cu", _V7): "lanes and warps of 32 next to a reduction over warpSize",
    ("corpus/warp/warp_aggregate.cu", _V6): "__activemask() and ballots kept in 32 bits: lanes 32-63 are not counted",
    ("corpus/warp/warp_aggregate.cu", _V7): "a 32-bit __activemask() mask fails HIP's static_assert",
    ("corpus/warp/warp_mixed_variants.cu", _V6): "lanes of 32 under #if and in a header next to reductions over "
                                                  "warpSize",
    ("corpus/warp/warp_mixed_variants.cu", _V7): "the same, with the *_sync builtins",
}


def _skip_reason() -> str | None:
    if model.hip_cpu() is None:
        return ("HIP-CPU not found: set CU2HIP_HIP_CPU to its folder (holding include/hip/hip_runtime.h); "
                "the default is ../shared/hip-cpu beside the checkout")
    if shutil.which("g++") is None:
        return "g++ is not installed"
    if not model.tbb():
        return "TBB is not installed (apt-get install libtbb-dev): HIP-CPU runs blocks on it"
    return None


pytestmark = [pytest.mark.wave64, pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")]

ON_MODEL = [p for p in PROGRAMS if p.path not in NOT_ON_MODEL]
WARP = [p for p in ON_MODEL if p.path.startswith("corpus/warp/") or "warp-size-assumption" in p.covers]
# A name whose declaration the header makes depend on the version: a translation that names
# none builds the same at every version.
_GATED = re.compile(rb"__activemask|_sync\b|__syncwarp")


@pytest.fixture(scope="session")
def model_runs(tmp_path_factory) -> dict:
    """Every (program, version, hipify alone) this module checks, built and run once, in parallel."""
    root = tmp_path_factory.mktemp("wave64")
    jobs: dict[tuple[str, tuple[int, int], bool], tuple[dict[str, bytes], list[str], tuple[int, int]]] = {}
    for program in ON_MODEL:
        for version in VERSIONS:
            for ignore_warp in ((False, True) if program in WARP else (False,)):
                files = model.translations([ROOT / src for src in program.sources], version,
                                           ("W",) if ignore_warp else (), program.option_fields())
                jobs[(program.path, version, ignore_warp)] = (files, [Path(s).name for s in program.sources], version)
    # One build per distinct translation: a text that names nothing version-gated builds the same at 6.0 and 7.0.
    builds: dict[str, tuple[dict[str, bytes], list[str], tuple[int, int]]] = {}
    key_of = {}
    for key, (files, units, version) in jobs.items():
        text = b"".join(name.encode() + b"\0" + files[name] for name in sorted(files))
        gated = bool(_GATED.search(text))
        digest = hashlib.sha256(text + (repr(version).encode() if gated else b"")).hexdigest()[:16]
        builds.setdefault(digest, (files, units, version))
        key_of[key] = digest
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = {d: pool.submit(model.build_and_run, f, u, v, root / d, model.hip_cpu(), 300)
                   for d, (f, u, v) in builds.items()}
        done = {d: f.result() for d, f in futures.items()}
    return {key: done[digest] for key, digest in key_of.items()}


def test_every_program_runs_on_the_model_or_says_why():
    paths = {p.path for p in PROGRAMS}
    assert set(NOT_ON_MODEL) <= paths, "NOT_ON_MODEL names a program the manifest does not have"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in NOT_ON_MODEL:
        assert path.removeprefix("corpus/") in readme, f"README's model section does not list {path}"


@pytest.mark.parametrize("version", VERSIONS, ids=lambda v: "rocm-%d.%d" % v)
@pytest.mark.parametrize("program", ON_MODEL, ids=lambda p: p.path)
def test_translation_passes_on_the_64_lane_model(model_runs, program, version):
    run = model_runs[(program.path, version, False)]
    assert run.passed, run.why()


def test_hipify_alone_fails_where_recorded(model_runs):
    failing = {(path, version): run for (path, version, alone), run in model_runs.items() if alone and not run.passed}
    assert set(failing) == set(HIPIFY_ALONE_FAILS), "\n\n".join(
        f"{path} at {version}: {run.why()}" for (path, version), run in failing.items()
        if (path, version) not in HIPIFY_ALONE_FAILS)
    assert len({path for path, _ in failing}) >= 4, "fewer than 4 warp programs need the warp-size pass on the model"


# Programs whose translation holds other self-checking configurations than the default
# one: each is built and run in each (the same translation, another -D), at each version.
# (warp_aggregate.cu's AGGREGATE_WITH_BALLOT=0 is not one: its per-warp maximum is -2 there.)
CONFIGURATIONS = {
    "corpus/warp/warp_mixed_variants.cu": ("SUM_OFFSETS_FROM_WARPSIZE=0",),
}


@pytest.mark.parametrize("version", VERSIONS, ids=lambda v: "rocm-%d.%d" % v)
@pytest.mark.parametrize("path,define", [(p, d) for p, ds in CONFIGURATIONS.items() for d in ds])
def test_other_configurations_pass_on_the_64_lane_model(tmp_path, path, define, version):
    program = next(p for p in PROGRAMS if p.path == path)
    files = model.translations([ROOT / src for src in program.sources], version, (), program.option_fields())
    run = model.build_and_run(files, [Path(s).name for s in program.sources], version, tmp_path, model.hip_cpu(),
                              300, defines=(define,))
    assert run.passed, run.why()


_STREAM_ORDER = rb"""
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void bump(int* acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += 1;
}
int main() {
  const int n = 1 << 15, launches = 200;
  int* acc;
  hipMalloc(&acc, n * sizeof(int));
  hipMemset(acc, 0, n * sizeof(int));
  for (int k = 0; k < launches; ++k) hipLaunchKernelGGL(bump, dim3(n / 256), dim3(256), 0, 0, acc, n);
  static int h[1 << 15];
  hipMemcpy(h, acc, n * sizeof(int), hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != launches;
  printf(bad ? "FAIL %d\n" : "PASS\n", bad);
  return bad != 0;
}
"""


def test_the_model_keeps_the_null_streams_order(tmp_path):
    # HIP-CPU alone can run two null-stream launches at once (it lost updates of
    # corpus/runtime/hoist_in_loops.cu's back-to-back launches): the model's launch waits.
    for attempt in range(3):
        run = model.build_and_run({"order.cpp": _STREAM_ORDER}, ["order.cpp"], (7, 0), tmp_path / str(attempt),
                                  model.hip_cpu(), 300)
        assert run.passed, run.why()


_BLOCK_SHAPES = rb"""
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(int* out, int* lanes) {
  int id = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[id] = __shfl(id, 1);
  lanes[id] = __lane_id();
}
int main() {
  const dim3 shapes[] = {dim3(16, 4), dim3(8, 4, 4), dim3(2, 64), dim3(128)};
  int *out, *lanes, h[128], l[128], bad = 0;
  hipMalloc(&out, sizeof h);
  hipMalloc(&lanes, sizeof l);
  for (const dim3& b : shapes) {
    hipLaunchKernelGGL(k, dim3(1), b, 0, 0, out, lanes);
    hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost);
    hipMemcpy(l, lanes, sizeof l, hipMemcpyDeviceToHost);
    const int n = b.x * b.y * b.z;
    for (int i = 0; i < n; ++i) {
      if (h[i] != (i & ~63) + 1 || l[i] != i % 64) {
        if (bad++ < 4) printf("block %ux%ux%u: thread %d read %d, lane %d\n", b.x, b.y, b.z, i, h[i], l[i]);
      }
    }
  }
  printf(bad ? "FAIL %d\n" : "PASS\n", bad);
  return bad != 0;
}
"""


def test_the_model_groups_threads_into_wavefronts_x_fastest(tmp_path):
    # AMD numbers a block's threads x fastest, 64 to a wavefront: in a 16x4 block lane 1 is
    # thread (1, 0). HIP-CPU's fibers count x slowest (its fiber 1 is thread (0, 1)).
    run = model.build_and_run({"shapes.cpp": _BLOCK_SHAPES}, ["shapes.cpp"], (7, 0), tmp_path, model.hip_cpu(), 300)
    assert run.passed, run.why()
    assert run.stdout == "PASS\n"


_FFSLL = rb"""
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(int* out) {
  unsigned long long b = __ballot(__lane_id() == 40 || __lane_id() == 41);
  long long s = -(1ll << 62);
  if (__lane_id() == 0) { out[0] = __ffsll(b); out[1] = __ffsll(s); out[2] = __ffsll(0ull); out[3] = __popcll(b); }
}
int main() {
  int *d, h[4];
  hipMalloc(&d, sizeof h);
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);
  const bool ok = h[0] == 41 && h[1] == 63 && h[2] == 0 && h[3] == 2;
  printf(ok ? "PASS\n" : "FAIL %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  return !ok;
}
"""


def test_the_model_has_hips_ffsll_of_long_long(tmp_path):
    # HIP declares __ffsll(unsigned long long) and __ffsll(long long); HIP-CPU only the
    # uint64_t and int64_t ones, between which an unsigned long long (a 64-bit ballot,
    # what W213 writes) is ambiguous.
    run = model.build_and_run({"ffsll.cpp": _FFSLL}, ["ffsll.cpp"], (6, 0), tmp_path, model.hip_cpu(), 300)
    assert run.passed, run.why()
    assert run.stdout == "PASS\n"
