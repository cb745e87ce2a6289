"""A record of a whole `translate` run, so that repeating it over an unchanged tree does
no work at all: no file is read, parsed or written.

A run's key is the tool's fingerprint, the options (the user's rules files by content),
the output mode and the inputs as given. Its record holds the state of the input trees
and of the output folder after the run, the state of every other file the run's results
read (`reads`: the local headers outside the trees, found or looked for, a `cfg.h` of a
folder next to them; the project's C, C++ and CUDA files when the project's folder is
not one of the trees, since the launch universe reads every launch of a kernel there;
the configuration and rules files), what the run printed and its exit status. A
file's state is its path, size, modification and inode change times and inode number;
a symbolic link's is its target's as well as the link text, so that an edit of the file
a link leads to is seen, and so is an edit that keeps the size and modification time
(`touch -r`): it changes the inode change time. When every state is as recorded (a file
added to the project's folder, or a header that was looked for and now exists, differs
too), the run is replayed: the same messages, a summary that says every file came from
the cache, the same status. The other files' states are taken once the run has read them
(translator.commands.translate), and must be the same when it records: an edit in the
moment between a read and that look is not seen.

The record never claims bytes that the run did not write: a run over one output folder
holds that folder's lock (`lock`) from the first look at its state to the record's
write, so two runs into one folder take turns; a run whose inputs changed while it ran
records nothing; records are JSON data written atomically, one per run, checked on load
(anything unexpected is a miss); and `cu2hip check`, which reads the translations
themselves, drops an output folder's records when it finds one out of date (`forget`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat as st_
from dataclasses import dataclass, field
from pathlib import Path

from translator.cache import digest, read_entry, write_entry

try:
    import fcntl
except ImportError:         # not POSIX: no lock (records are still written atomically)
    fcntl = None


@dataclass
class Reads:
    """The files beyond the input trees that a run's results read: `paths` one by one,
    and the C, C++ and CUDA files of the folder `project` (`skip`, the output folders,
    left out), whatever they are when the record is checked: one added counts."""
    paths: list[str]
    project: str | None = None
    skip: list[str] = field(default_factory=list)

    def state(self) -> list[tuple]:
        from translator.universe import project_files
        paths = set(self.paths)
        if self.project is not None:
            files = project_files(Path(self.project), tuple(map(Path, self.skip)))
            paths.update(os.path.abspath(p) for p, _ in files)
        return [_state(p) for p in sorted(paths)]


@dataclass
class RunRecord:
    inputs: list[tuple]
    outputs: list[tuple]
    reads: Reads = field(default_factory=lambda: Reads([]))
    read_states: list[tuple] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""                 # everything printed but the summary line
    summary: str | None = None       # the summary line a replay prints
    status: int = 0


def _state(path: str) -> tuple:
    """(path, link text or None, size, mtime_ns, ctime_ns, inode) of a path, its link
    followed; -1 where the path (or its target) cannot be stat'ed."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):       # ValueError: a NUL in a name an #include spelt
        return (path, None, -1, -1, -1, -1)
    link = None
    if st_.S_ISLNK(st.st_mode):
        try:
            link = os.readlink(path)
            st = os.stat(path)
        except OSError:
            return (path, link, -1, -1, -1, -1)
    return (path, link, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def tree_state(roots, skip: Path | None = None) -> list[tuple]:
    """The state (`_state`) of every file under `roots` (a file root: itself) and of every
    link to a folder there, folders whose names start with `.` and the folder `skip` left
    out, sorted."""
    skip_real = os.path.realpath(skip) if skip is not None else None
    out = []
    for root in roots:
        root = os.fspath(root)
        if not os.path.isdir(root):
            out.append(_state(os.path.abspath(root)))
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            kept = []
            for d in dirnames:
                if d.startswith(".") or (skip_real is not None
                                         and os.path.realpath(os.path.join(dirpath, d)) == skip_real):
                    continue
                if os.path.islink(os.path.join(dirpath, d)):
                    out.append(_state(os.path.abspath(os.path.join(dirpath, d))))     # not followed
                else:
                    kept.append(d)
            dirnames[:] = kept
            out += [_state(os.path.abspath(os.path.join(dirpath, name))) for name in filenames]
    return sorted(out, key=lambda s: s[0])


def run_key(paths: list[str], options, mode: tuple) -> str:
    """The run's key: the inputs as given (and where from), the output mode, the options."""
    return "run-" + digest(os.getcwd().encode("utf-8", "surrogateescape"),
                           "\0".join(paths).encode("utf-8", "surrogateescape"),
                           repr(mode).encode("utf-8", "surrogateescape"), options=options)


def _group(folder: Path, output: Path | None) -> Path:
    """The records of the runs into one output folder (or into none) are kept together."""
    name = "none" if output is None else \
        hashlib.sha256(os.path.realpath(output).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return folder / "runs" / name


@contextlib.contextmanager
def lock(folder: Path, output: Path | None):
    """Hold the lock of the runs into `output` (nothing for a run that writes no folder)."""
    if output is None or fcntl is None:
        yield
        return
    group = _group(folder, output)
    try:
        group.mkdir(parents=True, exist_ok=True)
        handle = open(group / "lock", "a+b")
    except OSError:
        yield           # a cache that cannot be written: no record will be either
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _states(value) -> list[tuple]:
    out = []
    for item in value:
        path, link, *numbers = item
        if type(path) is not str or (link is not None and type(link) is not str) or len(numbers) != 4 \
                or any(type(n) is not int for n in numbers):
            raise ValueError("bad state")
        out.append((path, link, *numbers))
    return out


def _reads(value) -> Reads:
    paths, project, skip = value["paths"], value["project"], value["skip"]
    if type(paths) is not list or type(skip) is not list or any(type(p) is not str for p in paths + skip) \
            or not (project is None or type(project) is str):
        raise ValueError("bad reads")
    return Reads(paths, project, skip)


def load(folder: Path, output: Path | None, key: str) -> RunRecord | None:
    value = read_entry(_group(folder, output) / key, key)
    try:
        if type(value) is not dict or type(value["status"]) is not int:
            return None
        if any(type(value[k]) is not str for k in ("stdout", "stderr")) or \
                not (value["summary"] is None or type(value["summary"]) is str):
            return None
        return RunRecord(_states(value["inputs"]), _states(value["outputs"]), _reads(value["reads"]),
                         _states(value["read_states"]), value["stdout"], value["stderr"], value["summary"],
                         value["status"])
    except (KeyError, TypeError, ValueError):
        return None     # a record of an older format (no `reads`) too


def save(folder: Path, output: Path | None, key: str, record: RunRecord) -> None:
    r = record.reads
    write_entry(_group(folder, output) / key, key, {
        "inputs": record.inputs, "outputs": record.outputs,
        "reads": {"paths": r.paths, "project": r.project, "skip": r.skip}, "read_states": record.read_states,
        "stdout": record.stdout, "stderr": record.stderr, "summary": record.summary, "status": record.status})


def forget(folder: Path, output: Path) -> None:
    """Drop the records of the runs into `output` (its translations were found out of date)."""
    group = _group(folder, output)
    try:
        names = os.listdir(group)
    except OSError:
        return
    for name in names:
        if name.startswith("run-"):
            try:
                os.unlink(group / name)
            except OSError:
                pass
