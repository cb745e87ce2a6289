"""The translation cache and the run record: data only, validated on load, never stale
(issue 16, items 1 and 2)."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pytest

from translator import runcache
from translator.cli import main

ROCM = ["--rocm-version", "6.0"]
SOURCE = b"void a() { cudaFree(0); }\n"
HIP = b"#include <hip/hip_runtime.h>\nvoid a() { hipFree(0); }\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(folder))
    return folder


def entries(cache: Path) -> list[Path]:
    return [p for p in cache.rglob("*") if p.is_file() and p.name != "lock"]


def catalog_snapshot(path: Path) -> bool:
    """Is this entry the rule catalog's snapshot (translator.cache.whole_catalog)?"""
    return b"explanation" in path.read_bytes()


class _Marker:
    """A pickle that, once loaded, creates a file: what an entry planted in a shared cache did."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


def translate(tree: Path, out: Path, *more: str) -> int:
    return main(["translate", str(tree), "-o", str(out), "-q", *ROCM, *more])


def test_a_pickle_planted_in_the_cache_runs_no_code_and_is_a_miss(tmp_path: Path, cache: Path, capsys) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SOURCE)
    assert translate(tree, tmp_path / "o1") == 0
    marker = tmp_path / "ran"
    planted = entries(cache)
    assert planted
    for path in planted:        # the translation's entry and the run's record
        path.write_bytes(pickle.dumps(_Marker(marker)))
    assert translate(tree, tmp_path / "o1") == 0
    assert translate(tree, tmp_path / "o2") == 0
    assert not marker.exists()
    assert (tmp_path / "o2" / "a.cu").read_bytes() == HIP
    assert all(json.loads(p.read_bytes())["format"] == 1 for p in entries(cache))


def test_a_foreign_or_tampered_cache_entry_is_a_miss(tmp_path: Path, cache: Path, capsys) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SOURCE)
    (tree / "b.cu").write_bytes(b"void b() { cudaMalloc(0, 4); }\n")
    assert main(["diff", str(tree), "-q", *ROCM]) == 0
    first = capsys.readouterr().out
    a_entry, b_entry = sorted((p for p in entries(cache)), key=lambda p: p.stat().st_size)[:2]
    good = {p: p.read_bytes() for p in (a_entry, b_entry)}
    # Another key's entry under this key, a valid entry of another format, an entry whose
    # payload no longer matches its digest, wrong types, JSON nested too deep.
    entry = json.loads(good[a_entry])
    payload = json.loads(entry["payload"])
    payload["applied"] = [["H001", "r", "safe", [[0, 10 ** 9, "x"]]]]
    retyped = dict(entry, payload=json.dumps(dict(payload, applied="x")))
    plants = [good[b_entry], json.dumps(dict(entry, format=0)).encode(),
              json.dumps(dict(entry, payload=json.dumps(payload))).encode(), json.dumps(retyped).encode(),
              b"[" * 100000 + b"]" * 100000, b"\x80\x04K\x01.", b"{", b""]
    for plant in plants:
        a_entry.write_bytes(plant)
        assert main(["diff", str(tree), "-q", *ROCM]) == 0, plant[:40]
        assert capsys.readouterr().out == first, plant[:40]


def test_an_edit_of_a_linked_file_is_translated_again(tmp_path: Path, cache: Path, capsys) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "t").mkdir()
    (tmp_path / "real" / "a.cu").write_bytes(SOURCE)
    (tmp_path / "t" / "a.cu").symlink_to("../real/a.cu")
    assert translate(tmp_path / "t", tmp_path / "o") == 0
    (tmp_path / "real" / "a.cu").write_bytes(b"void a() { cudaMalloc(0, 4); }\n")
    assert translate(tmp_path / "t", tmp_path / "o") == 0
    assert b"hipMalloc" in (tmp_path / "o" / "a.cu").read_bytes()


def test_an_edit_that_keeps_size_and_time_stamp_is_translated_again(tmp_path: Path, cache: Path, capsys) -> None:
    (tmp_path / "t").mkdir()
    source = tmp_path / "t" / "a.cu"
    source.write_bytes(b"void a() { cudaFree(0); }\n")
    assert translate(tmp_path / "t", tmp_path / "o") == 0
    stamp = source.stat()
    time.sleep(0.01)
    source.write_bytes(b"void a() { cudaFree(1); }\n")           # the same size
    os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # touch -r
    assert translate(tmp_path / "t", tmp_path / "o") == 0
    assert b"hipFree(1)" in (tmp_path / "o" / "a.cu").read_bytes()


def test_check_that_finds_a_stale_translation_drops_the_records_of_its_folder(tmp_path: Path, cache: Path,
                                                                             capsys) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.cu").write_bytes(SOURCE)
    out = tmp_path / "o"
    assert translate(tmp_path / "t", out) == 0
    group = [p for p in entries(cache) if p.name.startswith("run-")]
    assert len(group) == 1
    (out / "a.cu").write_bytes(HIP.replace(b"hipFree", b"hipFrex"))
    assert main(["check", str(tmp_path / "t"), "-o", str(out), "-q", *ROCM]) == 1
    assert "stale" in capsys.readouterr().err
    assert not group[0].exists()
    assert translate(tmp_path / "t", out) == 0
    assert (out / "a.cu").read_bytes() == HIP


def test_a_run_waits_for_another_run_into_the_same_folder(tmp_path: Path, cache: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.cu").write_bytes(SOURCE)
    out = tmp_path / "o"
    with runcache.lock(cache, out):
        proc = subprocess.Popen([sys.executable, "-m", "translator", "translate", str(tmp_path / "t"), "-o", str(out),
                                 "-q", *ROCM], env=dict(os.environ, CU2HIP_CACHE_DIR=str(cache)))
        time.sleep(3)
        assert proc.poll() is None and not out.exists()      # it waits: nothing written
    assert proc.wait(timeout=60) == 0
    assert (out / "a.cu").read_bytes() == HIP


def test_runs_with_different_options_into_one_folder_at_once_leave_no_mixed_record(tmp_path: Path,
                                                                                  cache: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    for i in range(12):
        (tree / f"k{i}.cu").write_bytes(b"__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
                                        b"void f(float* x) { k<<<1, 128>>>(x); cudaFree(x); }\n")
    out = tmp_path / "o"
    env = dict(os.environ, CU2HIP_CACHE_DIR=str(cache))
    base = [sys.executable, "-m", "translator", "translate", str(tree), "-o", str(out), "-q", *ROCM]
    runs = [subprocess.Popen(base + more, env=env, stderr=subprocess.DEVNULL) for more in ([], ["--target", "cuda"])]
    assert [p.wait(timeout=120) for p in runs] == [0, 0]
    subprocess.run(base, env=env, check=True, stderr=subprocess.DEVNULL)
    fresh = tmp_path / "fresh"
    subprocess.run(base[:-4] + [str(tree), "-o", str(fresh), "-q", "--no-cache", *ROCM], env=env, check=True,
                   stderr=subprocess.DEVNULL)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == {p.name: p.read_bytes() for p in fresh.iterdir()}


def test_a_run_whose_inputs_change_meanwhile_records_nothing(tmp_path: Path, cache: Path, monkeypatch,
                                                             capsys) -> None:
    from translator.commands import run as command     # the Batch that translate's runs make
    (tmp_path / "t").mkdir()
    source = tmp_path / "t" / "a.cu"
    source.write_bytes(SOURCE)
    real = command.Batch

    class Editing(real):
        def written(self):
            for triple in super().written():
                source.write_bytes(b"void a() { cudaMalloc(0, 4); }\n")    # edited while the run reads
                yield triple
    monkeypatch.setattr(command, "Batch", Editing)
    assert translate(tmp_path / "t", tmp_path / "o") == 0
    assert not [p for p in entries(cache) if p.name.startswith("run-")]
    monkeypatch.setattr(command, "Batch", real)
    assert translate(tmp_path / "t", tmp_path / "o") == 0
    assert b"hipMalloc" in (tmp_path / "o" / "a.cu").read_bytes()


@pytest.mark.parametrize("name", ["kernels/atomics.cu", "kernels/rebalance_launches.cu", "fusion"])
def test_a_cached_result_is_the_fresh_result_field_for_field(name: str) -> None:
    import json as json_
    from translator.cache_format import result_from_json, result_to_json
    from translator.passes import Options
    from translator.pipeline import translate as translate_text
    root = Path(__file__).resolve().parent.parent / "corpus"
    paths = sorted((root / name).rglob("*.cu")) if (root / name).is_dir() else [root / name]
    for path in paths[:3]:
        data = path.read_bytes() + b"\xff\n"          # a byte that is not UTF-8 survives too
        fresh = translate_text(str(path), data, Options(rocm_version=(6, 0)))
        back = result_from_json(json_.loads(json_.dumps(result_to_json(fresh))), data)
        for field in ("path", "input", "output", "applied", "rejected", "diagnostics", "skipped", "rounds"):
            assert getattr(back, field) == getattr(fresh, field), (path, field)
        assert back.uses == fresh.uses
        for d_back, d_fresh in zip(back.diagnostics, fresh.diagnostics):
            assert (d_back.fix, d_back.subject) == (d_fresh.fix, d_fresh.subject)
            if any(d_fresh.fix is f for f in fresh.applied + fresh.rejected):
                assert any(d_back.fix is f for f in back.applied + back.rejected)


def test_a_launch_facts_entry_of_the_wrong_shape_is_a_miss(tmp_path: Path):
    """The project index's cached launch facts are data checked on load: an entry of
    another shape (tampered, or another version's) is recomputed, never trusted."""
    from translator.cache import Cache
    from translator.universe import _valid_facts
    store = Cache(tmp_path)
    store.put_data("k" * 64, [["scale", "a.cu:3:5", [256], None, "TPB"]])
    assert store.get_data("k" * 64, _valid_facts) == [["scale", "a.cu:3:5", [256], None, "TPB"]]
    for bad in ([["scale", "a.cu:3:5", ["256"], None, ""]], [["scale"]], {"scale": 1}, [[1, 2, [3], 4, ""]],
                [["scale", "a.cu:3:5", [256], None]]):     # an earlier version's entry, without the symbol
        store.put_data("k" * 64, bad)
        assert store.get_data("k" * 64, _valid_facts) is None


def test_an_entry_whose_output_disagrees_with_its_fixes_is_a_miss(tmp_path: Path, cache: Path, capsys) -> None:
    import hashlib
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SOURCE)
    assert main(["diff", str(tree), "-q", *ROCM]) == 0
    first = capsys.readouterr().out
    [entry] = [p for p in entries(cache) if not p.name.startswith("run-") and not catalog_snapshot(p)]
    doc = json.loads(entry.read_bytes())
    for key, value in (("output", None), ("output", "int x;\n"), ("applied", [])):
        payload = json.loads(doc["payload"])
        payload[key] = value
        text = json.dumps(payload, separators=(",", ":"))
        entry.write_text(json.dumps(dict(doc, payload=text, digest=hashlib.sha256(text.encode()).hexdigest())))
        assert main(["diff", str(tree), "-q", *ROCM]) == 0
        assert capsys.readouterr().out == first, key


