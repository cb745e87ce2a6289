"""The corpus's projects built by their own build files (corpus/projects/, `[[project]]` in
the manifest): translated as a user translates a tree, their translations build with the
translated CMakeLists.txt and Makefile and Debian's hipcc, and the binaries' device code
holds every kernel (no GPU needed); their CUDA originals build with nvcc. Also the
build-file translation's plumbing: the workspace, `diff`, suppressions, configuration."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.corpus import load_projects

ROOT = Path(__file__).resolve().parent.parent
ALL_PROJECTS = load_projects(ROOT)
# The first project of each build kind (the one the plumbing tests read), and all of them.
PROJECTS = {p.build: p for p in reversed(ALL_PROJECTS)}
MAKE_PROJECTS = [p for p in ALL_PROJECTS if p.build == "make"]
CMAKE_PROJECTS = [p for p in ALL_PROJECTS if p.build == "cmake"]
ROCM = ".".join(map(str, toolchain.installed_hip_version() or (5, 2)))
needs_hipcc = pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
needs_cmake = pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed (apt-get install cmake)")
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed (apt-get install make)")
needs_nvcc = pytest.mark.skipif(toolchain.nvcc() is None, reason="nvcc is not installed")


def _translate(project, out: Path, *extra: str) -> None:
    assert main(["translate", str(ROOT / project.path), "-o", str(out), "-q", "--no-cache",
                 "--rocm-version", ROCM, *extra]) == 0


def _run(command: list[str], **env: str) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, **env), timeout=900)
    assert done.returncode == 0, " ".join(command) + "\n" + (done.stdout + done.stderr)[-6000:]
    return done


def _device_kernels(binary: Path, tmp_path: Path) -> bytes:
    """The bytes of a HIP binary's device code (its .hip_fatbin section)."""
    dump = tmp_path / f"{binary.name}.fatbin"
    _run(["objcopy", "--dump-section", f".hip_fatbin={dump}", str(binary), str(tmp_path / "stripped")])
    return dump.read_bytes()


