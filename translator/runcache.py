"""A record of a whole `translate` run, so that repeating it over an unchanged tree does
no work at all: no file is read, parsed or written.

A run's key is the tool's fingerprint, the options (the user's rules files by content),
the output mode and the inputs as given. Its record holds the state of the input trees
and of the output folder after the run (every file's path, size, modification time and
whether it is a link), what the run printed, its figures and its exit status. When both
states are as recorded, the run is replayed: the same messages, a summary that says
every file came from the cache, the same status. Like make, it trusts size and time
stamps: an edit that keeps both escapes it (`--no-cache` does the work again).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from translator.cache import digest, read_pickle, write_pickle


@dataclass
class RunRecord:
    inputs: list[tuple]
    outputs: list[tuple]
    stdout: str = ""
    stderr: str = ""                 # everything printed but the summary line
    summary: dict = field(default_factory=dict)
    status: int = 0


def tree_state(roots, skip: Path | None = None) -> list[tuple]:
    """(path, size, mtime_ns, is_link) of every file under `roots` (a file root: itself),
    folders whose names start with `.` and the folder `skip` left out, sorted."""
    skip_real = os.path.realpath(skip) if skip is not None else None
    out = []
    for root in roots:
        root = os.fspath(root)
        if not os.path.isdir(root):
            try:
                st = os.lstat(root)
                out.append((os.path.abspath(root), st.st_size, st.st_mtime_ns, os.path.islink(root)))
            except OSError:
                out.append((os.path.abspath(root), -1, -1, False))
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")
                           and (skip_real is None or os.path.realpath(os.path.join(dirpath, d)) != skip_real)]
            for name in filenames:
                path = os.path.join(dirpath, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                out.append((os.path.abspath(path), st.st_size, st.st_mtime_ns, os.path.islink(path)))
    return sorted(out)


def run_key(paths: list[str], options, mode: tuple) -> str:
    """The run's key: the inputs as given (and where from), the output mode, the options."""
    return "run-" + digest(os.getcwd().encode(), "\0".join(paths).encode(), repr(mode).encode(), options=options)


def load(folder: Path, key: str) -> RunRecord | None:
    record = read_pickle(folder / "runs" / key)
    return record if isinstance(record, RunRecord) else None


def save(folder: Path, key: str, record: RunRecord) -> None:
    write_pickle(folder / "runs" / key, record)
