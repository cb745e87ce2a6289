"""The inputs of a run and the facts that span files.

`Workspace.collect` walks the inputs once: which files are translated (CUDA and C/C++
sources and headers, and the local headers they include whatever their suffix), which
are copied (with `-o`, the rest of the tree), where each one goes, and the problems met
(unreadable paths, FIFOs, links out of the tree). It reads every translated file once
and keeps the bytes, from which it derives the cross-file facts: the qualifier macros
of the whole tree (`#define HOST_DEVICE __host__ __device__` in one header, used in
another) and, after translation, the index of kernels and their launch sites across
translation units. Every command (translate, check, diff) works from one Workspace.

Several inputs under one output folder mirror their paths relative to their common
parent folder (one folder input: its contents; one file: its name), or relative to the
configuration file's folder when the output folder comes from the configuration.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from translator import diagnostics as dg
from translator.frontend import QualifierMacros
from translator.inputs import LINK_OUT_OF_TREE, NOT_REGULAR, UNREADABLE, problem

CUDA_SUFFIXES = frozenset({".cu", ".cuh"})
CXX_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".ipp",
                          ".tpp"})
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


@dataclass(frozen=True)
class Job:
    source: Path          # the file to read
    destination: Path | None   # where its translation goes (-o), None otherwise
    display: str          # the path as diagnostics show it
    included: bool = False  # a local header that a translated file includes, whatever its suffix


@dataclass(frozen=True)
class Selection:
    """What the walk keeps: `output` (mirror under it), whether the whole tree is mirrored,
    the glob patterns, and whether links out of the tree are rewritten (never in place)."""
    output: Path | None = None
    complete: bool = True
    in_place: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    base: Path | None = None      # mirror paths relative to this folder (default: the inputs' common parent)


@dataclass
class KernelEntry:
    """One kernel across the workspace: where it is defined, and every launch of it."""
    name: str
    definitions: list[tuple[str, tuple[int, int]]] = field(default_factory=list)   # (path, span)
    launches: list[tuple[str, object]] = field(default_factory=list)              # (path, LaunchSite)


@dataclass
class Workspace:
    jobs: list[Job]
    copies: list[tuple[Path, Path]]          # (source, destination) copied as they are
    problems: list[dg.Diagnostic]
    contents: dict[Path, bytes]              # each translated file's bytes, read once
    qualifier_macros: frozenset[bytes]

    @classmethod
    def collect(cls, paths: list[str], selection: Selection) -> Workspace:
        walk = _Walk(selection, selection.base.absolute() if selection.base else _common_parent(paths))
        for raw in paths:
            walk.add(raw)
        contents, macros = walk.read()
        # A file found to be an included local header is translated, not copied.
        copies = [(s, d) for s, d in walk.copies if s.is_symlink() or s.resolve() not in walk.jobs]
        return cls(list(walk.jobs.values()), copies, walk.problems, contents, macros)

    def read(self, job: Job) -> bytes | OSError:
        data = self.contents.get(job.source.resolve())
        if data is not None:
            return data
        try:
            return job.source.read_bytes()
        except OSError as exc:
            return exc


def kernel_index(results) -> dict[str, KernelEntry]:
    """Kernels by name across translation units, from translated results (each with its
    IR): a kernel of a `.cuh` launched from several `.cu` files is one entry with every
    launch site."""
    index: dict[str, KernelEntry] = {}
    for result in results:
        module = result.module
        if module is None:
            continue
        for kernel in module.kernels:
            if kernel.body_span is not None:
                index.setdefault(kernel.name, KernelEntry(kernel.name)).definitions.append((result.path, kernel.span))
        for site in module.launches:
            name = site.kernel.rsplit("::", 1)[-1]
            index.setdefault(name, KernelEntry(name)).launches.append((result.path, site))
    return index


def _common_parent(paths: list[str]) -> Path | None:
    """The folder the inputs' paths are mirrored from under -o."""
    existing = [Path(p).absolute() for p in paths if os.path.lexists(p)]
    if not existing:
        return None
    if len(existing) == 1:
        only = existing[0]
        return only if only.is_dir() else only.parent
    return Path(os.path.commonpath([str(p) for p in existing]))


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob as a regex over '/'-separated relative paths: `*` and `?` within a name,
    `**` across folders; a pattern without '/' matches a file name at any depth."""
    if "/" not in pattern.rstrip("/"):
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    # A folder pattern (`third_party/`) takes everything below it.
    return re.compile("".join(out).rstrip("/") + "(?:/.*)?\\Z")


class _Walk:
    def __init__(self, selection: Selection, parent: Path | None):
        self.s, self.parent = selection, parent
        self.jobs: dict[Path, Job] = {}
        self.copies: list[tuple[Path, Path]] = []
        self.problems: list[dg.Diagnostic] = []
        self.trees: list[Path] = []
        self.include = [glob_regex(p) for p in selection.include]
        self.exclude = [glob_regex(p) for p in selection.exclude]
        out = selection.output
        self.out_dir = out.resolve() if out is not None else None

    def destination(self, path: Path) -> Path | None:
        if self.out_dir is None or self.parent is None:
            return None
        return self.out_dir / path.absolute().relative_to(self.parent)

    def chosen(self, rel: str) -> bool:
        """Do the include/exclude globs let this file be translated?"""
        if self.include and not any(p.match(rel) for p in self.include):
            return False
        return not any(p.match(rel) for p in self.exclude)

    def add(self, raw: str) -> None:
        root = Path(raw)
        if not os.path.lexists(raw):
            self.problems.append(problem(UNREADABLE, raw, "no such file or directory"))
            return
        if self.out_dir is not None and root.resolve().is_relative_to(self.out_dir):
            return      # a translation (pre-commit passes the output folder's files too)
        if not root.is_dir():
            if root.exists() and not root.is_file():
                self.problems.append(problem(NOT_REGULAR, raw, "not a regular file; skipped"))
            else:
                self.jobs.setdefault(root.resolve(), Job(root, self.destination(root), str(root)))
            return
        for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: self.problems.append(
                problem(UNREADABLE, e.filename or raw, f"cannot read: {e.strerror}"))):
            here = Path(dirpath)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                 and (self.out_dir is None or (here / d).resolve() != self.out_dir))
            for name in sorted(filenames):
                self.file(here / name, root)
        self.trees.append(root)

    def file(self, path: Path, root: Path) -> None:
        dest = self.destination(path)
        rel = path.relative_to(root).as_posix()
        wanted = (path.suffix in CUDA_SUFFIXES or path.suffix.lower() in CXX_SUFFIXES) and self.chosen(rel)
        mirrored = dest is not None and (wanted or self.s.complete)
        if path.is_symlink():
            # A link to a file of the tree stays a link (its target is translated in its
            # own right); a link out of the tree is translated as a file with -o and
            # left alone in place.
            inside = _inside(Path(os.path.realpath(path)), root)
            if inside or dest is None:
                if inside and mirrored:
                    self.copies.append((path, dest))
                elif not inside and self.s.in_place and wanted:
                    self.problems.append(problem(LINK_OUT_OF_TREE, path, "symbolic link to a file outside the "
                                                 "tree; not rewritten"))
                return
        if path.exists() and not path.is_file():
            # A FIFO, socket or device (or a link to one) is never read: it could block or never end.
            if wanted or mirrored:
                self.problems.append(problem(NOT_REGULAR, path, "not a regular file; skipped"))
            return
        if wanted:
            self.jobs.setdefault(path.resolve(), Job(path, dest, str(path)))
        elif mirrored:
            self.copies.append((path, dest))

    def read(self) -> tuple[dict[Path, bytes], frozenset[bytes]]:
        """Read every file once: add the local headers the files of a tree include
        (`#include "x.inc"`, whatever the suffix), and collect the qualifier macros."""
        macros = QualifierMacros()
        contents: dict[Path, bytes] = {}
        roots = [root.resolve() for root in self.trees]
        pending = list(self.jobs.values())
        while pending:
            job = pending.pop()
            try:
                data = job.source.read_bytes()
            except OSError:
                continue   # reported when the file itself is translated
            contents[job.source.resolve()] = data
            macros.add(data)
            for match in _LOCAL_INCLUDE.finditer(data):
                target = job.source.parent / match.group(1).decode("utf-8", "replace")
                resolved = target.resolve()
                if resolved in self.jobs:
                    # A header a translated file includes is written with it, even unchanged.
                    self.jobs[resolved] = dataclasses.replace(self.jobs[resolved], included=True)
                    continue
                if not target.is_file() or not any(resolved.is_relative_to(r) for r in roots):
                    continue   # outside the trees being translated: left alone
                new = Job(target, self.destination(target), str(target), included=True)
                self.jobs[resolved] = new
                pending.append(new)
        return contents, macros.names()


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root.resolve())
    except ValueError:
        return False
    return path.exists()