KERNEL = (b"__global__ void k(float *p) { __shared__ float s[4]; s[threadIdx.x % 4] = p[threadIdx.x]; "
          b"__syncthreads(); p[threadIdx.x] = s[0]; }\n")


def bounded(block: int) -> bytes:
    return KERNEL.replace(b"void k(", b"void __launch_bounds__(%d) k(" % block)


class _NotReplayed(Exception):
    pass


def replayed(run) -> bool:
    """Whether `run()` was answered from the run's record (no batch translated)."""
    from translator.commands import run as command     # the Batch that translate's runs make
    real = command.Batch

    class Refused(real):
        def __init__(self, *args, **kwargs):
            raise _NotReplayed
    command.Batch = Refused
    try:
        run()
    except _NotReplayed:
        return False
    finally:
        command.Batch = real
    return True


@pytest.mark.parametrize("edit", ["changed", "created"])
def test_a_header_outside_the_tree_changed_or_created_is_translated_again(tmp_path: Path, cache: Path,
                                                                           edit: str) -> None:
    """src/a.cu includes ../common/cfg.h, outside the tree given, edited or created after
    the first run: a replay of the record kept the old block size (issue 24)."""
    src, common, out = tmp_path / "src", tmp_path / "common", tmp_path / "out"
    src.mkdir()
    common.mkdir()
    header = common / "cfg.h"
    if edit == "changed":
        header.write_bytes(b"#define BLOCK 128\n")
    (src / "a.cu").write_bytes(b'#include "../common/cfg.h"\n' + KERNEL +
                               b"int main() { float *p; k<<<1, BLOCK>>>(p); return 0; }\n")
    assert translate(src, out) == 0
    # A header not there yet (generated by the build, say): the block is not known.
    assert (bounded(128) if edit == "changed" else KERNEL) in (out / "a.cu").read_bytes()
    assert replayed(lambda: translate(src, out))
    header.write_bytes(b"#define BLOCK 1024\n")
    assert translate(src, out) == 0
    assert translate(tmp_path / "src", tmp_path / "fresh", "--no-cache") == 0
    assert (out / "a.cu").read_bytes() == (tmp_path / "fresh" / "a.cu").read_bytes()
    assert bounded(1024) in (out / "a.cu").read_bytes()
    assert replayed(lambda: translate(src, out))


