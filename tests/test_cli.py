"""Tests for the `cu2hip` command: output modes, tree mirroring, exit codes, statistics,
idempotence. The real command runs as `python -m translator`; in-process `main()` is
used where it is simpler.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from translator import __version__
from translator.cli import main
from translator.passes import Options
from translator.pipeline import translate

ROCM = ["--rocm-version", "6.0"]   # fixed, so results do not depend on the installed hipcc
OPTIONS = Options(rocm_version=(6, 0))


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, cwd=cwd, timeout=120)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def expected(path: Path) -> bytes:
    return translate(str(path), path.read_bytes(), OPTIONS).output


A_CU = b'#include "helper.inl2"\n#include <cuda_runtime.h>\n__global__ void k(float *x) { x[threadIdx.x] = 1; }\n' \
       b'void h(float *p) { cudaMalloc(&p, 4); k<<<1, 1>>>(p); }\n'
HELPER = b"#pragma once\ninline void g() { cudaDeviceSynchronize(); }\n"
B_CUH = b"#pragma once\nstruct X { cudaStream_t s; };\n"
C_CPP = b"void m() { cudaFree(0); }\n"
PLAIN = b"int plain() { return 0; }\n"
README = b"notes\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub" / "deep").mkdir(parents=True)
    (src / "a.cu").write_bytes(A_CU)
    (src / "helper.inl2").write_bytes(HELPER)          # unusual suffix, included by a.cu
    (src / "unused.inl2").write_bytes(HELPER)          # same suffix, included by nobody
    (src / "sub" / "b.cuh").write_bytes(B_CUH)
    (src / "sub" / "deep" / "c.cpp").write_bytes(C_CPP)  # .cpp that uses CUDA
    (src / "sub" / "plain.cpp").write_bytes(PLAIN)       # .cpp without CUDA
    (src / "README.txt").write_bytes(README)
    return src


# --- -o: mirroring a tree -----------------------------------------------------------

def test_output_mirrors_tree(tree: Path, tmp_path: Path):
    before = snapshot(tree)
    out = tmp_path / "out"
    proc = run("translate", str(tree), "-o", str(out), *ROCM)
    assert proc.returncode == 0, proc.stderr
    got = snapshot(out)
    # The whole tree: translations, and the files with no CUDA copied byte for byte, so
    # that the project's plain headers and data are where its sources expect them.
    assert sorted(got) == ["README.txt", "a.cu", "helper.inl2", "sub/b.cuh", "sub/deep/c.cpp",
                           "sub/plain.cpp", "unused.inl2"]
    for rel in ("a.cu", "helper.inl2", "sub/b.cuh", "sub/deep/c.cpp"):
        assert got[rel] == expected(tree / rel), rel
    assert got["README.txt"] == README
    assert got["sub/plain.cpp"] == PLAIN
    assert got["unused.inl2"] == HELPER      # copied, not translated: nothing includes it
    assert b"hipMalloc(&p, 4)" in got["a.cu"] and b"cudaMalloc" not in got["a.cu"]
    assert b"hipDeviceSynchronize()" in got["helper.inl2"]
    assert b"hipStream_t s;" in got["sub/b.cuh"]
    assert b"hipFree(0)" in got["sub/deep/c.cpp"]
    assert snapshot(tree) == before          # the input is never touched with -o
    assert proc.stdout == b""
    assert proc.stderr.decode().splitlines()[-1] == \
        "cu2hip: 5 files, 4 changed, 2 copied, 9 edits (H001: 4, H002: 4, L001: 1), 0 errors, 0 warnings; target ROCm 6.0 (from --rocm-version)"


def test_only_translated_writes_cuda_files_and_what_changes(tree: Path, tmp_path: Path):
    out = tmp_path / "out"
    assert main(["translate", str(tree), "-o", str(out), "--only-translated", "-q", *ROCM]) == 0
    got = snapshot(out)
    assert sorted(got) == ["a.cu", "helper.inl2", "sub/b.cuh", "sub/deep/c.cpp"]
    for rel, data in got.items():
        assert data == expected(tree / rel), rel


def test_only_translated_keeps_plain_headers_that_translated_files_include(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(b'#include "params.h"\n__global__ void k(P p) {}\n')
    (src / "params.h").write_bytes(b"struct P { int n; };\n")
    (src / "unrelated.h").write_bytes(b"struct Q { int n; };\n")
    assert main(["translate", str(src), "-o", str(tmp_path / "out"), "--only-translated", "-q", *ROCM]) == 0
    assert sorted(snapshot(tmp_path / "out")) == ["k.cu", "params.h"]


def test_copy_all_is_the_default_and_contradicts_only_translated(tree: Path, tmp_path: Path, capsys):
    assert main(["translate", str(tree), "-o", str(tmp_path / "a"), "--copy-all", "-q", *ROCM]) == 0
    assert main(["translate", str(tree), "-o", str(tmp_path / "b"), "-q", *ROCM]) == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert main(["translate", str(tree), "-o", str(tmp_path / "c"), "--copy-all", "--only-translated"]) == 2
    assert "contradict" in capsys.readouterr().err


def test_output_tree_skips_fifos_with_a_warning(tree: Path, tmp_path: Path):
    os.mkfifo(tree / "pipe.cu")
    os.mkfifo(tree / "data.fifo")
    proc = run("translate", str(tree), "-o", str(tmp_path / "out"), *ROCM)
    assert proc.returncode == 0, proc.stderr
    err = proc.stderr.decode()
    assert f"{tree / 'pipe.cu'}:1:1: warning: not a regular file; skipped [I007]" in err
    assert f"{tree / 'data.fifo'}:1:1: warning: not a regular file; skipped [I007]" in err
    assert "pipe.cu" not in snapshot(tmp_path / "out") and "README.txt" in snapshot(tmp_path / "out")


def test_single_file_argument_goes_to_top_of_output(tree: Path, tmp_path: Path):
    out = tmp_path / "out"
    assert main(["translate", str(tree / "sub" / "b.cuh"), "-o", str(out), "-q", *ROCM]) == 0
    assert snapshot(out) == {"b.cuh": expected(tree / "sub" / "b.cuh")}


def test_output_folder_inside_input_tree_is_skipped(tree: Path):
    out = tree / "hip"
    for _ in range(2):
        assert main(["translate", str(tree), "-o", str(out), "-q", *ROCM]) == 0
    assert sorted(snapshot(out)) == ["README.txt", "a.cu", "helper.inl2", "sub/b.cuh", "sub/deep/c.cpp",
                                     "sub/plain.cpp", "unused.inl2"]


def test_jobs_give_the_same_output(tree: Path, tmp_path: Path):
    assert run("translate", str(tree), "-o", str(tmp_path / "one"), "-q", *ROCM).returncode == 0
    proc = run("translate", str(tree), "-o", str(tmp_path / "two"), "-q", "-j", "2", *ROCM)
    assert proc.returncode == 0, proc.stderr
    assert snapshot(tmp_path / "two") == snapshot(tmp_path / "one")


# --- --in-place ------------------------------------------------------------------------

def test_in_place_rewrites_only_changed_files(tree: Path):
    changed = tree / "sub" / "deep" / "c.cpp"
    os.chmod(changed, 0o640)
    unchanged = tree / "sub" / "plain.cpp"
    os.utime(unchanged, (1_000_000_000, 1_000_000_000))
    inode = unchanged.stat().st_ino
    want = expected(changed)
    assert want != C_CPP
    before = snapshot(tree)
    proc = run("translate", str(tree), "--in-place", *ROCM)
    assert proc.returncode == 0, proc.stderr
    after = snapshot(tree)
    assert sorted(after) == sorted(before)       # no new files, no temp files left
    assert after["sub/deep/c.cpp"] == want
    assert stat.S_IMODE(changed.stat().st_mode) == 0o640
    assert after["sub/plain.cpp"] == PLAIN
    assert unchanged.stat().st_mtime == 1_000_000_000
    assert unchanged.stat().st_ino == inode
    assert after["README.txt"] == README and after["unused.inl2"] == HELPER
    assert not [p for p in tree.rglob("*") if "cu2hip-tmp" in p.name]


def test_in_place_keeps_executable_and_setgid_bits(tmp_path: Path):
    f = tmp_path / "x.cu"
    f.write_bytes(C_CPP)
    os.chmod(f, 0o2751)
    assert main(["translate", str(f), "--in-place", "-q", *ROCM]) == 0
    assert stat.S_IMODE(f.stat().st_mode) == 0o2751
    assert b"hipFree" in f.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.cu"]


def test_in_place_follows_symlink(tmp_path: Path):
    (tmp_path / "b.cu").write_bytes(C_CPP)
    (tmp_path / "a.cu").symlink_to("b.cu")
    assert main(["translate", str(tmp_path), "--in-place", "-q", *ROCM]) == 0
    assert (tmp_path / "a.cu").is_symlink()
    assert b"hipFree(0)" in (tmp_path / "b.cu").read_bytes()


# --- --stdout, --examine, --print-stats -------------------------------------------------------

def test_stdout_one_file(tree: Path):
    before = snapshot(tree)
    proc = run("translate", str(tree / "a.cu"), "--stdout", *ROCM)
    assert proc.returncode == 0
    # One file that does not define main is not the whole program: its kernel, of external
    # linkage, may be launched from another file, so it is not bounded (translator.universe).
    assert proc.stdout == expected(tree / "a.cu").replace(b"__launch_bounds__(1) ", b"")
    stderr = proc.stderr.decode().splitlines()
    assert stderr[0].startswith(f"{tree / 'a.cu'}:3:17: warning: k is not bounded: at {tree / 'a.cu'}:3, k has "
                                "external linkage: another translation unit of the program may launch it")
    assert stderr[1:] == ["cu2hip: 1 files, 1 changed, 2 edits (H001: 1, H002: 1), 0 errors, 1 warnings; target ROCm "
                          "6.0 (from --rocm-version)"]
    assert snapshot(tree) == before


def test_stdout_with_print_stats_keeps_stdout_clean(tree: Path):
    proc = run("translate", str(tree / "a.cu"), "--stdout", "--print-stats", "-q", *ROCM)
    assert proc.returncode == 0
    assert proc.stdout == expected(tree / "a.cu").replace(b"__launch_bounds__(1) ", b"")   # see test_stdout_one_file
    assert f"[cu2hip] statistics: {tree / 'a.cu'}\n" in proc.stderr.decode()


def test_stdout_two_files_is_a_usage_error(tree: Path):
    proc = run("translate", str(tree / "a.cu"), str(tree / "sub" / "b.cuh"), "--stdout", *ROCM)
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode() == "cu2hip: error: --stdout takes exactly one file (2 given)\n"


# --- `-`: standard input (as Ruff's) -----------------------------------------------

def run_in(data: bytes, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], input=data, capture_output=True,
                          cwd=cwd, timeout=120, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})


def test_stdin_is_translated_to_stdout_as_the_file_stdin_filename_names(tree: Path, tmp_path: Path):
    named = tree / "a.cu"
    proc = run_in(A_CU, "translate", "-", "--stdin-filename", str(named), *ROCM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected(named).replace(b"__launch_bounds__(1) ", b"")    # as test_stdout_one_file
    # Its diagnostics name the file; its local header is found next to it.
    assert proc.stderr.decode().startswith(f"{named}:3:17: warning: k is not bounded")
    # With no name it is `-`, in the current folder.
    proc = run_in(C_CPP, "translate", "-", "-q", *ROCM, cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"#include <hip/hip_runtime.h>\nvoid m() { hipFree(0); }\n",
                                                          b"")
    # -o FILE takes it, as it takes one input file.
    proc = run_in(C_CPP, "translate", "-", "-o", str(tmp_path / "m.hip"), "-q", *ROCM)
    assert proc.returncode == 0 and proc.stdout == b""
    assert (tmp_path / "m.hip").read_bytes() == b"#include <hip/hip_runtime.h>\nvoid m() { hipFree(0); }\n"


def test_stdin_filename_gives_the_language_and_the_configuration(tmp_path: Path):
    (tmp_path / "p" / "src").mkdir(parents=True)
    (tmp_path / "p" / "cu2hip.toml").write_text('rocm-version = "6.0"\nhip-kernel-execution-syntax = true\n')
    src = b"__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); }\n"
    proc = run_in(src, "translate", "-", "--stdin-filename", "p/src/k.cu", "-q", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0);" in proc.stdout    # the configuration's syntax
    # A build file by its name: CMake's CUDA language becomes HIP.
    cmake = b"project(p LANGUAGES CXX CUDA)\nadd_executable(p k.cu)\n"
    proc = run_in(cmake, "translate", "-", "--stdin-filename", "p/CMakeLists.txt", "-q", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"project(p LANGUAGES CXX HIP)" in proc.stdout
    # diff and report read it too.
    proc = run_in(src, "diff", "-", "--stdin-filename", "p/src/k.cu", "--format", "patch", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("--- a/p/src/k.cu\n+++ b/p/src/k.cu\n")
    assert "+void f() { hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0); }" in proc.stdout.decode()
    proc = run_in(src, "report", "-", "--stdin-filename", "p/src/k.cu", "--no-compile", "--format", "json",
                  cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [row["kernel"] for row in json.loads(proc.stdout)["kernels"]] == ["k"]


@pytest.mark.parametrize("args, message", [
    (["translate", "-", "-o", "{tmp}"], "-o {tmp} is a folder, which mirrors a tree: with `-` the translation goes "
                                        "to stdout, or to -o FILE (a name with a suffix)"),
    (["translate", "-", "--in-place"], "--in-place rewrites files: with `-` the translation goes to stdout"),
    (["translate", "-", "a.cu", "--stdout"], "`-` (standard input) is the only input of a run, not one of 2: "
                                             "translate the other paths in a run of their own"),
    (["check", "-"], "check compares committed files with their translations: standard input has none"),
    (["diff", "-", "--against", "{tmp}"], "--against compares a tree with its translation: standard input is no "
                                          "file of a tree"),
    (["translate", "a.cu", "--stdout", "--stdin-filename", "x.cu"],
     "--stdin-filename names the source read from standard input: give `-` as the input"),
])
def test_stdin_where_it_makes_no_sense_is_a_usage_error(tmp_path: Path, args, message):
    proc = run_in(C_CPP, *(a.format(tmp=tmp_path) for a in args), *ROCM, cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == f"cu2hip: error: {message.format(tmp=tmp_path)}\n"


def test_examine_writes_nothing_and_prints_statistics(tree: Path, capsys):
    before = snapshot(tree)
    assert main(["translate", str(tree), "--examine", "-q", *ROCM]) == 0
    out = capsys.readouterr().out
    assert snapshot(tree) == before
    assert sorted(p.name for p in tree.parent.iterdir()) == ["src"]
    assert out.count("[cu2hip] statistics: ") == 6        # 5 files and the total
    total = out[out.index("[cu2hip] statistics: total\n"):]
    assert "  files: 5 (4 changed)\n" in total
    assert "  CONVERTED refs count: 8\n" in total
    assert "  UNCONVERTED refs count: 0\n" in total
    assert "  CONVERSION %: 100.0\n" in total


def test_print_stats_counts_and_total(tmp_path: Path, capsys):
    (tmp_path / "one.cu").write_bytes(b"void f(void *p) { cudaFree(p); cudaDeviceSynchronize(); }\n")
    (tmp_path / "two.cu").write_bytes(b"void g() { cudaProfilerInitialize(0, 0, 0); }\n")
    (tmp_path / "three.cu").write_bytes(b"int h() { return 0; }\n")
    rc = main(["translate", str(tmp_path / "one.cu"), str(tmp_path / "two.cu"), str(tmp_path / "three.cu"),
               "-o", str(tmp_path / "out"), "--print-stats", *ROCM])
    assert rc == 0                       # an error diagnostic without --strict
    captured = capsys.readouterr()
    blocks = captured.out.split("[cu2hip] statistics: ")[1:]
    assert [b.splitlines()[0] for b in blocks] == [str(tmp_path / n) for n in ("one.cu", "two.cu", "three.cu")] \
        + ["total"]
    one, two, three, total = blocks
    assert "  CONVERTED refs count: 3\n  UNCONVERTED refs count: 0\n" in one      # 2 renames + the include
    assert "  CONVERTED refs count: 0\n  UNCONVERTED refs count: 1\n" in two
    assert "  UNCONVERTED refs by names:\n    cudaProfilerInitialize: 1\n" in two
    assert "  CONVERTED refs count: 0\n  UNCONVERTED refs count: 0\n" in three
    assert "  files: 3 (1 changed)\n" in total
    assert "  CONVERTED refs count: 3\n  UNCONVERTED refs count: 1\n  CONVERSION %: 75.0\n" in total
    assert "  diagnostics: 1 errors, 0 warnings\n" in total
    assert "  CONVERTED refs by names:\n    cudaDeviceSynchronize: 1\n    cudaFree: 1\n" in total
    assert f"{tmp_path / 'two.cu'}:1:12: error: 'cudaProfilerInitialize' has no HIP equivalent [H010]" \
        in captured.err.splitlines()


def test_print_stats_single_file_has_no_total(tmp_path: Path, capsys):
    (tmp_path / "one.cu").write_bytes(C_CPP)
    assert main(["translate", str(tmp_path / "one.cu"), "--examine", "-q", *ROCM]) == 0
    out = capsys.readouterr().out
    assert out.count("[cu2hip] statistics: ") == 1
    assert "statistics: total" not in out


# --- exit codes --------------------------------------------------------------------------------

def test_strict_exit_code_on_error_diagnostic(tmp_path: Path):
    f = tmp_path / "u.cu"
    f.write_bytes(b"void f() { cudaProfilerInitialize(0, 0, 0); }\n")
    strict = run("translate", str(f), "--stdout", "--strict", *ROCM)
    assert strict.returncode == 1
    assert strict.stdout == f.read_bytes()     # nothing to rename: output == input
    assert f"{f}:1:12: error: 'cudaProfilerInitialize' has no HIP equivalent [H010]\n".encode() in strict.stderr
    assert run("translate", str(f), "--stdout", *ROCM).returncode == 0


def test_strict_exit_zero_without_errors(tree: Path):
    assert main(["translate", str(tree / "a.cu"), "--examine", "--strict", "-q", *ROCM]) == 0


def test_strict_counts_missing_paths(tmp_path: Path, capsys):
    missing = tmp_path / "nope.cu"
    assert main(["translate", str(missing), "--examine", "--strict", "-q"]) == 1
    assert f"{missing}:1:1: error: no such file or directory [I001]" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["translate", "X"], "cu2hip: error: say where the output goes: -o DIR, --in-place, --stdout or --examine\n"),
    (["translate", "X", "--examine", "--rocm-version", "six"], "cu2hip: error: --rocm-version: not a version: 'six'\n"),
    (["translate", "X", "--examine", "--jobs", "0"], "cu2hip: error: --jobs must be at least 1\n"),
], ids=["no-output-mode", "bad-rocm-version", "zero-jobs"])
def test_usage_errors_in_process(tmp_path: Path, capsys, args, message):
    f = tmp_path / "x.cu"
    f.write_bytes(C_CPP)
    argv = [str(f) if a == "X" else a for a in args]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == message
    assert f.read_bytes() == C_CPP


@pytest.mark.parametrize("args, fragment", [
    (["translate", "X", "--examine", "--bogus"], b"error: unrecognized arguments: --bogus"),
    (["translate", "X", "-o", "O", "--in-place"], b"argument --in-place: not allowed with argument -o/--output"),
    (["translate", "X", "--stdout", "--hip-kernel-execution-syntax", "--cuda-kernel-execution-syntax"],
     b"argument --cuda-kernel-execution-syntax: not allowed with argument --hip-kernel-execution-syntax"),
    (["translate", "X", "--examine", "--target", "sycl"], b"argument --target: invalid choice: 'sycl'"),
    (["translate"], b"the following arguments are required: PATH"),
    ([], b"usage: cu2hip"),
], ids=["unknown-option", "two-output-modes", "both-launch-syntaxes", "bad-target", "no-path", "no-command"])
def test_usage_errors_exit_2(tmp_path: Path, args, fragment):
    f = tmp_path / "x.cu"
    f.write_bytes(C_CPP)
    argv = [str(f) if a == "X" else str(tmp_path / "o") if a == "O" else a for a in args]
    proc = run(*argv)
    assert proc.returncode == 2
    assert fragment in proc.stderr
    assert proc.stdout == b""
    assert f.read_bytes() == C_CPP
    assert not (tmp_path / "o").exists()


def test_version():
    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout.decode() == f"cu2hip {__version__}\n"


def test_console_script_entry_point_is_main():
    from importlib.metadata import entry_points
    (ep,) = [e for e in entry_points(group="console_scripts") if e.name == "cu2hip"]
    assert ep.value == "translator.cli:main"


# --- launch syntax flags -------------------------------------------------------------------

def test_hip_kernel_execution_syntax(tmp_path: Path):
    f = tmp_path / "l.cu"
    f.write_bytes(b"__global__ void k(int *p) {}\nvoid h(int *p) { k<<<2, 64>>>(p); }\n")
    proc = run("translate", str(f), "--stdout", "--hip-kernel-execution-syntax", "-q", *ROCM)
    assert proc.returncode == 0
    assert b"void h(int *p) { hipLaunchKernelGGL(k, dim3(2), dim3(64), 0, 0, p); }\n" in proc.stdout
    plain = run("translate", str(f), "--stdout", "--cuda-kernel-execution-syntax", "-q", *ROCM)
    assert b"k<<<2, 64>>>(p);" in plain.stdout


# --- idempotence ------------------------------------------------------------------------------

def test_translating_output_again_changes_nothing(tree: Path, tmp_path: Path):
    out, out2 = tmp_path / "out", tmp_path / "out2"
    assert main(["translate", str(tree), "-o", str(out), "-q", *ROCM]) == 0
    first = snapshot(out)
    assert main(["translate", str(out), "-o", str(out2), "-q", *ROCM]) == 0
    assert snapshot(out2) == first
    proc = run("translate", str(out), "--in-place", *ROCM)
    assert proc.returncode == 0
    assert proc.stderr.decode().splitlines()[-1] == (
        "cu2hip: 5 files, 0 changed, 0 edits (none), 0 errors, 0 warnings, 5 cached; target ROCm 6.0 "
        "(from --rocm-version)")
    assert snapshot(out) == first


def test_progress_line_is_cleared_before_other_output():
    import io

    from translator.commands.run import Progress
    stream = io.StringIO()
    ticks = iter([100.0, 102.0, 104.0])          # started, then one file every 2 s
    progress = Progress(stream, 3, clock=lambda: next(ticks))
    progress.show("a/long/path.cu")
    progress.show("b.cu")
    progress.clear()
    first = "[1/3] 0 files/s, 4 s left  a/long/path.cu"
    second = "[2/3] 0 files/s, 2 s left  b.cu"
    assert stream.getvalue() == ("\r" + first + "\r" + second + " " * (len(first) - len(second))
                                 + "\r" + " " * len(second) + "\r")


def test_qualifier_macros_defined_in_another_file_of_the_tree(tmp_path):
    # `HD` is defined in defs.h and used in k.cu: translated alone, k.cu does not parse
    # at `HD inline void up(...)`; translated with the tree, the definition is known and
    # the file parses.
    tree = tmp_path / "src"
    tree.mkdir()
    (tree / "defs.h").write_bytes(b"#pragma once\n#ifdef __CUDACC__\n#define HD __host__ __device__\n"
                                  b"#else\n#define HD\n#endif\n")
    (tree / "k.cu").write_bytes(b'#include "defs.h"\n__constant__ int c;\n'
                                b"HD inline void up(const int *h) { cudaMemcpyToSymbol(c, h, sizeof(int)); }\n")
    alone = run("translate", str(tree / "k.cu"), "--stdout")
    assert b"k.cu:3:11: warning: cannot parse this code" in alone.stderr
    together = run("translate", str(tree), "-o", str(tmp_path / "out"))
    assert b"[P001]" not in together.stderr, together.stderr
    assert b"hipMemcpyToSymbol(HIP_SYMBOL(c), h, sizeof(int))" in (tmp_path / "out" / "k.cu").read_bytes()


def test_toolchain_file_prints_the_shipped_file_and_writes_a_copy(tmp_path: Path) -> None:
    """Debian 12's CMake needs the toolchain file for CMake's HIP language: a user of the
    wheel gets it from the command, not from the repository."""
    done = run("toolchain-file")
    assert done.returncode == 0, done.stderr
    shipped = Path(done.stdout.decode().strip())
    assert shipped.name == "debian-hip.cmake" and shipped.is_file()
    assert b"CMAKE_HIP_COMPILER_ROCM_ROOT" in shipped.read_bytes()
    done = run("toolchain-file", "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "debian-hip.cmake").read_bytes() == shipped.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["debian-hip.cmake"]   # no temporary left
    done = run("toolchain-file", "-o", str(tmp_path / "missing" / "t.cmake"))
    assert done.returncode == 2 and b"cannot write" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("no_color", [None, "", "1"])
def test_diff_colours_a_terminal_unless_no_color_is_set(tmp_path: Path, no_color: str | None) -> None:
    import pty
    (tmp_path / "a.cu").write_bytes(b"void f(float *p) { cudaFree(p); }\n")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    if no_color is not None:
        env["NO_COLOR"] = no_color
    out = b""
    for color in ("auto", "always"):
        main_fd, child_fd = pty.openpty()       # stdout a terminal
        done = subprocess.run([sys.executable, "-m", "translator", "diff", str(tmp_path / "a.cu"), "--no-cache",
                               "--color", color], stdout=child_fd, stderr=subprocess.PIPE, env=env, timeout=300)
        os.close(child_fd)
        text = b""
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            text += chunk
        os.close(main_fd)
        assert done.returncode == 0, done.stderr
        out += b"%s: %s\n" % (color.encode(), b"colour" if b"\x1b[" in text else b"plain")
    # NO_COLOR set and not empty turns auto off; --color always still colours.
    assert out == (b"auto: plain\nalways: colour\n" if no_color else b"auto: colour\nalways: colour\n")


def test_a_commands_own_parser_parses_and_helps_as_the_whole_command_line() -> None:
    # A run builds its own command's arguments only (translator.cli._parser(command)).
    import argparse

    from translator.cli import COMMANDS, _parser

    def commands(parser):
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    full = _parser()
    assert tuple(commands(full)) == COMMANDS
    for argv in (["translate", "a.cu", "--stdout", "--no-fuse", "--block-size", "128", "-j", "2", "--roc"],
                 ["check", "src", "-o", "out", "--select", "H"], ["diff", "x", "--format", "json"],
                 ["report", "x", "--no-compile", "-I", "inc", "-D", "N=1"], ["batch", "m.toml", "-o", "o"],
                 ["rules", "H001"], ["toolchain-file", "-o", "f"]):
        own = _parser(argv[0])
        assert vars(own.parse_args(argv)) == vars(full.parse_args(argv))
        assert commands(own)[argv[0]].format_help() == commands(full)[argv[0]].format_help()
        assert own.format_help() == full.format_help()
        # The others are listed, with no arguments of their own.
        assert [a.dest for c, p in commands(own).items() if c != argv[0] for a in p._actions] == \
            ["help"] * (len(COMMANDS) - 1)