def _debian_hip_toolchain() -> str:
    """The toolchain file as the README has a user get it: `cu2hip toolchain-file`'s output."""
    done = subprocess.run([sys.executable, "-m", "translator", "toolchain-file"], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return done.stdout.strip()


def _hip_env() -> dict[str, str]:
    # CMake before 3.28 does not find Debian's hip-lang package by itself (see the file).
    env = {"HIP_PLATFORM": "amd"}
    if "CMAKE_TOOLCHAIN_FILE" not in os.environ and not Path("/usr/lib/cmake/hip-lang").exists():
        env["CMAKE_TOOLCHAIN_FILE"] = _debian_hip_toolchain()
    return env


@needs_hipcc
@needs_cmake
@pytest.mark.parametrize("project", CMAKE_PROJECTS, ids=lambda p: p.path)
def test_the_cmake_projects_translation_builds_with_its_own_cmake_files(tmp_path, project) -> None:
    out, build = tmp_path / "out", tmp_path / "b"
    _translate(project, out)
    _run(["cmake", "-S", str(out), "-B", str(build), "-DCMAKE_HIP_ARCHITECTURES=gfx90a"], **_hip_env())
    _run(["cmake", "--build", str(build)], **_hip_env())
    for binary in project.binaries:
        device = _device_kernels(build / binary, tmp_path)
        assert b"amdgcn-amd-amdhsa--gfx90a" in device
        for kernel in project.kernels:
            assert kernel.encode() in device, kernel


@needs_hipcc
@needs_make
@pytest.mark.parametrize("project", MAKE_PROJECTS, ids=lambda p: p.path)
def test_the_make_projects_translation_builds_with_its_own_makefile(tmp_path, project) -> None:
    out = tmp_path / "out"
    _translate(project, out)
    _run(["make", "-C", str(out)], HIP_PLATFORM="amd")
    for binary in project.binaries:
        device = _device_kernels(out / binary, tmp_path)
        assert b"amdgcn-amd-amdhsa--gfx90a" in device
        for kernel in project.kernels:
            assert kernel.encode() in device, kernel


@needs_nvcc
@pytest.mark.parametrize("project", ALL_PROJECTS, ids=lambda p: p.path)
def test_the_cuda_originals_build_with_nvcc(tmp_path, project) -> None:
    if shutil.which(project.build) is None:
        pytest.skip(f"{project.build} is not installed")
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "run_corpus.py"), "--build-only",
                          project.path], capture_output=True, text=True, timeout=900,
                         env=dict(os.environ, PATH=f"{Path(toolchain.nvcc()).parent}{os.pathsep}{os.environ['PATH']}"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == f"{len(project.binaries)} built, 0 failed"


def test_the_makefile_translates_every_kind_of_flag(tmp_path) -> None:
    out = tmp_path / "out"
    _translate(PROJECTS["make"], out)
    text = (out / "Makefile").read_text()
    assert "NVCC ?= hipcc\n" in text
    assert "GENCODE = --offload-arch=gfx90a\n" in text
    assert "NVCCFLAGS = -O3 -std=c++17 $(GENCODE) -fgpu-rdc -Xarch_device -ffast-math \\\n -Wall -Wextra -I.\n" in text
    assert "LDLIBS = -lamdhip64\n" in text
    assert "\t$(NVCC) $(NVCCFLAGS) -o $@ main.o libhisto.a $(LDLIBS)\n" in text


def test_the_cmake_files_say_hip(tmp_path) -> None:
    out = tmp_path / "out"
    _translate(PROJECTS["cmake"], out)
    top = (out / "CMakeLists.txt").read_text()
    for line in ("cmake_minimum_required(VERSION 3.21)", "project(cmake_stats LANGUAGES CXX HIP)",
                 "find_package(hip REQUIRED)", "  set(CMAKE_HIP_ARCHITECTURES gfx90a)", "set(CMAKE_HIP_STANDARD 17)",
                 'string(APPEND CMAKE_HIP_FLAGS "")'):
        assert line + "\n" in top
    src = (out / "src" / "CMakeLists.txt").read_text()
    assert "add_library(stats STATIC ${STATS_SOURCES})\nset_source_files_properties(scale.cu reduce.cu " \
           "PROPERTIES LANGUAGE HIP)\n" in src
    assert "target_link_libraries(stats PUBLIC hip::host)\n" in src
    # --use_fast_math's two words stay one option (CMake de-duplicates options word by word)
    assert '"$<$<COMPILE_LANGUAGE:HIP>:SHELL:-Xarch_device -ffast-math -Wall>"' in src
    app = (out / "app" / "CMakeLists.txt").read_text()
    assert "set_property(TARGET stats_app PROPERTY HIP_ARCHITECTURES gfx90a)\n" in app
    assert "$<$<COMPILE_LANGUAGE:HIP>:-Rpass-analysis=kernel-resource-usage>" in app


def test_the_configured_offload_arch_is_what_build_files_compile_for(tmp_path) -> None:
    (tmp_path / "cu2hip.toml").write_text('offload-arch = ["gfx942", "gfx90a"]\n')
    (tmp_path / "Makefile").write_text("app: main.cu\n\tnvcc -arch=sm_90 -o $@ $<\n")
    (tmp_path / "CMakeLists.txt").write_text("set(CMAKE_CUDA_ARCHITECTURES 90)\n")
    out = tmp_path / "out"
    assert main(["translate", str(tmp_path / "Makefile"), str(tmp_path / "CMakeLists.txt"), "-o", str(out), "-q"]) == 0
    assert (out / "Makefile").read_text() == "app: main.cu\n\thipcc --offload-arch=gfx942 --offload-arch=gfx90a -o $@ $<\n"
    assert (out / "CMakeLists.txt").read_text() == "set(CMAKE_HIP_ARCHITECTURES gfx942;gfx90a)\n"
    assert main(["translate", str(tmp_path / "Makefile"), "--stdout", "-q", "--offload-arch", "gfx908"]) == 0


def test_a_bad_offload_arch_is_a_usage_error(tmp_path, capsys) -> None:
    (tmp_path / "Makefile").write_text("all:\n")
    assert main(["translate", str(tmp_path / "Makefile"), "--stdout", "--offload-arch", "sm_90"]) == 2
    assert "--offload-arch: not AMD targets: 'sm_90'" in capsys.readouterr().err


def test_diff_shows_build_file_edits_with_their_rules(capsys) -> None:
    assert main(["diff", str(ROOT / PROJECTS["make"].path / "Makefile"), "--no-cache", "--color", "never"]) == 0
    shown = capsys.readouterr().out
    assert "\n-NVCC ?= nvcc\n" in shown and "\n+NVCC ?= hipcc\n" in shown
    for code in ("B020", "B021", "B022", "B023", "B026"):
        assert code in shown, code


def test_suppressions_and_ignore_work_in_build_files(tmp_path, capsys) -> None:
    make = tmp_path / "Makefile"
    make.write_text("F = -G  # cu2hip: ignore[B024]\nX = 1  # cu2hip: ignore[B020]\napp: main.cu\n"
                    "\tnvcc $(F) -lineinfo -o $@ $<\n")
    assert main(["translate", str(make), "--stdout", "-q", "--no-cache"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "F = -G  # cu2hip: ignore[B024]\nX = 1  # cu2hip: ignore[B020]\napp: main.cu\n" \
                           "\thipcc $(F) -o $@ $<\n"
    assert "B024" not in captured.err.replace("ignore[B024]", "")
    assert "Makefile:2:8: note: unused suppression 'ignore[B020]'" in captured.err
    assert main(["translate", str(make), "--stdout", "-q", "--no-cache", "--ignore", "B"]) == 0
    assert capsys.readouterr().out == make.read_text()


def test_a_tree_translates_its_build_files_and_the_cuda_target_keeps_them(tmp_path) -> None:
    out, kept = tmp_path / "hip", tmp_path / "cuda"
    project = PROJECTS["make"]
    _translate(project, out)
    assert b"hipcc" in (out / "Makefile").read_bytes()
    assert main(["translate", str(ROOT / project.path), "-o", str(kept), "-q", "--no-cache", "--target", "cuda"]) == 0
    assert (kept / "Makefile").read_bytes() == (ROOT / project.path / "Makefile").read_bytes()


def test_the_make_shapes_of_real_projects_build_for_the_amd_target(tmp_path) -> None:
    # make_arch_rdc: `ARCH ?= sm_90` used only as -arch values becomes the AMD target (the
    # user's `make ARCH=...` knob kept), -dc objects are linked with -fgpu-rdc, and the flags
    # of the included flags.mk (nvcc's alone: --expt-relaxed-constexpr) are translated.
    out = tmp_path / "out"
    _translate(next(p for p in MAKE_PROJECTS if p.path.endswith("make_arch_rdc")), out)
    make = (out / "Makefile").read_text()
    assert "ARCH ?= gfx90a\n" in make
    assert "\t$(NVCC) --offload-arch=$(ARCH) $(NVCCFLAGS) -fgpu-rdc -c $< -o $@\n" in make
    assert "\t$(NVCC) -fgpu-rdc --offload-arch=$(ARCH) -o $@ saxpy.o ops.o\n" in make
    assert (out / "flags.mk").read_text().splitlines()[-1] == "NVCCFLAGS := -O3 -std=c++17"


def test_a_findcuda_project_gets_the_hip_language_and_its_cpp_sources_hip_host(tmp_path) -> None:
    # cmake_findcuda: project() with no languages and find_package(CUDA) get
    # enable_language(HIP); the C++ source of the HIP target (fill.cpp includes the runtime)
    # gets hip::host; the compiler named by path (nvcc) is not made the HIP compiler.
    out = tmp_path / "out"
    _translate(next(p for p in CMAKE_PROJECTS if p.path.endswith("cmake_findcuda")), out)
    lines = [line for line in (out / "CMakeLists.txt").read_text().splitlines() if not line.startswith("#")]
    assert lines == ["cmake_minimum_required(VERSION 3.21)", "project(findcuda_demo)", "find_package(hip REQUIRED)",
                     "enable_language(HIP)", "list(APPEND CUDA_NVCC_FLAGS --offload-arch=gfx90a)",
                     "add_executable(findcuda_app scale.cu fill.cpp)",
                     "target_link_libraries(findcuda_app PRIVATE hip::host)",
                     "set_source_files_properties(scale.cu PROPERTIES LANGUAGE HIP)"]


def test_run_corpus_builds_projects_with_their_own_build_files(tmp_path) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "run_corpus.py"), "--dry-run",
                          PROJECTS["cmake"].path, PROJECTS["make"].path], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"cmake -S {ROOT / PROJECTS['cmake'].path} -B ")
    assert lines[0].endswith(" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release")
    assert lines[1].startswith("cmake --build ")
    assert lines[2].startswith(f"cp -r {ROOT / PROJECTS['make'].path} ")
    assert lines[3].startswith("make -C ")
    assert lines[-1] == "2 programs, 0 with missing sources"
