"""Compile tests: every corpus program compiles with nvcc, and every `amd_compile`
program's translation passes `HIP_PLATFORM=amd hipcc -x hip --offload-arch=gfx90a
-fsyntax-only`. Tools that are truly absent skip with a visible reason; .ci/run installs
them so CI never skips."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from translator import toolchain
from translator.corpus import COVER_WORDS, load_manifest, load_projects
from translator.passes import Options
from translator.pipeline import translate

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = load_manifest(ROOT)
HIP_TARGET = Options(rocm_version=toolchain.installed_hip_version() or (5, 2))

# Everything the issue asks the corpus to cover, each by at least one program.
REQUIRED_COVERS = {
    "malloc", "memcpy", "memset", "async", "pinned", "managed", "symbols", "memcpy2d", "memcpy3d",
    "streams", "events", "error-handling", "device-properties", "templates", "template-launch",
    "static-shared", "dynamic-shared", "atomics", "warp-shuffle", "ballot", "cooperative-groups",
    "texture", "surface", "curand-host", "curand-device", "cublas", "cusparse", "cufft", "fp16", "bf16",
    "math-intrinsics", "graphs", "driver-api", "module-load", "nvrtc", "macros", "preprocessor-if",
}


def cuda_library_includes() -> tuple[str, ...]:
    """Where cuBLAS/cuRAND/cuFFT/cuSPARSE/NVRTC headers are: $CU2HIP_CUDA_INCLUDE, or the
    nvidia/cu13/include folder of PyPI's nvidia-* wheels on sys.path."""
    found = [p for p in os.environ.get("CU2HIP_CUDA_INCLUDE", "").split(os.pathsep) if p]
    for entry in sys.path:
        candidate = Path(entry) / "nvidia" / "cu13" / "include"
        if candidate.is_dir():
            found.append(str(candidate))
    return tuple(found)


def test_manifest_is_complete():
    paths = [s for p in PROGRAMS for s in p.sources]      # a program of several files: each of them
    assert len(paths) == len(set(paths)), "a program or a source is listed twice"
    assert len(PROGRAMS) >= 30
    # A project built by its own build files (corpus/projects/) owns the sources of its folder.
    projects = load_projects(ROOT)
    assert {p.build for p in projects} == {"cmake", "make"}
    owned = [s for p in projects for s in p.sources(ROOT)]
    assert set(owned).isdisjoint(paths)
    on_disk = {str(p.relative_to(ROOT)) for p in (ROOT / "corpus").rglob("*.cu")}
    assert on_disk == set(paths) | set(owned), "every corpus .cu has a manifest entry and every entry a file"
    for project in projects:
        assert set(project.covers) <= COVER_WORDS, project.path
    for program in PROGRAMS:
        assert set(program.covers) <= COVER_WORDS, program.path
        assert program.amd_compile or program.reason, f"{program.path}: amd_compile = false needs a reason"
    assert REQUIRED_COVERS <= {c for p in PROGRAMS for c in p.covers}
    assert sum(p.amd_compile for p in PROGRAMS) >= 0.8 * len(PROGRAMS)


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
@pytest.mark.parametrize("launch_syntax", ["cuda", "hip"], ids=["<<<>>>", "hipLaunchKernelGGL"])
@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.amd_compile], ids=lambda p: p.path)
def test_translation_compiles_for_gfx90a(program, launch_syntax, tmp_path):
    source = ROOT / program.path
    options = dataclasses.replace(HIP_TARGET, hip_kernel_execution_syntax=launch_syntax == "hip",
                                  **program.option_fields())
    # Translate the program (each of its translation units) and the local headers next to
    # it, keeping names, as `-o` does.
    sources = [ROOT / s for s in program.sources]
    missing = []
    for path in source.parent.iterdir():
        if path in sources or path.suffix == ".cuh":
            result = translate(str(path), path.read_bytes(), options)
            assert not [d for d in result.diagnostics if d.severity == "error"], \
                "\n".join(d.format() for d in result.diagnostics)
            (tmp_path / path.name).write_bytes(result.output)
            missing += toolchain.missing_hip_headers(result.output)
    if missing:
        # hipcc without a ROCm library's -dev package (a newcomer's machine; .ci/run installs them).
        pytest.skip(f"{', '.join(missing)} not installed (the hip*/roc* -dev packages: see .ci/run)")
    for path in sources:
        check = toolchain.hip_syntax_check(tmp_path / path.name)
        assert check.ok, check.output


