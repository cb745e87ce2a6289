"""The corpus's program of two translation units (corpus/kernels/two_tu/): a register-heavy
kernel of a header launched with 128 threads from main.cu and 256 from launch_256.cu.
Translated as a folder, the kernel is bounded by its largest launch over both files, and
hipcc's resource-usage remarks show it spills on gfx90a without the bound and not with it.
Also: the manifest's `sources` form, and that run_corpus.py builds every source into one binary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.corpus import load_manifest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "corpus" / "kernels" / "two_tu"
SOURCES = ("main.cu", "launch_256.cu")
ROCM = ".".join(map(str, toolchain.installed_hip_version() or (5, 2)))
BOUNDED = b"static __global__ void __launch_bounds__(256) two_tu_heavy(const float *in, float *out, int n, int passes) {"
UNBOUNDED = b"static __global__ void two_tu_heavy(const float *in, float *out, int n, int passes) {"


def _translate(out: Path, *extra: str) -> dict:
    """`cu2hip translate corpus/kernels/two_tu -o OUT`, as a user runs it: the whole folder, so
    that the launch index sees both files. Returns the --report document."""
    report = out.parent / f"{out.name}.json"
    assert main(["translate", str(PROGRAM), "-o", str(out), "-q", "--no-cache", "--rocm-version", ROCM,
                 "--report", str(report), *extra]) == 0
    return json.loads(report.read_text())


def test_the_manifest_lists_the_program_by_its_two_sources() -> None:
    (program,) = [p for p in load_manifest(ROOT) if p.path.startswith("corpus/kernels/two_tu/")]
    assert program.path == "corpus/kernels/two_tu/main.cu"
    assert program.sources == tuple(f"corpus/kernels/two_tu/{s}" for s in SOURCES)
    assert program.amd_compile and program.libs == ()
    assert sorted(p.name for p in PROGRAM.iterdir()) == ["heavy.cuh", "launch_256.cu", "main.cu"]


@pytest.mark.parametrize("table, message", [
    ('path = "corpus/a.cu"\nsources = ["corpus/a.cu", "corpus/b.cu"]\n', "not both"),
    ('covers = []\n', "not neither"),
    ('sources = ["corpus/x/a.cu", "corpus/y/b.cu"]\n', "`sources` must be distinct files of one folder"),
    ('sources = ["corpus/x/a.cu", "corpus/x/a.cu"]\n', "`sources` must be distinct files of one folder"),
])
def test_a_program_is_one_path_or_sources_of_one_folder(tmp_path, table, message) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "manifest.toml").write_text(f"[[program]]\n{table}amd_compile = true\n")
    with pytest.raises(ValueError, match=message):
        load_manifest(tmp_path)


def test_one_file_programs_are_their_own_only_source(tmp_path) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "manifest.toml").write_text('[[program]]\npath = "corpus/a.cu"\namd_compile = true\n')
    (program,) = load_manifest(tmp_path)
    assert (program.path, program.sources) == ("corpus/a.cu", ("corpus/a.cu",))


def test_the_folder_translation_bounds_the_header_kernel_by_both_files(tmp_path) -> None:
    out = tmp_path / "hip"
    report = _translate(out)
    # The header is written next to the sources, which include it by the same relative name.
    assert sorted(p.name for p in out.iterdir()) == ["heavy.cuh", "launch_256.cu", "main.cu"]
    header = (out / "heavy.cuh").read_bytes()
    assert header.count(BOUNDED) == 1 and b"#include <hip/hip_runtime.h>\n" in header
    for name in SOURCES:
        assert b'#include "heavy.cuh"\n' in (out / name).read_bytes()
    (l001,) = [e for f in report["files"] for e in f["edits"] if e["rule"] == "L001"]
    assert l001["reason"] == (
        "two_tu_heavy is launched with at most 256 threads per block ("
        f"{PROGRAM / 'launch_256.cu'}:8:3, {PROGRAM / 'main.cu'}:12:3): without bounds HIP compiles it for 1024")
    # Each file alone knows one launch or none: the header's kernel is bounded only by the folder.
    alone = tmp_path / "alone"
    assert main(["translate", str(PROGRAM / "heavy.cuh"), "-o", str(alone), "-q", "--no-cache",
                 "--rocm-version", ROCM]) == 0
    assert UNBOUNDED in (alone / "heavy.cuh").read_bytes()


def test_the_bundled_corpus_translation_bounds_it_too(tmp_path) -> None:
    # README's first command translates all of corpus/: the same bound, whatever else is there.
    out = tmp_path / "hip"
    assert main(["translate", str(ROOT / "corpus"), "-o", str(out), "-q", "--rocm-version", ROCM]) == 0
    assert BOUNDED in (out / "kernels" / "two_tu" / "heavy.cuh").read_bytes()


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_it_spills_on_gfx90a_without_bounds_and_not_with_them(tmp_path) -> None:
    figures: dict[str, dict[str, toolchain.KernelResources]] = {}
    for label, extra in (("without", ("--ignore", "L")), ("with", ())):
        out = tmp_path / label
        _translate(out, *extra)
        assert (BOUNDED if label == "with" else UNBOUNDED) in (out / "heavy.cuh").read_bytes()
        for name in SOURCES:          # each translation unit compiles its own copy of the kernel
            result, kernels = toolchain.hip_kernel_resources(out / name)
            assert result.ok, result.output[-3000:]
            (kernel,) = kernels
            assert kernel.kernel == "_ZL12two_tu_heavyPKfPfii"
            figures.setdefault(label, {})[name] = kernel
    for name in SOURCES:
        before, after = figures["without"][name], figures["with"][name]
        assert before.vgprs == 128 and before.vgpr_spills > 0 and before.scratch_bytes > 0, before
        assert after.vgprs > 128 and after.vgpr_spills == 0 and after.scratch_bytes == 0, after


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_the_translation_links_into_one_program_with_hipcc(tmp_path) -> None:
    out = tmp_path / "hip"
    _translate(out)
    build = subprocess.run([toolchain.hipcc(), "-x", "hip", "--offload-arch=gfx90a", "-std=c++17", "-o",
                            str(tmp_path / "two_tu"), *(str(out / s) for s in SOURCES)],
                           capture_output=True, text=True, env=dict(os.environ, HIP_PLATFORM="amd"))
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "two_tu").is_file()


@pytest.mark.skipif(toolchain.nvcc() is None, reason="nvcc is not installed (pip install nvidia-cuda-nvcc)")
def test_the_original_links_into_one_program_with_nvcc(tmp_path) -> None:
    build = subprocess.run([toolchain.nvcc(), "-std=c++17", "-arch=sm_90", "-o", str(tmp_path / "two_tu"),
                            *(str(PROGRAM / s) for s in SOURCES)], capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "two_tu").is_file()


@pytest.mark.parametrize("tree", [None, "translated"])
def test_run_corpus_builds_every_source_into_one_binary(tmp_path, tree) -> None:
    # What the GPU machine runs, printed instead of run (--dry-run); the program is named by
    # any of its sources. With --tree, the sources are the translated tree's.
    base = ROOT / "corpus" if tree is None else tmp_path / tree
    if tree is not None:
        assert main(["translate", str(ROOT / "corpus"), "-o", str(base), "-q", "--target", "cuda"]) == 0
    command = [sys.executable, str(ROOT / "scripts" / "run_corpus.py"), "--dry-run", "--cuda-libs", str(tmp_path),
               *(["--tree", str(base)] if tree else []), "corpus/kernels/two_tu/launch_256.cu"]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    line, summary = run.stdout.splitlines()
    words = line.split()
    assert words[:4] == ["nvcc", "-std=c++17", "-arch=sm_90", "-o"]
    assert Path(words[4]).name == "corpus_kernels_two_tu_main"
    assert words[5:7] == [str(base / "kernels" / "two_tu" / s) for s in SOURCES]
    assert words[7:] == [f"-I{tmp_path / 'include'}", f"-L{tmp_path / 'lib'}", "-Xlinker", f"-rpath={tmp_path / 'lib'}"]
    assert summary == "1 programs, 0 with missing sources"
