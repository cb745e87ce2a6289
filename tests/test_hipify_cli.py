"""HIPIFY's command-line spellings: accepted with their meaning, accepted as needless
with a note, or rejected naming the cu2hip equivalent."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from translator.cli import main
from translator.hipify_compat import NEEDLESS, REJECTED, VALUED

ROCM = ["--rocm-version", "6.0"]
SOURCE = b"void f() { cudaFree(0); }\n"
HIP = b"#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n"


@pytest.fixture
def cu(tmp_path: Path) -> Path:
    f = tmp_path / "k.cu"
    f.write_bytes(SOURCE)
    return f


def test_o_names_the_output_file_when_the_input_is_one_file(cu: Path, tmp_path: Path) -> None:
    assert main(["translate", str(cu), "-o", str(tmp_path / "k.hip"), "-q", *ROCM]) == 0
    assert (tmp_path / "k.hip").read_bytes() == HIP
    # A name without a suffix (or an existing folder) is still cu2hip's output folder.
    assert main(["translate", str(cu), "-o", str(tmp_path / "out"), "-q", *ROCM]) == 0
    assert (tmp_path / "out" / "k.cu").read_bytes() == HIP


def test_o_dir_and_inplace_are_the_folder_and_in_place(cu: Path, tmp_path: Path) -> None:
    assert main(["translate", str(cu), "--o-dir", str(tmp_path / "d"), "-q", *ROCM]) == 0
    assert (tmp_path / "d" / "k.cu").read_bytes() == HIP
    assert main(["translate", str(cu), "--inplace", "-q", *ROCM]) == 0
    assert cu.read_bytes() == HIP


def test_contradicting_destinations_are_a_usage_error(cu: Path, tmp_path: Path, capsys) -> None:
    assert main(["translate", str(cu), "--o-dir", str(tmp_path / "d"), "--inplace", *ROCM]) == 2
    assert "--o-dir and --inplace say different things" in capsys.readouterr().err
    assert cu.read_bytes() == SOURCE and not (tmp_path / "d").exists()


def test_no_output_writes_nothing_and_o_stats_takes_the_statistics(cu: Path, tmp_path: Path, capsys) -> None:
    stats = tmp_path / "stats.txt"
    assert main(["translate", str(cu), "--no-output", "--o-stats", str(stats), "-q", *ROCM]) == 0
    assert capsys.readouterr().out == ""
    assert cu.read_bytes() == SOURCE
    text = stats.read_text()
    assert text.startswith(f"[cu2hip] statistics: {cu}\n") and "  CONVERTED refs count: 2\n" in text


def test_print_stats_csv_has_hipify_columns(cu: Path, capsys) -> None:
    assert main(["translate", str(cu), "--examine", "--print-stats-csv", "-q", *ROCM]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][:4] == ["file", "CONVERTED refs count", "UNCONVERTED refs count", "CONVERSION %"]
    assert rows[1][:4] == [str(cu), "2", "0", "100.0"] and rows[2][0] == "total"


@pytest.mark.parametrize("flag", sorted(NEEDLESS))
def test_needless_options_are_accepted_with_a_note(cu: Path, capsys, flag: str) -> None:
    given = [flag, "x"] if flag in VALUED else [flag]
    assert main(["translate", str(cu), "--stdout", *given, *ROCM]) == 0
    captured = capsys.readouterr()
    assert captured.out.encode() == HIP
    assert f"cu2hip: note: {flag} is accepted and changes nothing: {NEEDLESS[flag]}\n" in captured.err


@pytest.mark.parametrize("flag", sorted(REJECTED))
def test_rejected_options_name_what_to_use(cu: Path, capsys, flag: str) -> None:
    given = [flag, "x"] if flag in VALUED else [flag]
    assert main(["translate", str(cu), "--stdout", *given, *ROCM]) == 2
    assert capsys.readouterr().err == f"cu2hip: error: {flag} is not supported: {REJECTED[flag]}\n"


def test_no_undocumented_features_turns_off_those_rewrites(tmp_path: Path, capsys) -> None:
    f = tmp_path / "h.cu"
    f.write_bytes(b"#include <cuda_fp16.h>\n__device__ float lo(half2 v) { return __half2float(v.x); }\n")
    assert main(["translate", str(f), "--stdout", "-q", *ROCM]) == 0
    assert b"reinterpret_cast<half&>(v.x)" in capsys.readouterr().out.encode()
    assert main(["translate", str(f), "--stdout", "-q", *ROCM, "--no-undocumented-features"]) == 0
    out = capsys.readouterr().out
    assert "__half2float(v.x)" in out and "hip/hip_fp16.h" in out
