"""Real paths found once a walk, folder by folder (translator.inputs.folders_known): the same
answers as os.path.realpath, one lstat a path (issue 23: the parent's system calls)."""

from __future__ import annotations

import os
from pathlib import Path

from translator import inputs


def _links_tree(root: Path) -> list[Path]:
    """Folders, links to folders and files, a loop, a dangling link, `..` through a link."""
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.cu").write_bytes(b"x")
    (root / "to_a").symlink_to("a")
    (root / "a" / "b" / "g.cu").symlink_to("f.cu")
    (root / "a" / "up").symlink_to("..")
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    (root / "dangling").symlink_to("nowhere/x")
    paths = [root / "a" / "b" / "f.cu", root / "to_a" / "b" / "f.cu", root / "to_a" / "b" / "g.cu",
             root / "a" / "up" / "a" / "b" / "g.cu", root / "to_a" / ".." / "a" / "b" / "f.cu",
             root / "to_a" / "b" / ".." / "b" / "f.cu", root / "loop1" / "x.cu", root / "dangling",
             root / "a" / "missing.cu", root / "a" / "b" / "f.cu" / "below_a_file", root / "to_a" / "b",
             root / "to_a" / "b" / ".", root / "to_a" / "b" / ".."]
    return paths + [Path(os.path.relpath(p)) for p in paths]


def test_a_walks_real_paths_are_realpaths_answers(tmp_path: Path):
    paths = _links_tree(tmp_path)
    expected = [Path(os.path.realpath(p)) for p in paths]
    with inputs.folders_known():
        assert [inputs.real_path(p) for p in paths] == expected
        assert [inputs.real_path(p) for p in paths] == expected     # the folders known now
    assert inputs._FOLDERS is None


def test_a_walks_real_paths_look_at_each_folder_once(tmp_path: Path, monkeypatch):
    deep = tmp_path / "d1" / "d2" / "d3" / "d4"
    deep.mkdir(parents=True)
    files = [deep / f"f{i}.cu" for i in range(50)]
    for f in files:
        f.write_bytes(b"x")
    calls = []
    real_lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda p, *a, **k: calls.append(p) or real_lstat(p, *a, **k))
    plain = [inputs.real_path(f) for f in files]
    plain_calls = len(calls)
    calls.clear()
    with inputs.folders_known():
        known = [inputs.real_path(f) for f in files]
    assert known == plain
    # realpath: every component of every path; here one lstat a file, and the folder once.
    assert plain_calls >= 50 * len(files[0].parts) - 50
    assert len(calls) <= 50 + len(files[0].parts)


def test_a_link_retargeted_between_two_phases_is_seen(tmp_path: Path):
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    (tmp_path / "l").symlink_to("x")
    with inputs.folders_known():
        assert inputs.real_path(tmp_path / "l" / "f") == Path(os.path.realpath(tmp_path / "x" / "f"))
    (tmp_path / "l").unlink()
    (tmp_path / "l").symlink_to("y")
    with inputs.folders_known():
        assert inputs.real_path(tmp_path / "l" / "f") == Path(os.path.realpath(tmp_path / "y" / "f"))
