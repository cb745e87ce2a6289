"""Bad input: binary files, invalid UTF-8, parse errors, unreadable paths, huge files,
empty files, no final newline, and write failures during --in-place.

The contract: a diagnostic `path:line:col: severity: message [ID]` naming the file,
never a traceback, never a corrupted or half-written file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import translator.inputs
from translator.cli import main
from translator.passes import Options
from translator.pipeline import translate

ROCM = ["--rocm-version", "6.0"]
OPTIONS = Options(rocm_version=(6, 0))
GOOD = b"void f() { cudaFree(0); }\n"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, timeout=120)


def files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


# --- binary files -----------------------------------------------------------------------

BINARY = b"int a;\n\0\0cudaMalloc\n"


def test_binary_file_pipeline():
    result = translate("b.cu", BINARY, OPTIONS)
    assert result.skipped is True
    assert result.output == BINARY
    assert [d.format() for d in result.diagnostics] == ["b.cu:2:1: error: binary file (NUL byte); not translated [I002]"]
    assert result.applied == [] and result.api_uses is None


def test_binary_file_with_output_dir(tmp_path: Path):
    (tmp_path / "in").mkdir()
    binary, good = tmp_path / "in" / "bin.cu", tmp_path / "in" / "good.cu"
    binary.write_bytes(BINARY)
    good.write_bytes(GOOD)
    proc = run("translate", str(tmp_path / "in"), "-o", str(tmp_path / "out"), *ROCM)
    assert proc.returncode == 0
    err = proc.stderr.decode()
    assert f"{binary}:2:1: error: binary file (NUL byte); not translated [I002]\n" in err
    assert "Traceback" not in err
    assert files(tmp_path / "out") == ["good.cu"]        # nothing written for the binary file
    assert binary.read_bytes() == BINARY
    assert run("translate", str(binary), "-o", str(tmp_path / "o2"), "--strict", *ROCM).returncode == 1


def test_binary_file_in_place_is_untouched(tmp_path: Path):
    binary = tmp_path / "bin.cu"
    binary.write_bytes(BINARY)
    os.utime(binary, (1_000_000_000, 1_000_000_000))
    proc = run("translate", str(binary), "--in-place", *ROCM)
    assert proc.returncode == 0
    assert b"Traceback" not in proc.stderr
    assert binary.read_bytes() == BINARY
    assert binary.stat().st_mtime == 1_000_000_000
    assert files(tmp_path) == ["bin.cu"]


def test_binary_file_stdout_prints_nothing(tmp_path: Path):
    binary = tmp_path / "bin.cu"
    binary.write_bytes(BINARY)
    proc = run("translate", str(binary), "--stdout", *ROCM)
    assert proc.stdout == b""
    assert f"{binary}:2:1: error: binary file (NUL byte); not translated [I002]".encode() in proc.stderr


def test_nul_after_first_8k_is_not_binary():
    data = b"// " + b"x" * 9000 + b"\n" + b"\0" + b"\nvoid f() { cudaFree(0); }\n"
    result = translate("late.cu", data, OPTIONS)
    assert not any(d.code == "I002" for d in result.diagnostics)
    assert b"hipFree(0)" in result.output


# --- invalid UTF-8 -------------------------------------------------------------------------

LATIN1 = b"void f() { cudaFree(0); }\n// caf\xe9 au lait\nint x;\n"


def test_invalid_utf8_warning_position_and_bytes_kept():
    result = translate("l.cu", LATIN1, OPTIONS)
    assert result.skipped is False
    assert [d.format() for d in result.diagnostics if d.code == "I003"] == [
        "l.cu:2:7: warning: invalid UTF-8 byte 0xe9; bytes are kept as they are [I003]"]
    assert LATIN1.index(b"\xe9") == 32       # line 2 starts at 26: column 7
    assert b"hipFree(0)" in result.output
    assert b"// caf\xe9 au lait\nint x;\n" in result.output
    assert result.output.count(b"\xe9") == 1


def test_invalid_utf8_through_cli(tmp_path: Path):
    f = tmp_path / "l.cu"
    f.write_bytes(LATIN1)
    proc = run("translate", str(f), "-o", str(tmp_path / "out"), "--strict", *ROCM)
    assert proc.returncode == 0                     # a warning, not an error
    assert f"{f}:2:7: warning: invalid UTF-8 byte 0xe9; bytes are kept as they are [I003]".encode() in proc.stderr
    out = (tmp_path / "out" / "l.cu").read_bytes()
    assert out == translate(str(f), LATIN1, OPTIONS).output
    assert b"caf\xe9" in out


def test_invalid_utf8_inside_an_identifier_region():
    data = b"void f() { cudaFree(0); /* \xff\xfe */ cudaMalloc(&p, 1); }\n"
    result = translate("x.cu", data, OPTIONS)
    assert [(d.line, d.col, d.code) for d in result.diagnostics if d.code == "I003"] == [(1, 28, "I003")]
    assert b"/* \xff\xfe */ hipMalloc(&p, 1)" in result.output


# --- parse errors ------------------------------------------------------------------------------

UNBALANCED = b"void f() {\n  if (x) {\n    cudaFree(0);\n}\n"


def test_unbalanced_braces_warn_and_still_rename(tmp_path: Path):
    f = tmp_path / "u.cu"
    f.write_bytes(UNBALANCED)
    proc = run("translate", str(f), "--stdout", "--strict", *ROCM)
    assert proc.returncode == 0
    err = proc.stderr.decode()
    assert f"{f}:4:2: warning: parse error: expected '}}'; only renames are made here [P001]\n" in err
    assert "Traceback" not in err
    assert b"    hipFree(0);\n}\n" in proc.stdout
    assert b"cudaFree" not in proc.stdout


def test_several_error_sites_each_reported():
    data = b"void f() {\n  int a = = 1;\n  cudaFree(0);\n}\nvoid g() {\n  int b = = 2;\n  cudaFree(0);\n}\n"
    result = translate("e.cu", data, OPTIONS)
    assert [d.format() for d in result.diagnostics if d.code == "P001"] == [
        "e.cu:2:11: warning: cannot parse this code; only renames are made here [P001]",
        "e.cu:6:11: warning: cannot parse this code; only renames are made here [P001]",
    ]
    assert b"hipFree(0)" in result.output


# An OpenGL header the grammar cannot read (APIENTRY, GLAPI are macros it cannot see).
OPENGL = (b"#ifndef MY_GL_H\n#define MY_GL_H\n#include <GL/gl.h>\n"
          b"typedef void (APIENTRY *PFNGLBINDPROC)(GLenum target, GLuint id);\n"
          b"GLAPI void APIENTRY glBindThing(GLenum a);\n#endif\n")


def test_no_parse_warning_where_there_is_no_cuda():
    result = translate("gl_helpers.h", OPENGL, OPTIONS)
    assert result.diagnostics == [] and result.output == OPENGL
    # The same region beside CUDA is reported: the parse error is where the rules work.
    cuda = OPENGL.replace(b"GLAPI void", b"GLAPI __device__ void")
    assert [d.format() for d in translate("gl_helpers.h", cuda, OPTIONS).diagnostics if d.code == "P001"] != []
    # Around a function of CUDA's, an error that holds no CUDA itself is reported too.
    data = b"void f() {\n  int a = = 1;\n  cudaFree(0);\n}\nvoid g() {\n  int b = = 2;\n}\n"
    assert [d.line for d in translate("e.cu", data, OPTIONS).diagnostics if d.code == "P001"] == [2]


def test_a_last_include_without_a_final_newline_is_no_parse_error():
    data = b"#pragma once\n#include <stdio.h>\n#include <cuda_runtime.h>"
    result = translate("last.h", data, OPTIONS)
    assert [d.code for d in result.diagnostics] == []
    assert result.output == b"#pragma once\n#include <stdio.h>\n#include <hip/hip_runtime.h>"
    # Code on the last line is still read as code: a broken one is reported.
    broken = b"__global__ void k() { int a = = 1; }"
    assert [d.code for d in translate("k.cu", broken, OPTIONS).diagnostics if d.code == "P001"] == ["P001"]


def test_garbage_text_does_not_crash():
    data = b"}}}{{{ <<< >>> ((( ;;; #if\n#endif #define\n\"unterminated\n'x\n/* open comment"
    result = translate("g.cu", data, OPTIONS)
    assert result.output == data
    assert [d.format() for d in result.diagnostics] == [
        "g.cu:1:1: warning: cannot parse this code; only renames are made here [P001]"]


# --- unreadable paths ---------------------------------------------------------------------------

def test_nonexistent_path(tmp_path: Path):
    missing = tmp_path / "nope.cu"
    proc = run("translate", str(missing), str(tmp_path / "also-missing"), "-o", str(tmp_path / "out"), *ROCM)
    assert proc.returncode == 1       # a missing input fails the command, as in Ruff
    err = proc.stderr.decode()
    assert f"{missing}:1:1: error: no such file or directory [I001]\n" in err
    assert f"{tmp_path / 'also-missing'}:1:1: error: no such file or directory [I001]\n" in err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == "cu2hip: 0 files, 0 changed, 0 edits (none), 2 errors, 0 warnings; target ROCm 6.0 (from --rocm-version)"
    assert run("translate", str(missing), "--examine", "--strict").returncode == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root: root can read a chmod 000 file")
def test_unreadable_file(tmp_path: Path, capsys):
    f = tmp_path / "secret.cu"
    f.write_bytes(GOOD)
    f.chmod(0)
    try:
        assert main(["translate", str(f), "-o", str(tmp_path / "out"), "--strict", "-q", *ROCM]) == 1
    finally:
        f.chmod(0o644)
    assert f"{f}:1:1: error: cannot read: Permission denied [I001]" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root: root can list a chmod 000 directory")
def test_unlistable_directory_real(tmp_path: Path, capsys):
    locked = tmp_path / "tree" / "locked"
    locked.mkdir(parents=True)
    (locked / "a.cu").write_bytes(GOOD)
    locked.chmod(0)
    try:
        assert main(["translate", str(tmp_path / "tree"), "--examine", "--strict", "-q", *ROCM]) == 1
    finally:
        locked.chmod(0o755)
    assert f"{locked}:1:1: error: cannot read: Permission denied [I001]" in capsys.readouterr().err


def test_unlistable_directory_simulated(tmp_path: Path, capsys, monkeypatch):
    # Root can list anything: make the listing of one folder fail the way it does for others.
    tree = tmp_path / "tree"
    locked = tree / "locked"
    locked.mkdir(parents=True)
    (locked / "a.cu").write_bytes(GOOD)
    (tree / "ok.cu").write_bytes(GOOD)
    real_scandir = os.scandir

    def scandir(path="."):
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    rc = main(["translate", str(tree), "-o", str(tmp_path / "out"), "--strict", "-q", *ROCM])
    assert rc == 1
    assert f"{locked}:1:1: error: cannot read: Permission denied [I001]" in capsys.readouterr().err.splitlines()
    assert files(tmp_path / "out") == ["ok.cu"]


def test_dangling_symlink_in_tree_cannot_be_read(tmp_path: Path, capsys):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "ok.cu").write_bytes(GOOD)
    (tree / "gone.cu").symlink_to(tmp_path / "missing-target.cu")
    rc = main(["translate", str(tree), "-o", str(tmp_path / "out"), "--strict", "-q", *ROCM])
    assert rc == 1
    err = capsys.readouterr().err
    assert f"{tree / 'gone.cu'}:1:1: error: cannot read: No such file or directory [I001]" in err.splitlines()
    assert "Traceback" not in err
    assert files(tmp_path / "out") == ["ok.cu"]


# --- huge files -----------------------------------------------------------------------------------

def test_file_over_the_limit(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.setattr(translator.inputs, "MAX_FILE_BYTES", 16)
    big = tmp_path / "big.cu"
    big.write_bytes(GOOD)           # 26 bytes
    small = tmp_path / "small.cu"
    small.write_bytes(b"int x;\n")  # 7 bytes: under the limit
    rc = main(["translate", str(big), str(small), "-o", str(tmp_path / "out"), "--strict", "-q", *ROCM])
    assert rc == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"{big}:1:1: error: file is 26 bytes, over the 16-byte limit; not translated [I004]"]
    assert files(tmp_path / "out") == ["small.cu"]
    assert big.read_bytes() == GOOD


def test_file_exactly_at_the_limit_is_translated(monkeypatch):
    monkeypatch.setattr(translator.inputs, "MAX_FILE_BYTES", len(GOOD))
    result = translate("edge.cu", GOOD, OPTIONS)
    assert not result.skipped
    assert b"hipFree(0)" in result.output


# --- empty file, no final newline -------------------------------------------------------------------

def test_empty_file(tmp_path: Path, capsys):
    result = translate("e.cu", b"", OPTIONS)
    assert (result.output, result.diagnostics, result.applied, result.changed) == (b"", [], [], False)
    f = tmp_path / "e.cu"
    f.write_bytes(b"")
    assert main(["translate", str(f), "--in-place", "--strict", *ROCM]) == 0
    assert f.read_bytes() == b""
    assert capsys.readouterr().err == "cu2hip: 1 files, 0 changed, 0 edits (none), 0 errors, 0 warnings; target ROCm 6.0 (from --rocm-version)\n"


def test_no_trailing_newline_kept(tmp_path: Path):
    data = b"#include <cuda_runtime.h>\nvoid f() { cudaFree(0); }"
    result = translate("n.cu", data, OPTIONS)
    assert result.output == b"#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }"
    assert [d for d in result.diagnostics if d.code != "P001"] == []
    f = tmp_path / "n.cu"
    f.write_bytes(data)
    assert main(["translate", str(f), "--in-place", "-q", *ROCM]) == 0
    assert f.read_bytes() == result.output


def test_crlf_file_stays_crlf():
    data = b"#include <cuda_runtime.h>\r\nvoid f() {\r\n\tcudaFree(0);\r\n}\r\n"
    result = translate("c.cu", data, OPTIONS)
    assert result.output == b"#include <hip/hip_runtime.h>\r\nvoid f() {\r\n\thipFree(0);\r\n}\r\n"
    assert result.diagnostics == []


def test_utf8_bom_stays_first():
    data = b"\xef\xbb\xbfvoid f() { cudaFree(0); }\n"
    result = translate("bom.cu", data, OPTIONS)
    assert result.output.startswith(b"\xef\xbb\xbf")
    assert b"hipFree(0)" in result.output
    assert [d.code for d in result.diagnostics] == []


# --- --in-place never corrupts -----------------------------------------------------------------------

def _failing_replace(*args, **kwargs):
    raise OSError(28, "No space left on device")


def test_in_place_write_failure_leaves_original_and_no_temp(tmp_path: Path, monkeypatch):
    f = tmp_path / "w.cu"
    f.write_bytes(GOOD)
    monkeypatch.setattr(os, "replace", _failing_replace)
    try:
        main(["translate", str(f), "--in-place", "-q", *ROCM])
    except OSError:
        pass    # whether it surfaces as an exception is the next test's business
    assert f.read_bytes() == GOOD
    assert files(tmp_path) == ["w.cu"]          # the temporary file was removed


def test_output_write_failure_leaves_no_temp(tmp_path: Path, monkeypatch):
    f = tmp_path / "in" / "w.cu"
    f.parent.mkdir()
    f.write_bytes(GOOD)
    monkeypatch.setattr(os, "replace", _failing_replace)
    try:
        main(["translate", str(f), "-o", str(tmp_path / "out"), "-q", *ROCM])
    except OSError:
        pass
    assert files(tmp_path / "out") == []
    assert f.read_bytes() == GOOD


def test_in_place_write_failure_is_a_diagnostic(tmp_path: Path, monkeypatch, capsys):
    f = tmp_path / "w.cu"
    f.write_bytes(GOOD)
    monkeypatch.setattr(os, "replace", _failing_replace)
    rc = main(["translate", str(f), "--in-place", "-q", *ROCM])
    assert rc != 0
    err = capsys.readouterr().err
    assert f"{f}:1:1: error: cannot write: No space left on device; the file is unchanged [I005]" in err
    assert f.read_bytes() == GOOD


def test_in_place_leaves_a_link_out_of_the_tree(tmp_path: Path, capsys):
    outside = tmp_path / "elsewhere.cu"
    outside.write_bytes(GOOD)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.cu").symlink_to(outside)
    assert main(["translate", str(tree), "--in-place", "-q", *ROCM]) == 0
    assert capsys.readouterr().err == \
        f"{tree / 'link.cu'}:1:1: warning: symbolic link to a file outside the tree; not rewritten [I006]\n"
    assert outside.read_bytes() == GOOD and (tree / "link.cu").is_symlink()