def test_a_launch_outside_the_paths_given_widens_the_replayed_bound(tmp_path: Path, cache: Path, monkeypatch) -> None:
    """The project (the configuration's folder) has tools/b.cu, which launches src/kern.cuh's
    kernel; `translate src` bounds it by every launch of the project: the record must
    see b.cu's edit, and a file added to the project or removed (issue 24)."""
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "tools").mkdir()
    (project / "pyproject.toml").write_bytes(b'[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n')
    (project / "src" / "kern.cuh").write_bytes(b"#pragma once\n" + KERNEL)
    (project / "src" / "a.cu").write_bytes(b'#include "kern.cuh"\nvoid a(float *p) { k<<<1, 256>>>(p); }\n')
    launcher = b'#include "../src/kern.cuh"\nint main() { float *p; k<<<1, %d>>>(p); return 0; }\n'
    (project / "tools" / "b.cu").write_bytes(launcher % 256)
    monkeypatch.chdir(project)
    header = project / "hip" / "src" / "kern.cuh"

    def run() -> int:
        return main(["translate", "src", "-q"])

    def fresh() -> bytes:
        folder = tmp_path / f"fresh{len(list(tmp_path.iterdir()))}"
        assert main(["translate", "src", "-o", str(folder), "-q", "--no-cache"]) == 0
        return (folder / "kern.cuh").read_bytes()
    assert run() == 0
    assert header.read_bytes() == b"#pragma once\n#include <hip/hip_runtime.h>\n\n" + bounded(256)
    assert replayed(run)
    (project / "tools" / "b.cu").write_bytes(launcher % 1024)
    assert run() == 0
    assert header.read_bytes() == fresh() == b"#pragma once\n#include <hip/hip_runtime.h>\n\n" + bounded(1024)
    assert replayed(run)
    (project / "tools" / "b.cu").unlink()
    (project / "tools" / "c.cu").write_bytes(b'#include "../src/kern.cuh"\nvoid c(float *p) { k<<<1, 512>>>(p); }\n')
    assert run() == 0
    assert header.read_bytes() == fresh() == b"#pragma once\n#include <hip/hip_runtime.h>\n\n" + bounded(512)


