"""`cu2hip batch`: the manifest, the output trees (each equal to `cu2hip translate`'s), a
worker killed mid-batch, a failing repository, reruns, and what is left after a kill."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from translator.batch import manifest as manifest_
from translator.batch import work
from translator.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"

distributed = pytest.importorskip("distributed", reason="cu2hip[batch] (Dask's distributed) is not installed")


def _tree(path: Path) -> dict[str, bytes | str]:
    """Every file's bytes and every link's text under `path`, by relative name."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(path):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, path)
            out[rel] = ("link:" + os.readlink(full)) if os.path.islink(full) else Path(full).read_bytes()
    return out


def _translate(repo: Path, out: Path, *options: str) -> None:
    """What `cu2hip translate` run in the repository's root writes."""
    done = subprocess.run([sys.executable, "-m", "translator", "translate", ".", "-o", str(out), "-q", *options],
                          cwd=repo, capture_output=True)
    assert done.returncode in (0, 1), done.stderr.decode()


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repos(tmp_path, monkeypatch):
    """Three repositories made of corpus programs: two folders (one with its own
    configuration) and a git repository with two commits, tagged v1 and v2."""
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    fusion = tmp_path / "src" / "fusion"
    shutil.copytree(CORPUS / "fusion", fusion)
    (fusion / "pyproject.toml").write_text('[tool.cu2hip]\nfuse = false\nrocm-version = "6.2"\n')
    project = tmp_path / "src" / "cmake_stats"
    shutil.copytree(CORPUS / "projects" / "cmake_stats", project)
    warp = tmp_path / "src" / "warp"
    shutil.copytree(CORPUS / "warp", warp)
    _git(warp, "init", "-q")
    _git(warp, "add", ".")
    _git(warp, "commit", "-q", "-m", "one")
    _git(warp, "tag", "v1")
    (warp / "warp_reduce.cu").write_bytes((warp / "warp_reduce.cu").read_bytes() + b"\n// v2\n")
    _git(warp, "commit", "-q", "-am", "two")
    _git(warp, "tag", "v2")
    return {"fusion": fusion, "cmake_stats": project, "warp": warp}


def _manifest(tmp_path: Path, repos: dict, warp_ref: str = "v1", extra: str = "") -> Path:
    path = tmp_path / "repos.toml"
    path.write_text(f'''output = "ported"
options = ["--rocm-version", "6.2"]

[[repository]]
path = "{repos["fusion"]}"

[[repository]]
path = "{repos["cmake_stats"]}"
options = ["--no-rebalance"]

[[repository]]
git = "file://{repos["warp"]}"
ref = "{warp_ref}"
name = "warp"
{extra}''')
    return path


class KillOnce(distributed.WorkerPlugin):
    """Kills its worker (the whole process, as a crash would) when the task of the
    repository `name` starts there for the first time."""

    def __init__(self, marker: str, name: str):
        self.marker, self.name = marker, name

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and f"-{self.name}-" in str(key) and not os.path.exists(self.marker):
            Path(self.marker).write_text("killed")
            os._exit(1)


