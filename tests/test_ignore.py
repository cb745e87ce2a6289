"""Inputs as users expect: .gitignore files respected in trees (--no-ignore to take
everything), include/exclude patterns with gitignore semantics relative to the project,
and a pattern that matches nothing reported (I030)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from translator.cli import main
from translator.ignore import GitIgnore, Patterns

ROCM = ["--rocm-version", "6.2"]
CUDA = b"void f() { cudaFree(0); }\n"


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def written(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def test_gitignored_files_are_neither_translated_nor_copied(tmp_path: Path, capsys) -> None:
    src = tree(tmp_path / "src", {".gitignore": b"build/\n*.o\ngen_*.cu\n!gen_keep.cu\n",
                                  "a.cu": CUDA, "gen_x.cu": CUDA, "gen_keep.cu": CUDA, "a.o": b"\0",
                                  "build/b.cu": CUDA, "sub/.gitignore": b"local.cu\n", "sub/local.cu": CUDA,
                                  "sub/c.cu": CUDA})
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", "--no-cache", *ROCM]) == 0
    assert written(out) == [".gitignore", "a.cu", "gen_keep.cu", "sub/.gitignore", "sub/c.cu"]
    out2 = tmp_path / "out2"
    assert main(["translate", str(src), "-o", str(out2), "-q", "--no-cache", "--no-ignore", *ROCM]) == 0
    assert written(out2) == [".gitignore", "a.cu", "a.o", "build/b.cu", "gen_keep.cu", "gen_x.cu",
                             "sub/.gitignore", "sub/c.cu", "sub/local.cu"]
    assert b"hipFree" in (out2 / "build" / "b.cu").read_bytes()


def test_gitignore_above_the_tree_applies_up_to_the_repository_root(tmp_path: Path) -> None:
    repo = tree(tmp_path / "repo", {".gitignore": b"vendor/\n", ".git/info/exclude": b"*.tmp.cu\n",
                                    "proj/vendor/v.cu": CUDA, "proj/k.cu": CUDA, "proj/x.tmp.cu": CUDA})
    ignore = GitIgnore.above(repo / "proj")
    assert ignore.ignored(repo / "proj" / "vendor", folder=True)
    assert ignore.ignored(repo / "proj" / "x.tmp.cu")
    assert not ignore.ignored(repo / "proj" / "k.cu")
    out = tmp_path / "out"
    assert main(["translate", str(repo / "proj"), "-o", str(out), "-q", "--no-cache", *ROCM]) == 0
    assert written(out) == ["k.cu"]
    # Outside a repository, the folders above the tree are not read.
    (tmp_path / "loose").mkdir()
    assert GitIgnore.above(tmp_path / "loose").files == []


def test_a_file_named_on_the_command_line_is_taken_even_if_ignored(tmp_path: Path, capsys) -> None:
    src = tree(tmp_path, {".gitignore": b"*.cu\n", "a.cu": CUDA})
    assert main(["translate", str(src / "a.cu"), "--stdout", "-q", *ROCM]) == 0
    assert "hipFree" in capsys.readouterr().out


def test_patterns_are_relative_to_the_current_folder_with_gitignore_semantics(tmp_path: Path, monkeypatch) -> None:
    proj = tree(tmp_path / "proj", {"src/gen/a.cu": CUDA, "gen/b.cu": CUDA, "src/c.cu": CUDA})
    monkeypatch.chdir(tmp_path)
    p = Patterns((), ("proj/gen/",), (None, tmp_path))
    assert not p.chosen(proj / "gen" / "b.cu", "gen/b.cu")
    assert p.chosen(proj / "src" / "gen" / "a.cu", "src/gen/a.cu")     # anchored at the project, not any depth
    q = Patterns((), ("gen/",), (None, tmp_path))
    assert not q.chosen(proj / "src" / "gen" / "a.cu", "src/gen/a.cu")     # no inner slash: any depth
    assert not q.chosen(proj / "gen" / "b.cu", "gen/b.cu")
    assert q.chosen(proj / "src" / "c.cu", "src/c.cu") and q.unmatched() == []


def test_configured_patterns_are_relative_to_the_configuration(tmp_path: Path, monkeypatch) -> None:
    proj = tree(tmp_path / "proj", {"cu2hip.toml": b'exclude = ["third_party/x/"]\n', "third_party/x/k.cu": CUDA,
                                    "src/third_party/x/k.cu": CUDA, "src/a.cu": CUDA})
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    assert main(["translate", str(proj), "-o", str(out), "-q", "--no-cache", "--only-translated", *ROCM]) == 0
    assert written(out) == ["src/a.cu", "src/third_party/x/k.cu"]


def test_a_pattern_that_matches_nothing_is_reported(tmp_path: Path, capsys, monkeypatch) -> None:
    src = tree(tmp_path / "src", {"third_party/b.cu": CUDA, "a.cu": CUDA})
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    # Relative to the wrong folder: the path from the tree, not from the current folder.
    assert main(["translate", "src", "-o", str(out), "-q", "--no-cache", "--exclude", "/third_party/",
                 "--exclude", "src/third_party/", *ROCM]) == 0
    err = capsys.readouterr().err
    assert err == (f"src:1:1: warning: exclude pattern '/third_party/' matched no file under src "
                   f"(patterns are relative to {tmp_path}) [I030]\n")
    assert b"cudaFree" in (out / "third_party" / "b.cu").read_bytes()       # excluded: copied as it is
    assert b"hipFree" in (out / "a.cu").read_bytes()
    # Files named one by one (a pre-commit run) walk no tree: nothing to report.
    assert main(["check", "src/a.cu", "--exclude", "nothing/", *ROCM]) == 0
    assert "I030" not in capsys.readouterr().err


def test_a_named_folder_that_a_gitignore_above_ignores_is_reported_at_the_pattern(tmp_path: Path, capsys) -> None:
    # It gave "0 files" and exit 0 without a word: now the warning names the ignore file,
    # the line and the pattern, and says what takes the files.
    repo = tree(tmp_path / "repo", {".git/HEAD": b"", ".gitignore": b"*.o\n\n# generated\nbuild/\n",
                                    "build/gen/a.cu": CUDA, "src/b.cu": CUDA})
    gitignore = repo / ".gitignore"
    assert main(["translate", str(repo / "build"), "--examine", "-q", "--no-cache", *ROCM]) == 0
    assert capsys.readouterr().err == (
        f"{gitignore}:4:1: warning: {repo / 'build'}, named on the command line, is ignored by the pattern "
        "'build/': none of its files are taken; --no-ignore takes them [I032]\n")
    assert main(["translate", str(repo / "build" / "gen"), "--examine", "-q", "--no-cache", *ROCM]) == 0
    assert capsys.readouterr().err == (
        f"{gitignore}:4:1: warning: {repo / 'build'}, the folder of {repo / 'build' / 'gen'} named on the command "
        "line, is ignored by the pattern 'build/': none of its files are taken; --no-ignore takes them [I032]\n")
    out = tmp_path / "out"
    assert main(["translate", str(repo / "build"), "-o", str(out), "-q", "--no-cache", "--no-ignore", *ROCM]) == 0
    assert written(out) == ["gen/a.cu"] and capsys.readouterr().err == ""
    # A folder that is not ignored, and a re-included one, get no warning.
    (repo / ".gitignore").write_bytes(b"build/*\n!build/gen/\n")
    assert main(["translate", str(repo / "src"), str(repo / "build" / "gen"), "-o", str(tmp_path / "o2"), "-q",
                 "--no-cache", *ROCM]) == 0
    assert capsys.readouterr().err == "" and written(tmp_path / "o2") == ["build/gen/a.cu", "src/b.cu"]


def test_a_gitignore_that_is_a_symbolic_link_is_not_followed(tmp_path: Path, capsys) -> None:
    # git follows no link named .gitignore in the working tree: its patterns do not apply.
    (tmp_path / "elsewhere").write_bytes(b"*.cu\n")
    src = tree(tmp_path / "src", {"a.cu": CUDA, "sub/b.cu": CUDA})
    (src / "sub" / ".gitignore").symlink_to(tmp_path / "elsewhere")
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", "--no-cache", "--only-translated", *ROCM]) == 0
    assert written(out) == ["a.cu", "sub/b.cu"]
    assert capsys.readouterr().err == (
        f"{src / 'sub' / '.gitignore'}:1:1: warning: a symbolic link: not read (git follows no link named "
        ".gitignore); the files it would ignore are taken [I031]\n")


def test_a_gitignore_over_the_size_limit_is_not_read(tmp_path: Path, capsys, monkeypatch) -> None:
    # It was read whole (a huge one: MemoryError); now at most the limit and a byte are read.
    from translator import ignore as ignore_module
    src = tree(tmp_path / "src", {"a.cu": CUDA, "b.cu": CUDA})
    big = b"a.cu\n" + b"# filler\n" * (ignore_module.MAX_IGNORE_BYTES // 9 + 1)
    (src / ".gitignore").write_bytes(big)
    sizes = []
    real = ignore_module.read_limited
    monkeypatch.setattr(ignore_module, "read_limited", lambda path, limit: sizes.append(limit) or real(path, limit))
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", "--no-cache", "--only-translated", *ROCM]) == 0
    assert written(out) == ["a.cu", "b.cu"] and sizes == [ignore_module.MAX_IGNORE_BYTES]
    assert capsys.readouterr().err == (
        f"{src / '.gitignore'}:1:1: warning: larger than the {ignore_module.MAX_IGNORE_BYTES}-byte limit for an "
        "ignore file: not read; the files it would ignore are taken [I031]\n")
    (src / ".gitignore").write_bytes(big[:ignore_module.MAX_IGNORE_BYTES])    # at the limit: read
    assert main(["translate", str(src), "-o", str(tmp_path / "o2"), "-q", "--no-cache", "--only-translated",
                 *ROCM]) == 0
    assert written(tmp_path / "o2") == ["b.cu"] and capsys.readouterr().err == ""


def test_a_pattern_of_many_wildcards_matches_in_linear_time(tmp_path: Path) -> None:
    # Python's backtracking re took time exponential in the stars (a hang at 12 stars and a
    # 60-character name); RE2 takes time linear in the name.
    stars = "a*" * 12
    src = tree(tmp_path / "src", {".gitignore": f"{stars}b.cu\n".encode(), "a" * 60 + ".cu": CUDA,
                                  "a" * 60 + "b.cu": CUDA})
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "translator", "translate", str(src), "-o", str(out), "-q",
                           "--no-cache", "--only-translated", *ROCM], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert written(out) == ["a" * 60 + ".cu"]
    ignore = GitIgnore()
    ignore.enter(src)
    started = time.monotonic()
    assert not ignore.ignored(src / ("a" * 5000 + ".cu")) and ignore.ignored(src / ("a" * 5000 + "b.cu"))
    assert time.monotonic() - started < 1.0
