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


def _deep_tree(root: Path, files: int = 40) -> list[Path]:
    deep = root / "p" / "q" / "r"
    deep.mkdir(parents=True)
    (root / "p" / "q" / "r2").mkdir()
    paths = []
    for i in range(files):
        path = (deep if i % 2 else root / "p" / "q" / "r2") / f"f{i}.cu"
        path.write_bytes(b'#include "h.cuh"\n__global__ void k%d(float *x) { x[0] = 1; }\n' % i)
        paths.append(path)
    (deep / "h.cuh").write_bytes(b"#define N 4\n")
    (root / "p" / "q" / "r2" / "h.cuh").write_bytes(b"#define N 8\n")
    return paths


def _count_stats(monkeypatch) -> list:
    calls = []
    real_stat, real_lstat = os.stat, os.lstat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: calls.append(("stat", os.fspath(p))) or real_stat(p, *a, **k))
    monkeypatch.setattr(os, "lstat", lambda p, *a, **k: calls.append(("lstat", os.fspath(p))) or
                        real_lstat(p, *a, **k))
    return calls


def test_the_walk_knows_a_plain_file_from_its_folders_listing(tmp_path: Path, monkeypatch):
    # Workspace.collect: a plain file is neither stat'ed nor lstat'ed (the listing says what it
    # is; its real path is its folder's and its name); a link still is, and is still found.
    from translator.workspace import Selection, Workspace
    files = _deep_tree(tmp_path)
    (tmp_path / "p" / "q" / "r" / "link.cu").symlink_to("f1.cu")
    calls = _count_stats(monkeypatch)
    workspace = Workspace.collect([str(tmp_path / "p")], Selection(tmp_path / "out"))
    looked_at = {path for _, path in calls}
    assert not looked_at & {str(f) for f in files if f.name != "f1.cu"}     # f1.cu: the link's target
    assert str(tmp_path / "p" / "q" / "r" / "link.cu") in looked_at
    assert {job.source.name for job in workspace.jobs} == {f.name for f in files} | {"h.cuh"}
    assert workspace.copies == [(tmp_path / "p" / "q" / "r" / "link.cu", tmp_path / "out" / "q" / "r" / "link.cu")]


def test_the_walk_lists_what_os_walk_lists(tmp_path: Path):
    _links_tree(tmp_path)
    (tmp_path / "a" / ".hidden").mkdir()
    (tmp_path / "a" / "b" / "c").mkdir()
    expected = [(Path(d), sorted(ds), sorted(fs)) for d, ds, fs in os.walk(tmp_path)]
    got = [(here, sorted(e.name for e in ds), sorted(e.name for e in fs)) for here, ds, fs in inputs.walk(tmp_path)]
    assert got == expected
    errors = []
    assert list(inputs.walk(tmp_path / "nowhere", errors.append)) == [] and len(errors) == 1


def test_a_files_local_headers_are_found_once_each_and_as_realpath_finds_them(tmp_path: Path, monkeypatch):
    from translator.ir.macros import included_headers
    files = _deep_tree(tmp_path)
    (tmp_path / "via").symlink_to(tmp_path / "p" / "q")
    headers = {os.path.realpath(p): p.read_bytes() for p in tmp_path.rglob("h.cuh")}
    for f in files:         # through a link to a folder
        through_link = str(tmp_path / "via" / f.relative_to(tmp_path / "p" / "q"))
        with inputs.folders_known():
            assert included_headers(through_link, f.read_bytes(), headers) == \
                [(os.path.realpath(f.parent / "h.cuh"), (f.parent / "h.cuh").read_bytes())]
    expected = [[(os.path.realpath(f.parent / "h.cuh"), (f.parent / "h.cuh").read_bytes())] for f in files]
    texts = [f.read_bytes() for f in files]
    calls = _count_stats(monkeypatch)
    for f, text, want in zip(files, texts, expected):
        with inputs.folders_known():
            assert included_headers(str(f), text, headers) == want
            first = len(calls)
            assert included_headers(str(f), text, headers) == want
            assert len(calls) == first          # the second time (another fact of the file): no look at all
    # Each file: its folders once (a fresh scope a file), itself and its header once; realpath
    # looked at every component of both, at each call.
    assert len(calls) <= len(files) * (len(f.parts) + 1)


def test_the_nearest_configuration_looks_at_each_folder_once(tmp_path: Path, monkeypatch):
    from translator import config, settings
    files = _deep_tree(tmp_path)
    (tmp_path / "p" / "q" / "cu2hip.toml").write_text("rocm-version = \"6.0\"\n")
    looked = []
    real_config_in = config.config_in
    monkeypatch.setattr(settings, "config_in", lambda folder: looked.append(folder) or real_config_in(folder))
    nearest = settings.Nearest(settings_args(), config.Config())
    for f in files:
        nearest(f)
    assert sorted(looked) == sorted({tmp_path / "p" / "q" / "r", tmp_path / "p" / "q" / "r2", tmp_path / "p" / "q"})
    assert nearest.files() == [tmp_path / "p" / "q" / "cu2hip.toml"]
    assert config.find_config([files[0]]) == tmp_path / "p" / "q" / "cu2hip.toml"


def settings_args():
    import argparse
    return argparse.Namespace(rocm_version=None, rules=None)
