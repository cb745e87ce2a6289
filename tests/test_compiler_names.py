"""No name reaches a shell (issue 24, item 1): cu2hip runs no shell, but the compilers
do (ROCm 5.2's hipcc is a perl script that hands `*.a` inputs and its `-o` value to
`sh -c`; nvcc hands its inputs' real names and its `-D` values to `sh -c`), so every
path and definition `cu2hip report` gives them must be one no shell can mangle: a source,
a header the report compiles, an include folder and a definition from the command line
or a compilation database, each named with `$(touch X)`, must compile without running
the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from translator import toolchain

MARKER = "MARK"
HOSTILE = "$(touch${IFS}" + MARKER + ")"
KERNEL = b"__global__ void k(float* a) { a[threadIdx.x] = VALUE; }\n"
LAUNCH = b"int main() { k<<<1, 64>>>(0); }\n"


def _report(tmp_path: Path, *args: str) -> str:
    env = dict(os.environ, HIP_PLATFORM="amd")
    proc = subprocess.run([sys.executable, "-m", "translator", "report", *args, "--rocm-version", "5.2", "--no-cache",
                           "-j", "1"], cwd=tmp_path, capture_output=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def _case(tmp_path: Path, case: str) -> list[str]:
    """Lay out one case under tmp_path; the report's arguments."""
    src = tmp_path / "src"
    src.mkdir()
    define = b"#define VALUE 1\n"
    if case == "source":
        (src / f"a{HOSTILE}.cu").write_bytes(define + KERNEL + LAUNCH)
        return ["src"]
    if case == "folder":
        folder = src / f"d{HOSTILE}"
        folder.mkdir()
        (folder / "a.cu").write_bytes(define + KERNEL + LAUNCH)
        return ["src"]
    if case == "header":        # a kernel in a header named like a static library, included by a .cu
        (src / f"{HOSTILE}.a").write_bytes(b"#include <cuda_runtime.h>\n" + define + KERNEL)
        (src / "a.cu").write_bytes(f'#include "{HOSTILE}.a"\n'.encode() + LAUNCH)
        return ["src"]
    (src / "a.cu").write_bytes(b'#include "value.h"\n' + KERNEL + LAUNCH)
    include = tmp_path / f"inc{HOSTILE}"
    include.mkdir()
    if case in ("include", "database-include"):
        (include / "value.h").write_bytes(b"#define VALUE 1\n")
        if case == "include":
            return ["src", "-I", str(include)]
        _database(tmp_path, ["nvcc", "-I", str(include), "-c", "src/a.cu"])
        return ["src", "-p", "."]
    (include / "value.h").write_bytes(b"#define VALUE STRINGIFY(x)[0]\n#define STRINGIFY(x) #x\n")
    value = f"VALUE_IS={HOSTILE}"
    if case == "define":
        return ["src", "-I", str(include), "-D", value]
    _database(tmp_path, ["nvcc", "-I", str(include), f"-D{value}", "-c", "src/a.cu"])
    return ["src", "-p", "."]


def _database(tmp_path: Path, arguments: list[str]) -> None:
    (tmp_path / "compile_commands.json").write_text(json.dumps(
        [{"directory": str(tmp_path), "file": "src/a.cu", "arguments": arguments}]))


CASES = ["source", "folder", "header", "include", "database-include", "define", "database-define"]


@pytest.mark.skipif(toolchain.hipcc() is None or toolchain.nvcc() is None, reason="needs hipcc and nvcc")
@pytest.mark.parametrize("case", CASES)
def test_no_name_given_to_the_compilers_runs_a_command(tmp_path: Path, case: str) -> None:
    out = _report(tmp_path, *_case(tmp_path, case))
    created = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob(MARKER + "*"))
    assert created == []
    assert "missing:" not in out, out          # both compilers compiled it, under its own name
    assert "VGPRs 2" in out and "CUDA (sm_90): " in out and " registers" in out


def _recording_compilers(tmp_path: Path) -> tuple[dict, Path]:
    log = tmp_path / "argv.log"
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name in ("hipcc", "nvcc"):
        tool = bin_ / name
        tool.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done >> "{log}"\nprintf "\\n" >> "{log}"\n')
        tool.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}"), log


@pytest.mark.parametrize("case", CASES)
def test_every_argument_a_compiler_gets_is_shell_plain(tmp_path: Path, case: str) -> None:
    # The same layouts against compilers that only record their arguments: each one is
    # made of characters no shell reads, whatever the names in the tree.
    args = _case(tmp_path, case)
    env, log = _recording_compilers(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "translator", "report", *args, "--rocm-version", "5.2", "--no-cache",
                           "-j", "1"], cwd=tmp_path, capture_output=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    runs = [line.split(b"\0")[:-1] for line in log.read_bytes().split(b"\n") if line]
    assert len(runs) >= 3          # hipcc with and without the optimizing passes, nvcc (each unit)
    odd = [a for run in runs for a in run if not toolchain._SHELL_SAFE.fullmatch(a.decode())]
    assert odd == []


def test_a_definition_no_compile_can_take_is_refused_without_running(tmp_path: Path) -> None:
    env, log = _recording_compilers(tmp_path)
    (tmp_path / "a.cu").write_bytes(KERNEL + LAUNCH)
    proc = subprocess.run([sys.executable, "-m", "translator", "report", "a.cu", "-D", "A B=$(x)", "--rocm-version",
                           "5.2", "--no-cache", "-j", "1"], cwd=tmp_path, capture_output=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert not log.exists()
    assert "-D'A B=$(x)' is not a macro definition a compile can be given" in proc.stdout.decode()