def _imports(stderr: str) -> list[str]:
    """The modules `python -X importtime` says were imported."""
    return [line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")]


def test_a_file_answered_from_the_cache_imports_no_pass_and_no_analysis(tmp_path: Path, cache: Path) -> None:
    # One file, cached: the command line's pass options, the settings and the hit's check
    # of its rule ids need no pass's code (issue 23: 100 ms of a 0.37 s run).
    source = tmp_path / "k.cu"
    source.write_bytes(b"__global__ void k(float* x) { x[0] = 1; }\n"
                       b"void f(float* x) { k<<<1, 64>>>(x); cudaDeviceSynchronize(); }\n")
    command = [sys.executable, "-X", "importtime", "-m", "translator", "translate", str(source), "--stdout", *ROCM]
    env = dict(os.environ, CU2HIP_CACHE_DIR=str(cache))
    first = subprocess.run(command, capture_output=True, env=env)
    second = subprocess.run(command, capture_output=True, env=env)
    assert first.returncode == second.returncode == 0
    assert second.stdout == first.stdout and b"hipLaunchKernelGGL" not in first.stdout
    assert b"1 cached" in second.stderr.splitlines()[-1]
    assert [m for m in _imports(first.stderr.decode()) if m.startswith("translator.passes.")]
    loaded = _imports(second.stderr.decode())
    # Not the pass framework itself (the options are translator.options'), the IR (ApiUse
    # is translator.result's), the front end and its parser (the workspace reads the
    # tree's macros as text: translator.macrotext), the build files' parsers, the user
    # rules' parser, the pipeline, or what only a translation or a pool uses.
    # Nor the mapping tables (the versions are translator.versions'), the compile runner
    # (finding hipcc is translator.compilers'), nor, writing to stdout, the run record.
    heavy = ("translator.passes", "translator.facts", "translator.ir", "translator.frontend", "translator.scan",
             "translator.pipeline", "translator.buildfiles", "translator.rules", "translator.render",
             "translator.mapping", "translator.toolchain", "translator.runcache", "translator.output.jsonfmt",
             "tree_sitter", "tree_sitter_cuda", "jinja2", "lark", "subprocess", "difflib", "csv", "tempfile")
    assert [m for m in loaded if m.split(".")[0] in heavy or any(m == h or m.startswith(h + ".") for h in heavy)] \
        == []


def test_a_tampered_catalog_snapshot_is_not_read_and_the_cached_run_is_the_same(tmp_path: Path, cache: Path) -> None:
    from translator import catalog
    snapshot = catalog.snapshot()
    assert catalog.restore(json.loads(json.dumps(snapshot)))
    one = snapshot[0]
    for bad in ([dict(one, severity=1)], [dict(one, id="X1")], [dict(one, options="ab")], [{**one, "extra": 1}],
                [dict(one, summary=one["summary"] + " (changed)")], ["H001"], [dict(one, topic=["x"])]):
        assert not catalog.restore(bad), bad
    source = tmp_path / "a.cu"
    source.write_bytes(SOURCE)
    command = [sys.executable, "-m", "translator", "translate", str(source), "--stdout", *ROCM]
    env = dict(os.environ, CU2HIP_CACHE_DIR=str(cache))
    first = subprocess.run(command, capture_output=True, env=env)
    (snapshot_entry,) = [p for p in entries(cache) if catalog_snapshot(p)]
    entry = json.loads(snapshot_entry.read_bytes())
    payload = json.loads(entry["payload"])
    payload[0]["severity"] = "fatal"
    text = json.dumps(payload, separators=(",", ":"))
    import hashlib
    entry.update(payload=text, digest=hashlib.sha256(text.encode()).hexdigest())
    snapshot_entry.write_text(json.dumps(entry))
    second = subprocess.run(command, capture_output=True, env=env)
    assert (second.returncode, second.stdout) == (first.returncode, first.stdout) and first.stdout == HIP
    assert second.stderr.replace(b", 1 cached", b"") == first.stderr
    assert b"1 cached" in second.stderr
    assert json.loads(json.loads(snapshot_entry.read_bytes())["payload"])[0]["severity"] != "fatal"


def test_the_tools_fingerprint_is_each_package_file_by_its_path_size_and_time() -> None:
    # What translator.cache.fingerprint digests, with pathlib: every file below the
    # package (links followed) but the compiled ones, in pathlib's order of their paths.
    import hashlib

    import translator
    from translator.cache import fingerprint
    root = Path(translator.__file__).parent
    digest = hashlib.sha256(translator.__version__.encode())
    for path in sorted(Path(folder, name) for folder, _, names in os.walk(root, followlinks=True) for name in names):
        if path.suffix != ".pyc":
            digest.update(f"{path.relative_to(root)}:{path.stat().st_size}:{path.stat().st_mtime_ns}\n".encode())
    assert fingerprint() == digest.hexdigest()
