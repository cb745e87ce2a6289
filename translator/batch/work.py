"""One repository's work, as a worker does it: get the source, translate it as `cu2hip
translate` would, and put the result in place whole or not at all.

The translation is `cu2hip translate` itself, run as a child process in the repository's
root: the per-file phase and then the whole-project phase (the launch universe reads
every file of the repository), with the user's configuration found as it would be, the
per-file cache of this machine (a rerun translates only what changed), and bytes that are
the command's by construction. The child ends with its worker (Linux's parent-death
signal), so a killed worker leaves no translation running.

Nothing half-written is left in an output folder: the tree is written into a staging
folder beside the output (`.NAME.cu2hip-batch-new`), compared with the output already
there (equal: it is dropped, and the output's files keep their times) and otherwise put
in its place by two renames (the old output to `.NAME.cu2hip-batch-old`, the new one in);
a run killed between the two is repaired by the next one, which puts the old output back
before it starts. Runs into one output folder take turns (a lock in the cache folder).

This module imports no Dask: a worker calls `translate_repository` with plain data.
"""

from __future__ import annotations

import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from translator import runcache
from translator.cache import default_dir

# The child: the parent-death signal first, then the command.
_CHILD = ("import sys; from translator.commands.run import _parent_death_signal; _parent_death_signal(); "
          "from translator.cli import main; sys.exit(main(sys.argv[1:]))")
_CACHED = re.compile(r", (\d+) cached; target ")
_TAIL_LINES = 20
GIT_TIMEOUT_S = 600


class RepositoryError(Exception):
    """A repository that could not be translated (its source, or the command's failure)."""


