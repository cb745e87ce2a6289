"""What is read and written, and the diagnostics of reading and writing (I0xx).

`check_input` decides whether a file's bytes can be translated at all; `kind` tells a
regular file from a link loop, a missing file, or a FIFO, socket or device, and
`open_regular` opens a file for reading only if it is regular, without ever blocking.
`common_parent` and `collisions` say where the inputs go under an output folder
(translator.ignore says which are taken). The commands report what they cannot read or write with
the rules declared here.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import stat
import sys
from pathlib import Path

from translator import diagnostics as dg
from translator.catalog import ERROR, WARNING, rule
from translator.source import SourceFile, first_invalid_utf8, looks_binary

MAX_FILE_BYTES = 32 * 1024 * 1024

UNREADABLE = rule(
    "I001", "unreadable", ERROR, "the input cannot be read", """
The path does not exist, or the file or folder cannot be read (permissions, a dangling
symbolic link, a loop of symbolic links). Nothing is written for it.""")
BINARY = rule(
    "I002", "binary-file", ERROR, "the file is binary (a NUL byte): not translated", """
A NUL byte in the first 8 KiB marks a binary file, as git and grep decide. It is not
translated; with `-o` it is copied as it is.""", example="int x;\n\0\n")
INVALID_UTF8 = rule(
    "I003", "invalid-utf8", WARNING, "the file is not valid UTF-8: its bytes are kept as they are", """
The file is translated, and every byte the translation has no reason to change, the
invalid ones included, is kept exactly.""")
TOO_LARGE = rule(
    "I004", "too-large", ERROR, "the file is larger than the limit: not translated", f"""
Files over {MAX_FILE_BYTES} bytes are not translated (a generated or data file, most
likely).""")
UNWRITABLE = rule(
    "I005", "cannot-write", ERROR, "the output cannot be written: the file is unchanged", """
Writing goes through a temporary file and an atomic rename, so a failed write leaves the
old file whole. The command exits 1, whatever `--strict` says.""")
LINK_OUT_OF_TREE = rule(
    "I006", "link-out-of-tree", WARNING, "a symbolic link to a file outside the tree is not rewritten in place", """
`--in-place` rewrites the files of the tree; a link that leads out of it would rewrite a
file elsewhere, so it is left alone. Name the file itself to translate it.""")
NOT_REGULAR = rule(
    "I007", "not-a-regular-file", WARNING, "a FIFO, socket or device in a tree: skipped", """
Reading one could block forever or never end, so it is neither translated nor copied.""")
OUTPUT_COLLISION = rule(
    "I008", "output-collision", ERROR, "two different files lead to one output path: neither is written", """
Under `-o`, each input goes to its path relative to the inputs' common folder. Two paths
that name different files can still lead there (`x/../b/k.cu` where `x` is a link to a
folder elsewhere, and `b/k.cu`); rather than let one overwrite the other, neither is
written. One file reached by several paths is translated once and written to each.""")
OUTSIDE_MIRRORED = rule(
    "I009", "outside-mirrored-folder", ERROR, "the file is outside the folder the output folder mirrors", """
With the output folder from the configuration, paths are mirrored from the
configuration's folder; a file outside it has no place in the output folder, so it is
not translated. Give `-o` to mirror from the inputs' common folder instead.""")

FOLDER_LINK_OUT_OF_TREE = rule(
    "I010", "folder-link-not-followed", WARNING, "a symbolic link to a folder outside the tree is not followed", """
Links to folders are never followed (one could lead back into the tree, or anywhere): a
link to a folder of the tree is mirrored under `-o` as a link to that folder's mirror,
whose files are translated where they are; a link to a folder outside the tree is
neither translated nor mirrored. Name the folder itself to translate it.""")

LOOP, MISSING, REGULAR, SPECIAL = "loop", "missing", "regular", "special"

# The temporary files of atomic writes (`.NAME.XXXXXXXX.cu2hip-tmp`, from
# `tempfile.mkstemp`): a run killed mid-write leaves one. They are never translated or
# copied, and `translate` removes those older than this many seconds (no write of the
# tool's takes that long; a younger one may be another run's, being written).
TEMPORARY = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.cu2hip-tmp\Z", re.S)
STALE_TEMPORARY_S = 600


