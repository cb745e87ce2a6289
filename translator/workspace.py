"""The inputs of a run and the facts that span files.

`Workspace.collect` walks the inputs once: which files are translated (CUDA and C/C++
sources and headers, the local headers they include whatever their suffix, and the build
files: CMake's and Make's, translated as such, never parsed as CUDA), which
are copied (with `-o`, the rest of the tree), where each one goes, and the problems met
(unreadable paths, link loops, FIFOs and devices, which are never read, links out of the
tree, output paths that two files claim). It reads every translated file once and keeps
the bytes, from which it derives the cross-file facts: the qualifier macros of the whole
tree (`#define HOST_DEVICE __host__ __device__` in one header, used in another), the
CUDA-shaped names the tree declares itself (`#define CUDA_CHECK`) and, after translation, the index of kernels and their launch sites across translation
units. Every command (translate, check, diff) works from one Workspace.

Several inputs under one output folder mirror their paths relative to their common
parent folder (one folder input: its contents; one file: its name), or relative to the
configuration file's folder when the output folder comes from the configuration. A link
of a tree to a file of the tree is mirrored as a relative link to that file's mirror.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from translator import diagnostics as dg
from translator.filescan import Scans, read_and_scan, scan
from translator.ignore import IGNORED_FOLDER, UNMATCHED, GitIgnore, Patterns
from translator.inputs import (FOLDER_LINK_OUT_OF_TREE, LINK_OUT_OF_TREE, LOOP, MISSING, NOT_REGULAR,
                               OUTSIDE_MIRRORED, REGULAR, SPECIAL, TEMPORARY, UNREADABLE, below, collisions,
                               common_parent, folders_known, known_real, kind, problem, read_regular, real_path, walk)
from translator.macrotext import QualifierMacros
from translator.source import build_kind

CUDA_SUFFIXES = frozenset({".cu", ".cuh"})
CXX_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".ipp",
                          ".tpp"})


@dataclass(frozen=True)
class Job:
    source: Path          # the file to read
    destination: Path | None   # where its translation goes (-o), None otherwise
    display: str          # the path as diagnostics show it
    included: bool = False  # a local header that a translated file includes, whatever its suffix
    also: tuple[Path, ...] = ()   # where else it goes: the same file, reached by other paths
    real: Path | None = None      # the source with its links followed, as the walk found it

    def resolved(self) -> Path:
        """The source's real path: the walk's, else found now."""
        return self.real if self.real is not None else real_path(self.source)


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
    project: Path | None = None   # the configuration's folder: the project whose launches count (translator.universe)
    skip: tuple[Path, ...] = ()   # folders of the project that hold no program (the configured output)
    patterns_root: tuple = (None, None)   # what include and exclude are relative to (translator.ignore)
    gitignore: bool = True        # leave out what the trees' .gitignore files ignore
    dependents: bool = False      # also the project's files whose translation reads the inputs (a commit's)
    stdin: tuple[str, bytes] | None = None   # (name, bytes): the input `-`, read from standard input


@dataclass
class Workspace:
    jobs: list[Job]
    copies: list[tuple[Path, Path]]          # (source, destination) copied as they are
    problems: list[dg.Diagnostic]
    contents: dict[Path, bytes]              # each translated file's bytes, read once
    qualifier_macros: frozenset[bytes]
    declared_names: frozenset[bytes] = frozenset()      # CUDA-shaped names the tree declares (cudanames)
    links: dict[Path, str] = field(default_factory=dict)   # a copied link's destination: its target
    onto_inputs: list[str] = field(default_factory=list)   # inputs the output folder would overwrite
    # The project's folder (the configuration's, else the inputs' common folder when a
    # folder is given; None: the files given are all there is) and the output folder in it.
    project: Path | None = None
    skip: tuple[Path, ...] = ()
    missing: list[str] = field(default_factory=list)       # inputs that do not exist (the command fails)
    leftovers: list[Path] = field(default_factory=list)    # the tool's own temporary files met (never read)
    _project_files: list[tuple[Path, str]] | None = field(default=None, repr=False)
    # Each file's Scan (translator.filescan), read with its bytes: the local headers and
    # the launch universe read them, not the text again.
    scans: Scans = field(default_factory=Scans, repr=False)
    # The run's pool of workers (translator.commands.run.RunPool), started when the walk
    # found enough files for `workers`; the batch takes it for its phases.
    pool: object = field(default=None, repr=False, compare=False)
    _project_walk: object = field(default=None, repr=False, compare=False)    # the pool's walk of the project

    @classmethod
    def collect(cls, paths: list[str], selection: Selection, workers: int = 1) -> Workspace:
        """`workers`: the run's; with more than one and enough files, the files are read
        and scanned in a pool of that many workers, which the run's batch then uses."""
        with folders_known():       # each folder's real path found once
            return cls._collect(paths, selection, workers)

    @classmethod
    def _collect(cls, paths: list[str], selection: Selection, workers: int = 1) -> Workspace:
        base = Path(os.path.abspath(selection.base)) if selection.base else common_parent(paths)
        walk = _Walk(selection, base)
        for raw in paths:
            walk.add(raw)
        if walk.trees:
            walk.problems += [problem(UNMATCHED, walk.trees[0], f"{option} pattern {pattern!r} matched no file "
                                      f"under {', '.join(map(str, walk.trees))} (patterns are relative to "
                                      f"{root or 'each tree'})")
                              for option, pattern, root in walk.patterns.unmatched()]
        project = selection.project or (base if walk.trees else None)
        if selection.dependents and project is not None:
            walk.dependents(project)
        skip = tuple(p for p in (selection.output, *selection.skip) if p is not None)
        pool = project_walk = None
        if workers > 1:
            from translator.commands.run import start_pool
            pool = start_pool(workers, len(walk.jobs))
        try:
            if pool is not None and project is not None:
                from translator.universe import project_files
                project_walk = pool.submit(project_files, project, skip)    # a worker walks it meanwhile
            contents, macros, declared, scans = walk.read(pool)
            jobs, copies = walk.settle()
        except BaseException:
            if pool is not None:
                pool.close()
            raise
        return cls(jobs, copies, walk.problems, contents, macros, declared, walk.links, walk.onto, project, skip,
                   missing=walk.missing, leftovers=walk.leftovers, scans=scans, pool=pool,
                   _project_walk=project_walk)

    def project_files(self) -> list[tuple[Path, str]]:
        """The project's C, C++ and CUDA files (translator.universe.project_files), walked
        once a run: the local headers and the launch index both read them."""
        if self._project_files is None and self._project_walk is not None:
            walked, self._project_walk = self._project_walk, None
            try:
                self._project_files = walked.result()
            except Exception:       # noqa: BLE001  the pool stopped before it (walked below)
                pass
        if self._project_files is None:
            from translator.universe import project_files
            self._project_files = project_files(self.project, self.skip) if self.project is not None else []
        return self._project_files

    def scan_project(self, pool) -> None:
        """Read and scan in `pool` the project's files that the walk did not (the local
        headers and the launch universe read them: translator.filescan.Scans.project_file)."""
        if self.project is None:
            return
        todo = [(path, real) for path, _ in self.project_files()
                if (real := real_path(path)) not in self.scans.known and real not in self.contents]
        if not todo:
            return
        count = len(todo)
        for (_, real), got in zip(todo, pool.map(read_and_scan, [str(path) for path, _ in todo], [False] * count,
                                                 [False] * count)):
            if got is not None:
                self.scans.keep(real, *got)

    def close(self) -> None:
        """Stop the pool the walk started, where no batch took it (the command ends early)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def read(self, job: Job) -> bytes | OSError:
        data = self.contents.get(job.resolved())
        if data is not None:
            return data
        try:
            return read_regular(job.source)
        except OSError as exc:
            return exc


class _Walk:
    def __init__(self, selection: Selection, parent: Path | None):
        self.s, self.parent = selection, parent
        self.jobs: dict[Path, Job] = {}          # by the real path of the file
        self.copies: list[tuple[Path, Path]] = []
        self.links: dict[Path, str] = {}
        self.problems: list[dg.Diagnostic] = []
        self.onto: list[str] = []
        self.missing: list[str] = []
        self.leftovers: list[Path] = []
        self.trees: list[Path] = []
        self.patterns = Patterns(selection.include, selection.exclude, selection.patterns_root)
        self.out_dir = real_path(selection.output) if selection.output is not None else None

    def destination(self, path: Path) -> Path | None:
        """Where `path` is mirrored (its `..` taken as written); ValueError outside the parent."""
        if self.out_dir is None or self.parent is None:
            return None
        rel = os.path.relpath(os.path.abspath(path), self.parent)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            raise ValueError(rel)
        return self.out_dir / rel


    def job(self, path: Path, dest: Path | None) -> None:
        """Translate `path` once, whatever the number of paths it is reached by."""
        known = self.jobs.get(real := real_path(path))
        if known is None:
            self.jobs[real] = Job(path, dest, str(path), real=real)
        elif dest is not None and dest != known.destination and dest not in known.also:
            self.jobs[real] = dataclasses.replace(known, also=known.also + (dest,))

    def add(self, raw: str) -> None:
        root = Path(raw)
        if self.s.stdin is not None and raw == self.s.stdin[0]:
            self.job(root, None)      # standard input: the file of this name is not read
            return
        if kind(raw) == MISSING:
            self.problems.append(problem(UNREADABLE, raw, "a symbolic link to nothing" if os.path.lexists(raw)
                                         else "no such file or directory"))
            self.missing.append(raw)
            return
        try:
            dest = self.destination(root)
        except ValueError:
            self.problems.append(problem(OUTSIDE_MIRRORED, raw, f"outside {self.parent}, the folder the output "
                                         "folder mirrors; not translated"))
            return
        if dest is not None and real_path(dest) == real_path(root):
            self.onto.append(raw)   # -o would overwrite the input itself
            return
        if self.out_dir is not None and real_path(root).is_relative_to(self.out_dir):
            return      # a translation (pre-commit passes the output folder's files too)
        if not root.is_dir():
            if kind(root) == LOOP:
                self.missing.append(raw)       # named, and cannot be read: the command fails
            if not self.refused(root, kind(root)):
                self.job(root, dest)    # a missing one is reported when it is read
            return
        # Links to folders are not followed (os.walk's default): a link loop cannot recur.
        ignore = GitIgnore.above(root) if self.s.gitignore else None
        if ignore is not None and self.ignored_folder(raw, root, ignore):
            self.trees.append(root)
            return
        for here, dirnames, files in walk(root, lambda e: self.problems.append(
                problem(UNREADABLE, e.filename or raw, f"cannot read: {e.strerror}"))):
            if ignore is not None:
                ignore.enter(here)
            dirnames[:] = sorted((d for d in dirnames if not d.name.startswith(".")
                                 and (self.out_dir is None or real_path(here / d.name) != self.out_dir)
                                 and not (ignore is not None and ignore.ignored(here / d.name, folder=True))),
                                 key=lambda d: d.name)
            for d in [d for d in dirnames if d.is_symlink()]:
                self.folder_link(here / d.name, root)
            for entry in sorted(files, key=lambda e: e.name):
                if TEMPORARY.match(entry.name):
                    self.leftovers.append(here / entry.name)
                    continue
                if ignore is None or not ignore.ignored(here / entry.name):
                    self.file(here / entry.name, root, entry)
        if ignore is not None:
            self.ignore_problems(ignore)
        self.trees.append(root)

    def ignored_folder(self, raw: str, root: Path, ignore: GitIgnore) -> bool:
        """Whether the folder `root`, named on the command line, is ignored by an ignore
        file above it (then not walked, with a warning at the pattern: the run would
        otherwise find nothing there without a word)."""
        hit = ignore.ignored_folder(root)
        self.ignore_problems(ignore)
        if hit is None:
            return False
        ignore_file, index, folder = hit
        line, pattern = ignore_file.pattern(index)
        what = f"{raw}, named on the command line," if folder == Path(os.path.abspath(root)) \
            else f"{folder}, the folder of {raw} named on the command line,"
        self.problems.append(dg.Diagnostic(str(ignore_file.path), line, 1, IGNORED_FOLDER.severity,
                                           f"{what} is ignored by the pattern {pattern!r}: none of its files are "
                                           "taken; --no-ignore takes them", IGNORED_FOLDER.id))
        return True

    def ignore_problems(self, ignore: GitIgnore) -> None:
        """The ignore files not read (I031), each reported once."""
        self.problems += [d for d in dict.fromkeys(ignore.problems) if d not in self.problems]
        ignore.problems.clear()

    def dependents(self, project: Path) -> None:
        """Add the project's files whose translation reads the files chosen so far
        (translator.universe.affected: the headers' includers, a kernel's file and its
        launchers), where a run over the project would translate them: not ignored, not
        excluded, inside the mirrored folder."""
        from translator.universe import affected, project_files
        jobs = []
        for real, job in self.jobs.items():
            try:
                jobs.append((real, job.display, read_regular(job.source)))
            except OSError:
                continue
        skip = tuple(p for p in (self.s.output, *self.s.skip) if p is not None)
        for path, display in affected(jobs, project_files(project, skip)):
            if self.s.gitignore:
                ignore = GitIgnore.above(path.parent)
                ignore.enter(path.parent)
                self.ignore_problems(ignore)
                if ignore.ignored(path):
                    continue
            if not self.patterns.chosen(path, os.path.relpath(path, project)):
                continue
            try:
                dest = self.destination(Path(display))
            except ValueError:
                continue
            self.job(Path(display), dest)

    def folder_link(self, path: Path, root: Path) -> None:
        """A link to a folder (never followed): mirrored as a link to the folder's mirror when
        the folder is in the tree (its files are translated where they are), else a warning."""
        real, home = real_path(path), real_path(root)
        if real.is_relative_to(home) and real.is_dir():
            dest = self.destination(path)
            if dest is not None and self.s.complete:
                self.copies.append((path, dest))
                self.links[dest] = os.path.relpath(self.destination(root / real.relative_to(home)), dest.parent)
            return
        self.problems.append(problem(FOLDER_LINK_OUT_OF_TREE, path, f"symbolic link to a folder outside the tree "
                                     f"({real}); not followed: neither translated nor mirrored"))

    def file(self, path: Path, root: Path, entry: os.DirEntry) -> None:
        """`entry`: the walk's entry of `path` (what the folder's listing says of it: a
        plain file needs no system call to be known as one)."""
        dest = self.destination(path)
        # For every file: a pattern's match is recorded.
        chosen = self.patterns.chosen(path, lambda: below(path, root))
        wanted = (path.suffix in CUDA_SUFFIXES or path.suffix.lower() in CXX_SUFFIXES
                  or build_kind(path) is not None) and chosen
        mirrored = dest is not None and (wanted or self.s.complete)
        if not wanted and not mirrored:
            return
        link = entry.is_symlink()
        if not link and entry.is_file(follow_symlinks=False):
            what = REGULAR
            known_real(path)    # no link: below its folder's real path
        else:
            what = kind(path)
        if self.refused(path, what):
            return
        if link:
            # A link to a file of the tree stays a link, to that file's mirror (translated in
            # its own right); a link out of the tree is translated as a file with -o, left alone
            # in place.
            real, home = real_path(path), real_path(root)
            if what != MISSING and real.is_relative_to(home):
                if mirrored:
                    self.copies.append((path, dest))
                    target = self.destination(root / real.relative_to(home))
                    self.links[dest] = os.path.relpath(target, dest.parent)
                return
            if dest is None:
                if self.s.in_place and wanted:
                    self.problems.append(problem(LINK_OUT_OF_TREE, path, "symbolic link to a file outside the "
                                                 "tree; not rewritten"))
                return
        if wanted:
            self.job(path, dest)
        else:
            self.copies.append((path, dest))

    def refused(self, path: Path, what: str) -> bool:
        """A link loop cannot be read; a FIFO, socket or device (or a link to one) is never
        read: it could block or never end."""
        if what in (LOOP, SPECIAL):
            self.problems.append(problem(UNREADABLE, path, "cannot read: symbolic link loop; skipped") if what == LOOP
                                 else problem(NOT_REGULAR, path, "not a regular file; skipped"))
        return what in (LOOP, SPECIAL)

    def read(self, pool=None) -> tuple[dict[Path, bytes], frozenset[bytes], frozenset[bytes], Scans]:
        """Read and scan every file once (translator.filescan: in `pool` where there is one,
        the files the walk found; the headers found by their includes here): add the local
        headers the files of a tree include (`#include "x.inc"`, whatever the suffix), and
        collect the qualifier macros and the CUDA-shaped names the files declare."""
        macros = QualifierMacros()
        contents: dict[Path, bytes] = {}
        scans = Scans()
        declared: set[bytes] = set()
        roots = [(root, real_path(root)) for root in self.trees]
        pending = list(self.jobs.values())
        stdin = self.s.stdin
        ahead: dict[Path, tuple | None] = {}
        if pool is not None:
            todo = [job for job in pending if stdin is None or job.display != stdin[0]]
            builds = [build_kind(job.source) is None for job in todo]
            ahead = dict(zip([job.resolved() for job in todo],
                             pool.map(read_and_scan, [str(job.source) for job in todo], builds, [True] * len(todo))))
        while pending:
            job = pending.pop()
            build = build_kind(job.source) is not None
            if stdin is not None and job.display == stdin[0]:
                data, found = stdin[1], scan(stdin[1], not build)
            elif job.resolved() in ahead:
                got = ahead.pop(job.resolved())
                if got is None:
                    continue   # reported when the file itself is translated
                data, found = got
            else:
                try:
                    data = read_regular(job.source)
                except OSError:
                    continue   # reported when the file itself is translated
                found = scan(data, not build)
            contents[job.resolved()] = data
            scans.keep(job.resolved(), data, found)
            declared |= found.declared
            if build:
                continue    # a build file: no C preprocessor in it
            macros.merge(found.macros)
            for name in found.includes:
                target = job.source.parent / name
                resolved = real_path(target)
                if resolved in self.jobs:
                    # A header a translated file includes is written with it, even unchanged.
                    self.jobs[resolved] = dataclasses.replace(self.jobs[resolved], included=True)
                    continue
                home = next((r for r in roots if below(resolved, r[1]) is not None), None)
                if home is None or kind(target) != REGULAR:
                    continue   # outside the trees being translated, or not a file: left alone
                # Mirrored where the file is, whatever the path that includes it.
                dest = self.destination(home[0] / below(resolved, home[1]))
                new = self.jobs[resolved] = Job(target, dest, str(target), included=True, real=resolved)
                pending.append(new)
        return contents, macros.names(), frozenset(declared), scans

    def settle(self) -> tuple[list[Job], list[tuple[Path, Path]]]:
        """The jobs and copies, each output path written once (see `collisions`); a file
        found to be an included header is translated, not copied."""
        copies = [(s, d) for s, d in self.copies if s.is_symlink() or real_path(s) not in self.jobs]
        claims = [(dest, real, job.display, ("job", real)) for real, job in self.jobs.items()
                  for dest in (job.destination, *job.also) if dest is not None]
        claims += [(dst, real_path(src), str(src), ("copy", dst)) for src, dst in copies]
        dropped, problems = collisions(claims)
        self.problems += problems
        first = {dst: src for src, dst in reversed(copies) if ("copy", dst) not in dropped}
        return ([j for r, j in self.jobs.items() if ("job", r) not in dropped],
                [(s, d) for s, d in copies if first.get(d) is s])


def local_headers(workspace: Workspace, probed: set[str] | None = None) -> tuple[tuple[str, bytes], ...]:
    """(real path, bytes) of every local header (`#include "x.h"`, found next to the file
    that includes it) of the files translated and of the project: their macros and
    constants are read by the files that include them (translator.ir.host_values).
    `probed` gets the path of every header looked for, found or not: a run's record
    (translator.runcache) is out of date when one of them changes, or appears."""
    files: dict[Path, bytes] = {}     # each file once: a translated file is mostly one of the project's too
    for job in workspace.jobs:
        data = workspace.read(job)
        if isinstance(data, bytes):
            files.setdefault(job.resolved(), data)
    if workspace.project is not None:
        for path, _ in workspace.project_files():
            real = real_path(path)
            if real in files:
                continue
            data = workspace.contents.get(real)
            if data is None:
                got = workspace.scans.project_file(path, real)
                if got is None:
                    continue
                data = got[0]
            files[real] = data
    todo = list(files.items())
    found: dict[str, bytes] = {}
    seen = {str(real) for real in files}
    scans = workspace.scans
    while todo:
        real, data = todo.pop()
        for name in scans.includes(real, data):
            target = real_path(real.parent / name)
            if probed is not None:
                # As written, the system resolving it: a link retargeted is seen too.
                probed.add(str(real.parent / name))
            if str(target) in found:
                continue
            text = workspace.contents.get(target)
            if text is None and target in scans.known:
                text = scans.known[target][0]
            if text is None:
                if kind(target) != REGULAR:
                    continue
                try:
                    text = read_regular(target)
                except OSError:
                    continue
            found[str(target)] = text
            if str(target) not in seen:
                seen.add(str(target))
                todo.append((target, text))
    return tuple(sorted(found.items()))


def launch_index(workspace: Workspace, cache=None, headers: tuple[tuple[str, bytes], ...] = (), mapper=None) \
        -> tuple:
    """The launch index alone (`launch_indexes`)."""
    return launch_indexes(workspace, cache, headers, mapper)[0]


def launch_indexes(workspace: Workspace, cache=None, headers: tuple[tuple[str, bytes], ...] = (), mapper=None) \
        -> tuple[tuple, tuple]:
    """The launches, with their block sizes or why they are unknown, and every other use,
    of the kernels that can be launched from another file than their own (per kernel and
    defining file, translator.universe.Entry), over the whole project whatever
    files the command was given (translator.universe): what the launch-bounds and
    rebalancing passes read for such a kernel. Another program's kernel of the same name
    is another kernel: only files that include the defining file, or declare the kernel
    without seeing a definition of their own, count. `mapper`: how each file's launch
    facts are computed (translator.universe.launch_index; a pool of workers). With it, the
    template index (translator.universe.template_index), which those facts read."""
    from translator.universe import launch_indexes as index
    jobs = []
    for job in workspace.jobs:
        data = workspace.read(job)
        if isinstance(data, bytes):
            jobs.append((job.resolved(), job.display, data))
    project = workspace.project_files() if workspace.project is not None else None
    return index(jobs, project, workspace.qualifier_macros, cache, headers, mapper, workspace.scans)