def _child_env() -> dict[str, str]:
    """The child's environment: this process's, with the folder this `translator` package was
    imported from first on PYTHONPATH, so that the child (which runs in the repository's folder)
    imports the same cu2hip, installed or not."""
    import translator
    home = str(Path(translator.__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": home + (os.pathsep + path if path else "")}


def translate_repository(task: dict, jobs: int = 1) -> dict:
    """Translate the repository of `task` (`manifest.Repository.as_task`) with `jobs`
    files at a time; the summary of what was done (`summary.REPOSITORY_KEYS`)."""
    start = time.monotonic()
    output = Path(task["output"])
    with runcache.lock(default_dir() / "batch", output):
        root, commit = _source(task)
        staging, old = _siblings(output)
        _repair(output, staging, old)
        with tempfile.TemporaryDirectory(prefix="cu2hip-batch-") as scratch:
            report = Path(scratch, "report.json")
            paths = task["paths"] or ["."]
            argv = ["translate", *paths, "-o", str(staging), "--report", str(report), "-j", str(max(1, jobs)),
                    *task["options"]]
            with open(Path(scratch, "stdout"), "w+b") as out, open(Path(scratch, "stderr"), "w+b") as err:
                status = subprocess.run([sys.executable, "-c", _CHILD, *argv], cwd=root, stdin=subprocess.DEVNULL,
                                        stdout=out, stderr=err, env=_child_env()).returncode
                err.seek(0)
                stderr = err.read().decode("utf-8", "replace")
            if status not in (0, 1) or not report.exists():
                shutil.rmtree(staging, ignore_errors=True)
                raise RepositoryError(f"cu2hip translate exited with status {status}:\n" + _tail(stderr))
            doc = json.loads(report.read_text(encoding="utf-8"))
        changed = not _same_tree(staging, output)
        if changed:
            _put_in_place(staging, output, old)
        else:
            shutil.rmtree(staging)
    summary = doc["summary"]
    diagnostics: dict[str, int] = {}
    for file in doc["files"]:
        for d in file["diagnostics"]:
            diagnostics[d["code"]] = diagnostics.get(d["code"], 0) + 1
    cached = _CACHED.search(stderr)
    return {
        "name": task["name"], "source": task["git"] or task["path"], "ref": task["ref"], "commit": commit,
        "output": task["output"], "status": "ok", "exit_status": status, "output_changed": changed,
        "files": summary["files"], "changed_files": summary["changed"], "edits": summary["edits"],
        "errors": summary["errors"], "warnings": summary["warnings"],
        "edits_by_rule": summary["edits_by_rule"], "diagnostics_by_rule": dict(sorted(diagnostics.items())),
        "cached": int(cached.group(1)) if cached else 0,
        "seconds": round(time.monotonic() - start, 3), "error": None,
    }


def _tail(text: str) -> str:
    return "\n".join(text.rstrip("\n").splitlines()[-_TAIL_LINES:])


def _siblings(output: Path) -> tuple[Path, Path]:
    return (output.parent / f".{output.name}.cu2hip-batch-new", output.parent / f".{output.name}.cu2hip-batch-old")


def _repair(output: Path, staging: Path, old: Path) -> None:
    """Undo what a killed run left: the old output back if the new one never arrived,
    no staging folder."""
    if old.exists() and not output.exists() and not output.is_symlink():
        os.rename(old, output)
    for leftover in (staging, old):
        if leftover.is_symlink() or leftover.is_file():
            leftover.unlink()
        elif leftover.exists():
            shutil.rmtree(leftover)


def _put_in_place(staging: Path, output: Path, old: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    if output.exists() or output.is_symlink():
        os.rename(output, old)
    os.rename(staging, output)
    if old.is_symlink() or old.is_file():
        old.unlink()
    elif old.exists():
        shutil.rmtree(old)


def _same_tree(a: Path, b: Path) -> bool:
    """The two folders hold the same names, file bytes and link texts."""
    if not b.is_dir() or b.is_symlink():
        return False
    for dirpath, dirnames, filenames in os.walk(a):
        other = Path(b, os.path.relpath(dirpath, a))
        try:
            theirs = set(os.listdir(other))
        except OSError:
            return False
        if theirs != set(dirnames) | set(filenames):
            return False
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            mine, their = os.path.join(dirpath, name), os.path.join(other, name)
            if os.path.islink(mine) or os.path.islink(their):
                if not (os.path.islink(mine) and os.path.islink(their)) or os.readlink(mine) != os.readlink(their):
                    return False
            elif not os.path.isfile(their) or not filecmp.cmp(mine, their, shallow=False):
                return False
        for d in dirnames:
            if os.path.islink(os.path.join(other, d)) and not os.path.islink(os.path.join(dirpath, d)):
                return False
    return True


def _source(task: dict) -> tuple[Path, str | None]:
    """The repository's root, and the commit checked out (None for a local folder)."""
    if task["git"] is None:
        root = Path(task["path"])
        if not root.is_dir():
            raise RepositoryError(f"{root} is not a folder")
        return root, None
    url, ref = task["git"], task["ref"] or "HEAD"
    root = default_dir() / "batch" / "git" / hashlib.sha256(url.encode()).hexdigest()[:24]
    with runcache.lock(default_dir() / "batch", root):
        if not (root / ".git").is_dir():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            _git(root, "init", "-q")
            _git(root, "remote", "add", "origin", "--", url)
        _git(root, "fetch", "-q", "--depth", "1", "origin", ref)
        _git(root, "checkout", "-q", "--force", "--detach", "FETCH_HEAD")
        _git(root, "clean", "-q", "-ffdx")
        commit = _git(root, "rev-parse", "HEAD").strip()
    return root, commit


def _git(root: Path, *args: str) -> str:
    # No prompt for credentials (a batch has no terminal), and no transport that runs a
    # command of the URL's choosing (ext::).
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        done = subprocess.run(["git", "-c", "protocol.ext.allow=never", "-C", str(root), *args], env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=GIT_TIMEOUT_S)
    except FileNotFoundError:
        raise RepositoryError("git is not installed: a repository given by URL needs it") from None
    except subprocess.TimeoutExpired:
        raise RepositoryError(f"git {args[0]} took more than {GIT_TIMEOUT_S} s") from None
    if done.returncode != 0:
        raise RepositoryError(f"git {args[0]} failed: " + _tail(done.stderr.decode("utf-8", "replace")))
    return done.stdout.decode("utf-8", "replace")