@pytest.fixture
def cluster():
    """The embedded cluster's settings, 2 workers; the test module travels by value (the
    workers cannot import tests/)."""
    import cloudpickle
    import dask
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with dask.config.set({"distributed.scheduler.allowed-failures": 1, "distributed.worker.daemon": False}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as c, distributed.Client(c) as client:
            yield client
    cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def _expected(tmp_path: Path, repos: dict, ref: str) -> dict[str, dict]:
    checkout = tmp_path / f"checkout-{ref}"
    _git(tmp_path, "clone", "-q", "--branch", ref, str(repos["warp"]), str(checkout))
    shutil.rmtree(checkout / ".git")
    out = tmp_path / "expected"
    _translate(repos["fusion"], out / "fusion", "--rocm-version", "6.2")
    _translate(repos["cmake_stats"], out / "cmake_stats", "--rocm-version", "6.2", "--no-rebalance")
    _translate(checkout, out / "warp", "--rocm-version", "6.2")
    return {name: _tree(out / name) for name in ("fusion", "cmake_stats", "warp")}


def test_each_output_tree_is_what_translate_writes_even_when_a_worker_is_killed(tmp_path, repos, cluster, capsys):
    from translator.batch.cluster import Run
    cluster.register_plugin(KillOnce(str(tmp_path / "killed"), "cmake_stats"))
    manifest = manifest_.load(_manifest(tmp_path, repos))
    results = Run(manifest, client=cluster).run()
    assert (tmp_path / "killed").exists()          # the worker did die, once
    assert [r["status"] for r in results] == ["ok", "ok", "ok"], results
    expected = _expected(tmp_path, repos, "v1")
    for name, files in expected.items():
        assert _tree(tmp_path / "ported" / name) == files, name
    fusion = results[0]
    assert fusion["edits_by_rule"].get("F001") is None          # its own configuration: fuse = false
    assert results[2]["commit"] == _git(repos["warp"], "rev-parse", "v1^{commit}").strip()
    assert results[2]["files"] == len([p for p in (CORPUS / "warp").iterdir() if p.suffix in (".cu", ".cuh")])
    # Nothing of the staging left beside the outputs.
    assert sorted(p.name for p in (tmp_path / "ported").iterdir()) == ["cmake_stats", "fusion", "warp"]


def test_the_command_writes_the_summaries_and_a_rerun_does_only_what_changed(tmp_path, repos):
    path = _manifest(tmp_path, repos)
    assert main(["batch", str(path), "--workers", "2", "-q"]) == 0
    summary = json.loads((tmp_path / "ported" / "cu2hip-batch.json").read_text())
    assert [r["name"] for r in summary["repositories"]] == ["fusion", "cmake_stats", "warp"]
    assert [r["status"] for r in summary["repositories"]] == ["ok", "ok", "ok"]
    totals = summary["totals"]
    assert totals["repositories"] == 3 and totals["failed"] == 0 and totals["cached"] == 0
    assert totals["files"] == sum(r["files"] for r in summary["repositories"]) > 0
    assert totals["rules"]["H001"] == sum(r["edits_by_rule"].get("H001", 0) for r in summary["repositories"])
    markdown = (tmp_path / "ported" / "cu2hip-batch.md").read_text()
    assert "| <code>cmake_stats</code> | ok |" in markdown
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "ported" / "fusion").rglob("*")}

    # Again, unchanged: every file from the cache, no output rewritten.
    assert main(["batch", str(path), "--workers", "2", "-q"]) == 0
    again = json.loads((tmp_path / "ported" / "cu2hip-batch.json").read_text())
    assert [r["status"] for r in again["repositories"]] == ["unchanged"] * 3
    assert again["totals"]["cached"] == totals["files"]
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "ported" / "fusion").rglob("*")} == stamps

    # The git repository moves to v2: only its one changed file is translated again.
    path = _manifest(tmp_path, repos, warp_ref="v2")
    assert main(["batch", str(path), "--workers", "2", "-q"]) == 0
    third = json.loads((tmp_path / "ported" / "cu2hip-batch.json").read_text())
    assert [r["status"] for r in third["repositories"]] == ["unchanged", "unchanged", "ok"]
    warp = third["repositories"][2]
    assert warp["cached"] == warp["files"] - 1
    assert (tmp_path / "ported" / "warp" / "warp_reduce.cu").read_bytes().endswith(b"\n// v2\n")


def test_a_failing_repository_is_retried_then_reported_and_the_others_are_written(tmp_path, repos, capsys):
    path = _manifest(tmp_path, repos, extra=f'''
[[repository]]
git = "file://{tmp_path}/no-such-repository"
name = "missing"
''')
    (tmp_path / "ported" / "missing").mkdir(parents=True)
    (tmp_path / "ported" / "missing" / "kept.hip").write_text("an earlier output")
    assert main(["batch", str(path), "--workers", "2"]) == 1
    summary = json.loads((tmp_path / "ported" / "cu2hip-batch.json").read_text())
    statuses = {r["name"]: r["status"] for r in summary["repositories"]}
    assert statuses == {"fusion": "ok", "cmake_stats": "ok", "warp": "ok", "missing": "failed"}
    failed = summary["repositories"][3]
    assert "git fetch failed" in failed["error"] and "(tried twice)" in failed["error"]
    assert summary["totals"]["failed"] == 1
    # The failed repository's earlier output is as it was.
    assert _tree(tmp_path / "ported" / "missing") == {"kept.hip": b"an earlier output"}
    err = capsys.readouterr().err
    assert "cu2hip batch: error: missing: git fetch failed" in err
    assert "### Failed" in (tmp_path / "ported" / "cu2hip-batch.md").read_text()