def kind(path) -> str:
    """What `path` is once its links are followed: REGULAR, SPECIAL (a folder, FIFO,
    socket or device), MISSING (or unreadable), or LOOP (a loop of symbolic links)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return LOOP if exc.errno == errno.ELOOP else MISSING
    except ValueError:          # a NUL byte in the name (an #include's text): no such file
        return MISSING
    return REGULAR if stat.S_ISREG(mode) else SPECIAL


def open_regular(path):
    """A binary file object for reading `path`, which must be a regular file; OSError
    otherwise. A FIFO that became one since the walk does not block the open."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_for_writing(path):
    """A text file object writing `path` (created or truncated), as a shell's `>` opens it,
    except that a FIFO no process reads is an error (ENXIO) at once, not a wait forever:
    `--o-stats >(sort)` works, a forgotten FIFO does not hang the command."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "w", encoding="utf-8", newline="")
    except BaseException:
        os.close(fd)
        raise


class StreamError(OSError):
    """A write to the command's standard output or error failed (`stream` says which):
    a reader that went away (EPIPE: `cu2hip diff | head`) or a full or broken device."""

    def __init__(self, code: int, message: str, stream: str):
        super().__init__(code, message)
        self.stream = stream


class _Standard(io.RawIOBase):
    """File descriptor 1 or 2, whose write errors are StreamErrors."""

    def __init__(self, fd: int, name: str):
        super().__init__()
        self.fd, self.stream = fd, name

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data) -> int:
        try:
            return os.write(self.fd, data)
        except OSError as exc:
            raise StreamError(exc.errno, exc.strerror, self.stream) from None


def tag_standard_streams() -> None:
    """Make a failed write to stdout or stderr a StreamError, whoever writes (print,
    sys.stdout.buffer): the command can then end as a Unix tool does, not with a
    traceback. Only the process's own streams are replaced (not a test's capture)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or stream is not getattr(sys, f"__{name}__") or isinstance(
                getattr(getattr(stream, "buffer", None), "raw", None), _Standard):
            continue
        try:
            stream.flush()
            raw = _Standard(stream.fileno(), name)
        except (OSError, ValueError):       # no descriptor (an embedding's stream): left as it is
            continue
        setattr(sys, name, io.TextIOWrapper(io.BufferedWriter(raw), encoding=stream.encoding, errors=stream.errors,
                                            line_buffering=stream.line_buffering, write_through=name == "stderr"))


