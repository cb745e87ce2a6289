"""A cache of translations keyed by content, options and tool version, so that a run over
an unchanged tree translates nothing again.

The key is a SHA-256 of the file's bytes, the path it is reported under, the options
(every field, sets sorted; the user's rules files by content) and the tool's own fingerprint: the version and the size and
modification time of every file of the package (its code and mapping data), so that a
changed translator never reads an old entry. Entries are pickled Results under
`$CU2HIP_CACHE_DIR`, else `$XDG_CACHE_HOME/cu2hip`, else `~/.cache/cu2hip`, written
through a temporary file and an atomic rename; an unreadable or corrupt entry is a miss.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import tempfile
from functools import cache
from pathlib import Path

import translator


def default_dir() -> Path:
    if os.environ.get("CU2HIP_CACHE_DIR"):
        return Path(os.environ["CU2HIP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cu2hip"


@cache
def fingerprint() -> str:
    """The tool's version and the size and mtime of each file of the package."""
    root = Path(translator.__file__).parent
    digest = hashlib.sha256(translator.__version__.encode())
    # Through links too: grammars/ and templates/ are links in a checkout.
    paths = [Path(folder, name) for folder, _, names in os.walk(root, followlinks=True) for name in names]
    for path in sorted(paths):
        if path.suffix != ".pyc":
            stat = path.stat()
            digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _canonical(options) -> str:
    fields = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if isinstance(value, (set, frozenset)):
            value = sorted(value)
        fields.append(f"{f.name}={value!r}")
    return ";".join(fields)


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b"\0unreadable\0"


class Cache:
    def __init__(self, folder: Path):
        self.folder = folder

    def key(self, display: str, data: bytes, options) -> str:
        return digest(display.encode("utf-8", "surrogateescape"), data, options=options)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key[2:]

    def get(self, key: str):
        return read_pickle(self._path(key))

    def put(self, key: str, result) -> None:
        write_pickle(self._path(key), result)


def digest(*parts: bytes, options=None) -> str:
    """A SHA-256 of the tool's fingerprint, `parts` and the options (the user's rules files
    by content: an edited rule must translate again)."""
    out = hashlib.sha256(fingerprint().encode())
    if options is not None:
        rules = b"".join(_read(path) for path in getattr(options, "rules", ()))
        parts = (*parts, _canonical(options).encode(), rules)
    for part in parts:
        out.update(len(part).to_bytes(8, "little"))
        out.update(part)
    return out.hexdigest()


def read_pickle(path: Path):
    try:
        with open(path, "rb") as handle:
            return pickle.load(handle)
    except Exception:       # missing, unreadable, truncated, from another Python: a miss
        return None


def write_pickle(path: Path, value) -> None:
    """Through a temporary file and an atomic rename; a cache that cannot be written only
    costs time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass
