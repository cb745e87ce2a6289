"""File names are escaped in every output format (issue 24, item 4): a name is the
user's data, and one holding a line break must not write a line of its own (on stderr
or stdout, `\\n::error ...` is a GitHub workflow command) nor, in Markdown, a blank line
that ends its code span (a heading and a raw `<img>` in a pull-request comment)."""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

import pytest

from translator.cli import main
from translator.output.positions import one_line, path_text

NAME = "a\n::error file=x.cu,line=1::injected\n\n# Heading\n<img src=x onerror=alert(1)>.cu"
SHOWN = "a\\x0a::error file=x.cu,line=1::injected\\x0a\\x0a# Heading\\x0a<img src=x onerror=alert(1)>.cu"
SOURCE = ("__global__ void k(float *p) { p[threadIdx.x] = 1; }\n"
          "void f(float *p) { k<<<1, 64>>>(p); cudaFree(p); cudaArrayGetPlane(0, 0, 0); }\n")
ROCM = ["--rocm-version", "6.0", "--no-cache"]


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\n')
    (tmp_path / NAME).write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _one_line_each(text: str) -> None:
    """No line the name could have started: a workflow command, a heading, raw HTML."""
    for line in text.splitlines():
        assert not line.startswith(("::", "# Heading", "<img")), line


def test_path_text_writes_every_control_character_as_an_escape() -> None:
    assert path_text(NAME) == SHOWN
    assert path_text("t\tab\x1b[31m\x85\u2028\x7f.cu") == "t\\x09ab\\x1b[31m\\u0085\\u2028\\x7f.cu"
    assert path_text("plain/é.cu") == "plain/é.cu"
    assert one_line("a\n::error\tx") == "a\\x0a::error\tx"      # a message keeps its tabs


def test_diagnostics_and_hook_lines_are_one_line_each(project: Path, capsys) -> None:
    assert main(["check", ".", *ROCM]) == 1
    err = capsys.readouterr().err
    _one_line_each(err)
    assert f"{SHOWN}:2:50: error: 'cudaArrayGetPlane' has no HIP equivalent [H010]\n" in err
    assert f"{project / 'hip' / SHOWN}: missing: the translation of {SHOWN} differs\n" in err
    assert f"run: cu2hip translate $'{SHOWN.replace(chr(92) + 'x', chr(92) + 'x')}'\n" in err
    assert main(["translate", "--pre-commit", NAME, *ROCM]) == 1
    out, err = capsys.readouterr()
    _one_line_each(out + err)
    assert out == f"Rewriting hip/{SHOWN}\n"
    assert (project / "hip" / NAME).read_text().startswith("#include <hip/hip_runtime.h>\n")


def test_statistics_show_the_name_escaped(project: Path, capsys) -> None:
    main(["translate", ".", "--examine", *ROCM])
    out = capsys.readouterr().out
    _one_line_each(out)
    assert f"[cu2hip] statistics: {SHOWN}\n" in out
    main(["translate", ".", "--examine", "--print-stats-csv", *ROCM])
    out = capsys.readouterr().out
    _one_line_each(out)
    assert out.splitlines()[1].startswith(f'"{SHOWN}",2,')      # quoted: the name holds a comma


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_diff_shows_the_name_on_one_line(project: Path, capsys, fmt: str) -> None:
    main(["diff", ".", "--format", fmt, *ROCM])
    out, err = capsys.readouterr()
    _one_line_each(out)
    _one_line_each(err)
    assert '"a/a\\n::error file=x.cu,line=1::injected\\n\\n# Heading\\n<img src=x onerror=alert(1)>.cu"' in out
    if fmt == "markdown":
        assert f"| `{SHOWN}` | 3 | 1 | 1 | 0 | 1 |\n" in out
        assert f"<summary><code>{SHOWN.replace('<', '&lt;').replace('>', '&gt;')}</code>" in out
        assert f"### Errors (1)\n\n- `{SHOWN}:2:50` [H010]: 'cudaArrayGetPlane' has no HIP equivalent\n" in out
        # A message that quotes the name is escaped too (L001 says where the launch is).
        assert f"({SHOWN.replace('<', '&lt;').replace('>', '&gt;')}:2:20)" in out


def test_github_annotations_are_one_command_a_line(project: Path, capsys) -> None:
    main(["diff", ".", "--format", "github", *ROCM])
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(re.match(r"::(error|warning|notice) file=[^:\n]*::", line) for line in lines), lines
    assert "file=a\\x0a%3A%3Aerror file=x.cu%2Cline=1%3A%3Ainjected" in lines[0]


def test_json_and_sarif_keep_the_name_exactly(project: Path, capsys) -> None:
    main(["diff", ".", "--format", "json", *ROCM])
    assert [f["path"] for f in json.loads(capsys.readouterr().out)["files"]] == [NAME]
    main(["diff", ".", "--format", "sarif", *ROCM])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r["locations"]}
    assert uris == {urllib.parse.quote(NAME)}


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_report_shows_the_name_escaped(project: Path, capsys, fmt: str) -> None:
    main(["report", ".", "--no-compile", "--format", fmt, *ROCM])
    out, err = capsys.readouterr()
    _one_line_each(out)
    _one_line_each(err)
    if fmt == "text":
        assert f"  {SHOWN}:1: k: launched with 64;" in out
    elif fmt == "markdown":
        assert f"| `{SHOWN}:1` | k | 64 |" in out
    else:
        assert "<img" not in out and f"{SHOWN.replace('<', '&lt;').replace('>', '&gt;')}:1</td>" in out