def stream_failed(exc: StreamError) -> int:
    """End a command whose standard output or error failed: the exit status, after a
    one-line error on stderr when stdout failed for a reason other than a reader that
    went away (a broken pipe ends the command quietly, with the status of SIGPIPE); the
    stream is pointed at /dev/null, so that what is left in its buffer goes nowhere."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        raw = getattr(getattr(stream, "buffer", None), "raw", None)
        if isinstance(raw, _Standard) and raw.stream == exc.stream:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, raw.fd)
            os.close(null)
    if exc.errno == errno.EPIPE:
        return 128 + 13     # SIGPIPE's status, as a tool the signal ended
    if exc.stream == "stdout":
        try:
            print(f"cu2hip: error: cannot write to standard output: {exc.strerror}", file=sys.stderr, flush=True)
        except OSError:
            pass
    return 1


def write_problem(exc: OSError) -> str:
    """Why a write failed, in words (ENXIO: a FIFO nobody reads)."""
    return "a FIFO that no process reads" if exc.errno == errno.ENXIO else (exc.strerror or str(exc))


def read_regular(path) -> bytes:
    """The bytes of `path`, which must be a regular file (OSError otherwise: a FIFO is not
    waited on). Through the descriptor alone: five system calls, not a file object's ten
    (a tree's every file is read; in a sandbox each call costs)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        size = os.fstat(fd)
        if not stat.S_ISREG(size.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        # A regular file's reads never wait, O_NONBLOCK or not. One read more finds the end
        # (the file may have grown since the fstat).
        parts = []
        while True:
            part = os.read(fd, max(size.st_size + 1, 65536) if not parts else 1 << 20)
            if not part:
                return b"".join(parts)
            parts.append(part)
    finally:
        os.close(fd)


def read_limited(path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (a configuration, a rules file, a
    cache entry); OSError for anything else: a FIFO, a device such as /dev/zero, a folder,
    a larger file."""
    with open_regular(path) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than the {limit}-byte limit", str(path))
    return data


def check_input(source: SourceFile) -> list[dg.Diagnostic]:
    """Problems that stop a file from being translated at all (reported as errors), or
    that are worth knowing (invalid UTF-8: the bytes are kept as they are)."""
    path, data = source.path, source.data
    if len(data) > MAX_FILE_BYTES:
        return [dg.Diagnostic(path, 1, 1, TOO_LARGE.severity, f"file is {len(data)} bytes, over the "
                              f"{MAX_FILE_BYTES}-byte limit; not translated", TOO_LARGE.id)]
    nul = looks_binary(data)
    if nul is not None:
        return [dg.at(source, nul, BINARY.severity, "binary file (NUL byte); not translated", BINARY.id)]
    bad = first_invalid_utf8(data)
    if bad is not None:
        return [dg.at(source, bad, INVALID_UTF8.severity, f"invalid UTF-8 byte 0x{data[bad]:02x}; bytes are "
                      "kept as they are", INVALID_UTF8.id, bad + 1)]
    return []


def problem(rule_, path: str, message: str) -> dg.Diagnostic:
    """A diagnostic about a whole file (reading or writing it), at 1:1."""
    return dg.Diagnostic(str(path), 1, 1, rule_.severity, message, rule_.id)


def real_path(path) -> Path:
    """The path with its links followed; never raises (a link loop stays as it is)."""
    return Path(real(path))


def real(path) -> str:
    """real_path's answer as a string."""
    try:
        return os.path.realpath(path) if _FOLDERS is None else _real(os.fspath(path))
    except ValueError:          # a NUL byte in the name: no file has it
        return os.path.abspath(path)


# The real paths of the folders met, while a walk holds them (`folders_known`).
_FOLDERS: dict | None = None


@contextlib.contextmanager
def folders_known():
    """Within it, `real_path` resolves each path once, and a path's folder before it:
    os.path.realpath looks at every component of every path (an lstat each: a tree's
    thousands of files, each some folders deep, each looked up in several phases), here
    only the last component's, below its folder's real path. The
    same answer as realpath's (a link anywhere, a loop, a missing file), but for a link
    retargeted while the block runs: the block is one phase of a run, which reads the
    tree as it was when the phase began."""
    global _FOLDERS
    if _FOLDERS is not None:
        yield
        return
    _FOLDERS = {}
    try:
        yield
    finally:
        _FOLDERS = None


def known_real(path) -> None:
    """Say that `path` is no link (its folder's listing says so): within `folders_known`,
    its real path is its folder's real path and its name, with no look at it."""
    if _FOLDERS is not None:
        name = os.fspath(path)
        if name not in _FOLDERS:
            _FOLDERS[name] = _resolve(name, plain=True)


def _real(path: str) -> str:
    known = _FOLDERS.get(path)
    if known is None:
        known = _FOLDERS[path] = _resolve(path)
    return known


def _resolve(path: str, plain: bool = False) -> str:
    """`path`'s real path below its folder's; `plain`: it is known to be no link."""
    head, tail = os.path.split(path)
    if not head or tail in ("", os.curdir, os.pardir):
        return os.path.realpath(path)
    candidate = os.path.join(_real(head), tail)
    if plain:
        return candidate
    try:
        if not stat.S_ISLNK(os.lstat(candidate).st_mode):
            return candidate
    except OSError:
        return candidate        # missing (or below a loop): realpath keeps the name as it is
    return os.path.realpath(candidate)      # a link: its folder is real, realpath follows the rest


def walk(root: Path, onerror=None):
    """os.walk's top-down walk of `root` (links to folders listed, not followed), with each
    folder's entries (os.DirEntry: the listing's file types, no stat of each file): (the
    folder, its subfolders' entries, which the caller may prune in place, its other entries)."""
    stack = [root]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as listing:
                entries = list(listing)
        except OSError as exc:
            if onerror is not None:
                onerror(exc)
            continue
        folders, files = [], []
        for entry in entries:
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            (folders if is_folder else files).append(entry)
        yield here, folders, files
        stack.extend(here / d.name for d in reversed(folders) if not d.is_symlink())


def below(path, folder) -> str | None:
    """`path` relative to `folder` as a POSIX string ("" for `folder` itself), or None
    where `path` is not `folder` or below it: PurePath.relative_to's answer (lexical, no
    look at the disk) for paths in pathlib's normal form (a Path's, or str of one), by
    string comparison. Python 3.12's relative_to and is_relative_to build and compare
    every parent of the path: a walk asked them for each file of a tree."""
    p, f = os.fspath(path), os.fspath(folder)
    if p == f:
        return ""
    if f in ("", os.curdir):
        return None if os.path.isabs(p) else p
    prefix = f if f.endswith(os.sep) else f + os.sep
    return p[len(prefix):] if p.startswith(prefix) else None


def common_parent(paths: list[str]) -> Path | None:
    """The folder the inputs' paths are mirrored from under -o (their `..` taken as written)."""
    existing = [Path(os.path.abspath(p)) for p in paths if os.path.lexists(p)]
    if not existing:
        return None
    if len(existing) == 1:
        only = existing[0]
        return only if only.is_dir() else only.parent
    return Path(os.path.commonpath([str(p) for p in existing]))


def collisions(claims) -> tuple[set, list[dg.Diagnostic]]:
    """Output paths claimed more than once, from (destination, real file, shown as, owner)
    claims, an owner ("job" or "copy", key): the owners to drop, and an I008 error for each
    path that different files claim (neither is written). Where one file claims a path
    several times (reached by several paths), its translation stays, not a link's copy."""
    by_path: dict = {}
    for dest, real, shown, owner in claims:
        by_path.setdefault(dest, []).append((real, shown, owner))
    dropped, problems = set(), []
    for dest, claimants in by_path.items():
        if len(claimants) < 2:
            continue
        other = next((c for c in claimants if c[0] != claimants[0][0]), None)
        if other is not None:
            problems.append(problem(OUTPUT_COLLISION, other[1], f"{claimants[0][1]} and {other[1]} are different "
                                    f"files with one output path, {dest}; neither is written"))
            dropped |= {owner for _, _, owner in claimants}
        elif any(owner[0] == "job" for _, _, owner in claimants):
            dropped |= {owner for _, _, owner in claimants if owner[0] != "job"}
    return dropped, problems
