"""A cache of translations keyed by content, options and tool version, so that a run over
an unchanged tree translates nothing again.

The key is a SHA-256 of the file's bytes, the path it is reported under, the options
(every field, sets sorted; the user's rules files by content) and the tool's own fingerprint: the version and the size and
modification time of every file of the package (its code and mapping data), so that a
changed translator never reads an old entry. Entries live under `$CU2HIP_CACHE_DIR`,
else `$XDG_CACHE_HOME/cu2hip`, else `~/.cache/cu2hip`, written through a temporary file
and an atomic rename.

An entry is data, never code: a JSON document holding its own key, a digest of its
payload and the result (the output where it differs from the input, the fixes, the
diagnostics, the API uses). Loading checks every field's type and value (each rule id
must be in the catalog, each edit inside the input); anything unexpected (missing,
truncated, another key's entry, another format, a field of the wrong type) is a miss.
A hit's output must be what its fixes make of its input (an entry altered in one of them
is a miss). A cache folder is trusted no further than that (anyone who can write it can
still forge both together): no entry can run code.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from functools import cache
from pathlib import Path

import translator

FORMAT = 1          # the entries' format: another one is a miss
TMP_PREFIX = ".tmp-"


def default_dir() -> Path:
    if os.environ.get("CU2HIP_CACHE_DIR"):
        return Path(os.environ["CU2HIP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cu2hip"


@cache
def fingerprint() -> str:
    """The tool's version and the size and mtime of each file of the package."""
    root = os.path.dirname(translator.__file__)
    digest = hashlib.sha256(translator.__version__.encode())
    # Through links too: grammars/ and templates/ are links in a checkout. Each file by
    # the parts of its path below the package, in their order (as pathlib sorts paths);
    # plain strings, not Path objects (a run answered from the cache does this every time).
    files = []
    for folder, _, names in os.walk(root, followlinks=True):
        below = os.path.relpath(folder, root)
        parts = () if below == os.curdir else tuple(below.split(os.sep))
        files += [(*parts, name) for name in names if os.path.splitext(name)[1] != ".pyc"]
    for parts in sorted(files):
        stat = os.stat(os.path.join(root, *parts))
        digest.update(f"{'/'.join(parts)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
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
    from translator.inputs import read_limited
    try:
        return read_limited(path)
    except OSError:
        return b"\0unreadable\0"


class Cache:
    def __init__(self, folder: Path):
        self.folder = folder

    def key(self, display: str, data: bytes, options_key: bytes) -> str:
        """A file's key; `options_key`: options_key(the run's options), digested once a run."""
        return digest(display.encode("utf-8", "surrogateescape"), data, options_key)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key[2:]

    def get(self, key: str, data: bytes):
        """The cached Result for `key`, made whole with the input `data`; None for a miss."""
        from translator.cache_format import result_from_json
        if not _CATALOG_WHOLE:
            whole_catalog(self)
        payload = read_entry(self._path(key), key)
        if payload is None:
            return None
        try:
            return result_from_json(payload, data)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, UnicodeError, RecursionError):
            return None

    def get_data(self, key: str, valid):
        """A plain JSON entry for `key` (a workspace's facts, say), or None: a miss, or a
        payload that `valid(payload)` does not accept."""
        payload = read_entry(self._path(key), key)
        try:
            return payload if payload is not None and valid(payload) else None
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
            return None

    def put_data(self, key: str, payload) -> None:
        write_entry(self._path(key), key, payload)

    def put(self, key: str, result) -> None:
        from translator.cache_format import result_to_json
        write_entry(self._path(key), key, result_to_json(result))


_CATALOG_WHOLE = False       # this process's rule catalog holds every built-in rule


def whole_catalog(cache: Cache | None) -> None:
    """Make this process's rule catalog whole (a hit's rule ids are checked against it,
    the statistics read its topics): from `cache`'s snapshot of it for this fingerprint
    where there is one, so that a run answered from the cache imports no pass; else by
    importing every module that declares rules (translator.catalog.catalog). Where the
    cache has no snapshot (or one that is not this catalog's), it is written for the
    next run. Called once a run (translator.commands.run.Batch); a cache's lookup calls
    it where the process's catalog is not yet whole (a worker that did not fork)."""
    global _CATALOG_WHOLE
    from translator import catalog
    if cache is None:
        catalog.catalog()
    else:
        key = digest(b"\0rule catalog")
        found = cache.get_data(key, lambda data: type(data) is list and bool(data))
        if found is None or not catalog.restore(found):
            from translator.rules.declare import user_ids
            cache.put_data(key, catalog.snapshot(leave_out=user_ids()))
    _CATALOG_WHOLE = True


def digest(*parts: bytes, options=None) -> str:
    """A SHA-256 of the tool's fingerprint, `parts` and the options (the user's rules files
    by content: an edited rule must translate again)."""
    out = hashlib.sha256(fingerprint().encode())
    if options is not None:
        parts = (*parts, options_key(options))
    for part in parts:
        out.update(len(part).to_bytes(8, "little"))
        out.update(part)
    return out.hexdigest()


# The last options digested and their digest. A run's options hold its local headers and
# launch index (hundreds of KB): digested once per process and run, not once per file.
_LAST_OPTIONS: tuple = (None, b"")


def options_key(options) -> bytes:
    """The options' part of every key: a SHA-256 of every field of `options` and of the
    user's rules files' bytes, read when these options are first digested in this process
    (a run's workers get it digested, not each digesting the launch index again)."""
    global _LAST_OPTIONS
    held, value = _LAST_OPTIONS
    if held is not options:
        rules = b"".join(_read(path) for path in getattr(options, "rules", ()))
        value = hashlib.sha256(_canonical(options).encode() + b"\0" + rules).digest()
        _LAST_OPTIONS = (options, value)
    return value


def _payload_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def read_entry(path: Path, key: str):
    """The payload of the entry at `path` (plain JSON data), or None: missing, unreadable,
    not this format, not this key's, or its payload does not match its digest."""
    from translator.inputs import MAX_FILE_BYTES, read_limited
    try:
        raw = read_limited(path, 8 * MAX_FILE_BYTES)
        entry = json.loads(raw)
        if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("key") == key
                and isinstance(entry.get("payload"), str) and entry.get("digest") == _payload_digest(entry["payload"])):
            return None
        return json.loads(entry["payload"])
    except (OSError, ValueError, UnicodeError, RecursionError):
        return None


def write_entry(path: Path, key: str, payload) -> None:
    """Through a temporary file and an atomic rename; a cache that cannot be written only
    costs time, and leaves no temporary file behind (a full disk, say)."""
    text = json.dumps(payload, separators=(",", ":"))
    data = json.dumps({"format": FORMAT, "key": key, "digest": _payload_digest(text), "payload": text},
                      separators=(",", ":")).encode("ascii")
    import tempfile         # here: a run answered from the cache writes no entry
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TMP_PREFIX)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
