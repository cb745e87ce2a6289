"""The corpus programs of issue 15: corpus/kernels/shared_kernel/ (a register-heavy kernel
of external linkage defined in one translation unit and launched from three with 128, 256
and 384 threads per block) and corpus/kernels/unroll_unbraced.cu (a register-heavy kernel
written with `#pragma unroll` between loop headers and bodies without braces, which the
front end could not parse, so the kernel got no bound). Both get bounds and stop spilling
on gfx90a (hipcc's resource-usage remarks)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT / "corpus" / "kernels" / "shared_kernel"
SHARED_SOURCES = ("main.cu", "scale_kernel.cu", "launch_wide.cu")
UNBRACED = ROOT / "corpus" / "kernels" / "unroll_unbraced.cu"
ROCM = ".".join(map(str, toolchain.installed_hip_version() or (5, 2)))
HIPCC = pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")


def _translate(source: Path, out: Path, *extra: str) -> list[str]:
    report = out.parent / f"{out.name}.json"
    assert main(["translate", str(source), "-o", str(out), "-q", "--no-cache", "--rocm-version", ROCM,
                 "--report", str(report), *extra]) == 0
    return [d["code"] for f in json.loads(report.read_text())["files"] for d in f["diagnostics"]]


def test_a_kernel_launched_from_three_translation_units_is_bounded_by_the_widest(tmp_path) -> None:
    out = tmp_path / "hip"
    _translate(SHARED, out)
    kernel = (out / "scale_kernel.cu").read_text()
    assert "__global__ void __launch_bounds__(384) shared_heavy(" in kernel
    # Its own launch stays: the kernel calls a header's function, whose body this file does not hold.
    assert "shared_heavy<<<(n + 127) / 128, 128>>>(in, out, n, passes);" in kernel
    assert "shared_heavy<<<grid, block>>>" in (out / "launch_wide.cu").read_text()


def test_the_kernels_own_file_alone_does_not_bound_it_by_its_own_launch(tmp_path, capsys) -> None:
    assert main(["translate", str(SHARED / "scale_kernel.cu"), "--stdout", "--no-cache", "--rocm-version",
                 ROCM]) == 0
    captured = capsys.readouterr()
    assert "__global__ void shared_heavy(const float *in" in captured.out
    assert "shared_heavy has external linkage" in captured.err


def test_the_unbraced_pragma_kernel_parses_and_is_bounded(tmp_path) -> None:
    out = tmp_path / "hip"
    rules = _translate(UNBRACED, out)
    assert "P001" not in rules
    assert "__global__ void __launch_bounds__(256) unbraced_heavy(" in (out / "unroll_unbraced.cu").read_text()


def _resources(path: Path, name: str):
    result, kernels = toolchain.hip_kernel_resources(path)
    assert result.ok, result.output[-3000:]
    (kernel,) = [k for k in kernels if name in k.kernel]
    return kernel


@HIPCC
@pytest.mark.parametrize("program, file, name", [
    (SHARED, "scale_kernel.cu", "shared_heavy"),
    (UNBRACED, "unroll_unbraced.cu", "unbraced_heavy"),
])
def test_it_spills_on_gfx90a_without_bounds_and_not_with_them(tmp_path, program, file, name) -> None:
    without, with_ = tmp_path / "without", tmp_path / "with"
    _translate(program, without, "--ignore", "L")
    _translate(program, with_)
    before, after = _resources(without / file, name), _resources(with_ / file, name)
    assert before.vgprs == 128 and before.vgpr_spills > 0 and before.scratch_bytes > 0, before
    assert after.vgprs > 128 and after.vgpr_spills == 0 and after.scratch_bytes == 0, after


@HIPCC
def test_the_shared_kernel_translation_links_into_one_program_with_hipcc(tmp_path) -> None:
    out = tmp_path / "hip"
    _translate(SHARED, out)
    build = subprocess.run([toolchain.hipcc(), "-x", "hip", "--offload-arch=gfx90a", "-std=c++17", "-o",
                            str(tmp_path / "shared_kernel"), *(str(out / s) for s in SHARED_SOURCES)],
                           capture_output=True, text=True, env=dict(os.environ, HIP_PLATFORM="amd"))
    assert build.returncode == 0, build.stdout + build.stderr
