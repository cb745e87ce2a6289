"""Inputs as users expect: .gitignore files respected in trees (--no-ignore to take
everything), include/exclude patterns with gitignore semantics relative to the project,
and a pattern that matches nothing reported (I030)."""

from __future__ import annotations

import os
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
    assert GitIgnore.above(tmp_path / "loose").specs == []


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