def test_a_run_killed_between_its_two_renames_is_repaired_by_the_next(tmp_path):
    output = tmp_path / "out" / "proj"
    staging, old = work._siblings(output)
    old.mkdir(parents=True)
    (old / "a.hip").write_text("previous")
    staging.mkdir()
    (staging / "a.hip").write_text("half")
    work._repair(output, staging, old)
    assert _tree(output) == {"a.hip": b"previous"} and not staging.exists() and not old.exists()


def test_the_same_tree_is_compared_by_bytes_names_and_links(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "sub").mkdir(parents=True)
        (root / "sub" / "f.cu").write_bytes(b"x")
        os.symlink("sub/f.cu", root / "l")
    assert work._same_tree(a, b)
    (b / "sub" / "f.cu").write_bytes(b"y")
    assert not work._same_tree(a, b)
    (b / "sub" / "f.cu").write_bytes(b"x")
    os.unlink(b / "l")
    os.symlink("sub/other", b / "l")
    assert not work._same_tree(a, b)
    os.unlink(b / "l")
    os.symlink("sub/f.cu", b / "l")
    (b / "extra").write_bytes(b"")
    assert not work._same_tree(a, b)
    assert not filecmp.cmp(a / "l", b / "extra", shallow=False)


@pytest.mark.parametrize("text, message", [
    ('[[repository]]\npath = "."\ngit = "u"\n', "exactly one of `path`"),
    ('[[repository]]\ngit = "file:///x"\nref = "--upload-pack=touch X"\n', "is not a branch, tag or commit"),
    ('[[repository]]\ngit = "--upload-pack=touch X"\n', "is not a repository URL"),
    ('[[repository]]\npath = "."\noptions = ["-o", "elsewhere"]\n', "-o is set by `cu2hip batch`"),
    ('[[repository]]\npath = "."\noptions = ["--no-such-option"]\n', "unrecognized arguments: --no-such-option"),
    ('[[repository]]\npath = "."\nbranch = "main"\n', "unknown key 'branch'"),
    ('[[repository]]\npath = "a"\n[[repository]]\npath = "b/a"\n', "the name 'a' is also that of repository 1"),
    ('[[repository]]\npath = "a"\noutput = "a/hip"\n', "overlaps the repository"),
    ('[[repository]]\npath = "."\nname = "../up"\n', "cannot name an output folder"),
    ('[[repository]]\npath = "a"\npaths = ["../b"]\n', "are folders or files inside the repository"),
    ('output = 3\n', "`output` must be a string"),
    ('', "names no repository"),
    ('[[repository]\n', "repos.toml:"),
])
def test_a_bad_manifest_is_refused_before_any_work_saying_where(tmp_path, text, message):
    for name in ("a", "b/a"):
        (tmp_path / name).mkdir(parents=True)
    path = tmp_path / "repos.toml"
    path.write_text(text)
    with pytest.raises(manifest_.ManifestError) as err:
        manifest_.load(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_a_text_manifest_is_a_source_and_a_ref_a_line(tmp_path):
    (tmp_path / "local").mkdir()
    path = tmp_path / "repos.txt"
    path.write_text("# the team's repositories\nlocal\nhttps://example.org/team/solver.git v1.2  # pinned\n\n"
                    "git@example.org:team/other.git\n")
    m = manifest_.load(path, output=str(tmp_path / "o"), options=("--no-fuse",))
    assert [(r.name, r.path, r.git, r.ref, r.output, r.options) for r in m.repositories] == [
        ("local", tmp_path / "local", None, None, tmp_path / "o" / "local", ("--no-fuse",)),
        ("solver", None, "https://example.org/team/solver.git", "v1.2", tmp_path / "o" / "solver", ("--no-fuse",)),
        ("other", None, "git@example.org:team/other.git", None, tmp_path / "o" / "other", ("--no-fuse",)),
    ]
    path.write_text("local v1 extra\n")
    with pytest.raises(manifest_.ManifestError, match=r"repos.txt:1: expected `SOURCE \[REF\]`"):
        manifest_.load(path)


def test_a_usage_error_exits_2_with_the_place(tmp_path, capsys):
    path = tmp_path / "repos.toml"
    path.write_text('[[repository]]\npath = "nowhere"\n')
    assert main(["batch", str(path)]) == 2
    assert f"{path}:repository 1: {tmp_path / 'nowhere'} is not a folder" in capsys.readouterr().err


def test_the_rest_of_cu2hip_does_not_import_dask(tmp_path):
    code = ("import sys; from translator.cli import main; main(['translate', sys.argv[1], '--stdout', '--no-cache']);"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    done = subprocess.run([sys.executable, "-c", code, str(CORPUS / "fusion" / "chain2_scale_add.cu")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.rstrip().endswith("[]"), done.stderr


def test_the_markdown_summary_keeps_hostile_names_inside_their_code(tmp_path):
    from translator.batch.summary import to_markdown
    result = {"name": "x", "source": "/tmp/a`b\n\n# Heading <img src=x>|", "ref": None, "commit": None,
              "output": "/o", "status": "failed", "error": "line\n```\n# not a heading <b>"}
    text = to_markdown([result], 1.0)
    assert "<code>/tmp/a`b  # Heading &lt;img src=x&gt;&#124;</code>" in text
    assert "<pre>line\n```\n# not a heading &lt;b&gt;</pre>" in text
    assert "\n# Heading" not in text and "<img" not in text


def test_translate_options_after_a_double_dash_are_checked_for_every_repository(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    path = tmp_path / "repos.txt"
    path.write_text("a\n")
    assert main(["batch", str(path), "-q", "--", "--no-such-flag"]) == 2
    assert "options --no-such-flag: unrecognized arguments: --no-such-flag" in capsys.readouterr().err
    assert manifest_.load(path, options=("--no-fuse",)).repositories[0].options == ("--no-fuse",)


def test_a_running_cluster_gets_the_same_work(tmp_path, repos, cluster):
    address = cluster.scheduler.address
    assert main(["batch", str(_manifest(tmp_path, repos)), "--scheduler", address, "-q"]) == 0
    expected = _expected(tmp_path, repos, "v1")
    for name, files in expected.items():
        assert _tree(tmp_path / "ported" / name) == files, name


def test_the_terminal_shows_each_repository_and_the_total():
    import io

    from translator.commands.batch import _Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    screen = Terminal()
    progress = _Progress(screen, ["a", "b"], quiet=False)
    progress.show({"a": "queued", "b": "queued"})
    progress.show({"a": "running", "b": "ok"})
    text = screen.getvalue()
    first, second = text.split("\x1b[3F")
    assert first == ("\x1b[2K  queued    a\n\x1b[2K  queued    b\n"
                     "\x1b[2Kcu2hip batch: 0/2 repositories, 0 running, 0 failed, 0 s\n")
    assert second == ("\x1b[2K  running   a\n\x1b[2K  ok        b\n"
                      "\x1b[2Kcu2hip batch: 1/2 repositories, 1 running, 0 failed, 0 s\n")


def test_progress_writes_a_failure_on_one_line_whatever_it_quotes():
    import io

    from translator.commands.batch import _Progress
    log = io.StringIO()         # not a terminal: a CI log, where a line `::error ...` is a command
    progress = _Progress(log, ["a\nb"], quiet=False)
    progress.show({"a\nb": "failed"})
    progress.close([{"name": "a\nb", "status": "failed",
                     "error": "cannot read src/x\n::error file=evil.cu::pwned\n.cu\u2028"}])
    assert log.getvalue() == ("cu2hip batch: a\\x0ab: failed\n"
                              "cu2hip batch: error: a\\x0ab: cannot read src/x\\x0a::error file=evil.cu::pwned"
                              "\\x0a.cu\\u2028\n")


def test_the_child_imports_this_cu2hip_from_any_folder_installed_or_not(tmp_path):
    # The bench on the GPU host runs from a checkout that is not pip-installed: the child,
    # started in the repository's folder, must still import the parent's translator.
    import translator
    env = work._child_env()
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(Path(translator.__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-S", "-c", "import translator; print(translator.__file__)"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert Path(done.stdout.strip()).resolve() == Path(translator.__file__).resolve()