@pytest.mark.skipif(toolchain.nvcc() is None, reason="nvcc is not installed (pip install nvidia-cuda-nvcc)")
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.path)
def test_original_compiles_with_nvcc(program):
    includes = cuda_library_includes()
    needs_headers = set(program.libs) - {"cuda"}
    if needs_headers and not includes:
        pytest.skip(f"CUDA library headers for {sorted(needs_headers)} not found: set CU2HIP_CUDA_INCLUDE")
    for source in program.sources:
        check = toolchain.nvcc_compile_check(ROOT / source, include_dirs=includes)
        assert check.ok, check.output


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_translated_project_tree_compiles_for_gfx90a(tmp_path):
    """`-o DIR` writes the whole tree: the plain headers a project includes through its own
    include path (`-I include`, not next to the includer) are there, so it compiles."""
    from translator.cli import main

    project = ROOT / "tests" / "projects" / "multidir"
    out = tmp_path / "hip"
    version = ".".join(map(str, HIP_TARGET.rocm_version))
    assert main(["translate", str(project), "-o", str(out), "-q", "--rocm-version", version]) == 0
    assert (out / "include" / "util" / "check.h").read_bytes() == \
        (project / "include" / "util" / "check.h").read_bytes()
    assert (out / "CMakeLists.txt").exists()
    check = toolchain.hip_syntax_check(out / "src" / "main.cu", include_dirs=(str(out / "include"),))
    assert check.ok, check.output


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
@pytest.mark.parametrize("source", [
    '#include "kernels.h"\nvoid run(float* p) { scale<<<dim3(4), 64>>>(p); }\n',
    "dim3 grid_for(unsigned n) { return dim3((n + 255) / 256); }\n",
    "float2 half_of(float4 v) { return make_float2(v.x * 0.5f, v.y * 0.5f); }\nint2 twice(int a) { return "
    "make_int2(a, a); }\n",
], ids=["launch-of-a-header-kernel", "dim3", "vector-types"])
def test_runtime_language_alone_compiles_without_any_preinclude(source, tmp_path):
    """A .cu file that only launches a kernel its header declares, or only uses dim3 or the
    vector types, names no API to rename: it still gets hip/hip_runtime.h, and compiles with
    hipcc -fsyntax-only and no -include (nvcc included CUDA's runtime header implicitly)."""
    (tmp_path / "kernels.h").write_text("#pragma once\n#include <hip/hip_runtime.h>\n"
                                        "__global__ void scale(float* p);\n")
    result = translate("main.cu", source.encode(), HIP_TARGET)
    assert b"#include <hip/hip_runtime.h>" in result.output
    (tmp_path / "main.cu").write_bytes(result.output)
    check = toolchain.hip_syntax_check(tmp_path / "main.cu")
    assert check.ok, check.output


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_missing_rocm_library_headers_are_named():
    # What makes a compile test skip on a machine with hipcc but not the library packages.
    assert toolchain.missing_hip_headers(b"#include <hip/hip_runtime.h>\n") == []
    assert toolchain.missing_hip_headers(b"#include <nosuchlib/nosuchlib.h>\n#include <cstdio>\n") == \
        ["nosuchlib/nosuchlib.h"]


# Goldens whose expected translation must also compile for gfx90a (rewrites whose point
# is that hipcc accepts the result).
COMPILED_GOLDENS = sorted([*(p for folder in ("H007_kernel_cast", "H020_hip_defines_it")
                             for p in (ROOT / "tests" / "passes" / folder).glob("*.hip")),
                           # HIP 5.2's cooperative groups after the runtime header the file includes later.
                           ROOT / "tests" / "passes" / "H002_map_header" / "cooperative_groups_before_runtime.hip",
                           # The runtime header a file needs for dim3 and vector types alone, and before
                           # code that comes ahead of its own include (hipcc pre-includes none of it).
                           *(ROOT / "tests" / "passes" / "H002_map_header" / f"{case}.hip"
                             for case in ("vector_types_only", "code_before_first_include")),
                           # Tests of CUDA's include guards name HIP's: the blocks they guard compile.
                           ROOT / "tests" / "passes" / "H041_cuda_include_guard" / "helper_header_guards.hip",
                           # HIP's names for CUDA's system-scope atomics, every type.
                           ROOT / "tests" / "passes" / "H001_hipify" / "scoped_atomics_system.hip",
                           # Masks proven full below HIP 6.2, as mask-less builtins.
                           ROOT / "tests" / "passes" / "H001_hipify" / "warp_sync_mask_proofs_5_2.hip",
                           # Masks whose lanes are proven to be the call's, below HIP 6.2.
                           ROOT / "tests" / "passes" / "H006_mask_lanes" / "mask_lanes_proven_5_2.hip",
                           # What nvcc accepts and hipcc's C++17 or HIP's overloads reject: register dropped,
                           # __ffsll's argument cast (an unknown type only reported), a half2's braces named.
                           *(p for folder in ("H029_drop_register", "H030_ffsll_cast")
                             for p in (ROOT / "tests" / "passes" / folder).glob("*.hip")),
                           ROOT / "tests" / "passes" / "H032_half2_braces" / "half2_braces.hip",
                           # Allocations hoisted out of loops, the error-check macros moved with them.
                           ROOT / "tests" / "passes" / "R001_allocation_hoisted" / "hoist_check_macro.hip",
                           # ...and under the first iteration's condition where the loop may run zero times.
                           ROOT / "tests" / "passes" / "R001_allocation_hoisted" / "hoist_guarded_argv.hip",
                           # T** cast to void**; CUDA 13's device locations as device ids.
                           *(ROOT / "tests" / "passes" / "H024_signature_differs" / f"{case}.hip"
                             for case in ("typed_pointer_void_cast", "memory_location_device_id")),
                           # rocSPARSE rewrites the installed rocSPARSE (ROCm 5.3) can check: not the generic
                           # API's (ROCm 6.0 signatures), csrsv2 (HIPIFY's table maps csrsv2Info_t to
                           # rocsparse_mat_descr) or the interleaved solvers (an int where rocSPARSE takes an enum).
                           *(ROOT / "tests" / "passes" / "H021_library_arguments" / f"{case}.hip" for case in (
                               "csrilu02_roc", "csric02_roc", "bsrsv2_roc", "bsrilu02_bsric02_roc", "csrsm2_roc",
                               "csrgemm2_csrgeam2_roc", "csrmv_csrmm_gemvi_roc", "macro_body_roc",
                               "spsm_solve_hipsparse"))])


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
@pytest.mark.parametrize("golden", COMPILED_GOLDENS, ids=lambda p: p.stem)
def test_golden_translation_compiles_for_gfx90a(golden):
    check = toolchain.hip_syntax_check(golden)
    assert check.ok, check.output
