"""Which files of a tree a run takes: `.gitignore` files, and the `--include` and
`--exclude` patterns, all with git's ignore semantics (the `pathspec` library's
GitIgnoreSpec, not hand-written matching, on its RE2 back end: a match takes time linear
in the path whatever the pattern).

A tree's `.gitignore` files are read from the tree's folders and from the folders above
it up to the repository's root (the folder holding `.git`), with `.git/info/exclude`;
each applies to the paths below its own folder, a deeper one overriding a shallower one
(`!` re-includes), and an ignored folder is not entered. An ignored file is neither
translated nor copied, as Ruff leaves out what git ignores; a file named on the command
line is always taken, and `--no-ignore` reads no ignore file. A folder named on the
command line that an ignore file above it ignores is not walked, with a warning at the
pattern (I032); an ignore file that is a link, or over 1 MiB, is not read (I031).

The include and exclude patterns are relative to the project: the configuration file's
folder for the configuration's patterns, the current folder for the command line's (a
pattern with no `/` but a trailing one matches a name at any depth, `dir/x` only at the
project's root, `**/x` anywhere). A file outside the project is matched by its path in
its tree. A pattern that matches no file is reported (I030): a wrong base or a typo
would otherwise exclude nothing without a word.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path

from translator.catalog import WARNING, rule
from translator.inputs import below, problem, read_limited

MAX_IGNORE_BYTES = 1024 * 1024

UNMATCHED = rule(
    "I030", "pattern-matches-nothing", WARNING, "an --include or --exclude pattern matched no file of the trees", """
Patterns are relative to the project (the configuration file's folder for the
configuration's own, the current folder for the command line's) and follow `.gitignore`
rules: `third_party/` or `*.cuh` match at any depth, `src/gen/*.cu` only from the
project's root, `**/gen/*.cu` anywhere. A pattern that matches nothing in the trees the
run walked changes nothing, which is most often a mistake (a path relative to the wrong
folder, a typo): check it against `git ls-files`, which reads paths the same way.""")
IGNORE_FILE_SKIPPED = rule(
    "I031", "ignore-file-not-read", WARNING, "a .gitignore that is a symbolic link or too large is not read", f"""
Git follows no symbolic link named `.gitignore` in the working tree (gitignore(5)), and
neither does cu2hip: a link is not read, and the files it would ignore are taken. An
ignore file over {MAX_IGNORE_BYTES} bytes is not read either (a generated or planted file,
whose patterns would cost memory and time on every path); the files it would ignore are
taken. Make the link a file, or split or trim the large one; `--exclude` leaves files out
from the command line.""")
IGNORED_FOLDER = rule(
    "I032", "named-folder-ignored", WARNING, "a folder named on the command line is ignored by a .gitignore", """
A folder given on the command line that a `.gitignore` of the folders above it ignores
(`build/` in the repository's root, and `cu2hip translate build/gen`) has none of its
files taken, so the run finds nothing there; the warning is at the pattern that ignores
it. `--no-ignore` takes its files (as `git add -f` adds an ignored path). A file named
on the command line is always taken.""")


def _spec(lines) -> pathspec.GitIgnoreSpec:
    # RE2 matches in time linear in the path, where Python's backtracking re takes time
    # exponential in a pattern's wildcards (`a*a*a*a*a*a*a*a*b` against a long name).
    # Imported here (20 ms): a run replayed from its record, or over a tree without
    # .gitignore files and patterns, matches nothing.
    import pathspec
    return pathspec.GitIgnoreSpec.from_lines(lines, backend="re2")


@dataclass(frozen=True)
class IgnoreFile:
    """One ignore file's patterns, applying below `home`; `lines` are the line numbers
    of its non-empty lines, which are the spec's patterns in order."""
    home: Path
    path: Path
    spec: pathspec.GitIgnoreSpec
    lines: tuple[int, ...]

    @classmethod
    def read(cls, home: Path, path: Path, problems: list, follow: bool = False) -> IgnoreFile | None:
        """The ignore file at `path`, or None when there is none, or it is not read: a
        symbolic link unless `follow` (git follows none in the working tree), or a file
        over MAX_IGNORE_BYTES (both reported in `problems`)."""
        if not follow and os.path.islink(path):
            problems.append(problem(IGNORE_FILE_SKIPPED, path, "a symbolic link: not read (git follows no link "
                                    "named .gitignore); the files it would ignore are taken"))
            return None
        try:
            data = read_limited(path, MAX_IGNORE_BYTES)
        except OSError as exc:
            if exc.errno == errno.EFBIG:
                problems.append(problem(IGNORE_FILE_SKIPPED, path, f"larger than the {MAX_IGNORE_BYTES}-byte limit "
                                        "for an ignore file: not read; the files it would ignore are taken"))
            return None
        numbered = [(n, line) for n, line in enumerate(data.decode("utf-8", "surrogateescape").splitlines(), 1)
                    if line]
        if not numbered:
            return None
        return cls(Path(os.path.abspath(home)), path, _spec(line for _, line in numbered),
                   tuple(n for n, _ in numbered))

    def check(self, path: Path, folder: bool) -> tuple[bool | None, int]:
        """(whether a pattern ignores `path` (None: no pattern is about it), the index of
        the one that decides)."""
        rel = below(path, self.home)
        if not rel:
            return None, -1
        result = self.spec.check_file(rel + ("/" if folder else ""))
        return result.include, (-1 if result.index is None else result.index)

    def pattern(self, index: int) -> tuple[int, str]:
        """The line number and text of the pattern at `index`."""
        return self.lines[index], self.spec.patterns[index].pattern


def repository_root(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` that holds `.git`, or None."""
    for here in (folder, *folder.parents):
        if os.path.lexists(here / ".git"):
            return here
    return None


@dataclass
class GitIgnore:
    """The ignore files that apply in one tree, parents first; `problems` gets those
    not read (I031)."""
    files: list[IgnoreFile] = field(default_factory=list)
    problems: list = field(default_factory=list)

    @classmethod
    def above(cls, root: Path) -> GitIgnore:
        """The ignore files of the folders above `root` (a tree's folder), up to its
        repository's root, with that repository's `.git/info/exclude`; none outside a
        repository."""
        root = Path(os.path.abspath(root))
        repo = repository_root(root)
        ignore = cls()
        if repo is None:
            return ignore
        exclude = IgnoreFile.read(repo, repo / ".git" / "info" / "exclude", ignore.problems, follow=True)
        if exclude is not None:
            ignore.files.append(exclude)
        for folder in reversed(root.parents):
            if folder.is_relative_to(repo):
                ignore.enter(folder)
        return ignore

    def enter(self, folder: Path) -> None:
        """Read `folder`'s own .gitignore (call for each folder walked, parents first)."""
        found = IgnoreFile.read(folder, folder / ".gitignore", self.problems)
        if found is not None:
            self.files.append(found)

    def deciding(self, path: Path, folder: bool = False) -> tuple[IgnoreFile, int] | None:
        """The ignore file and index of the pattern that ignores `path` (a folder when
        `folder`): the deepest ignore file with a pattern for it decides; None when
        `path` is not ignored."""
        path = Path(os.path.abspath(path))
        verdict = None
        for ignore_file in self.files:
            include, index = ignore_file.check(path, folder)
            if include is not None:
                verdict = (ignore_file, index) if include else None
        return verdict

    def ignored(self, path: Path, folder: bool = False) -> bool:
        """Whether git would ignore `path` (a folder when `folder`)."""
        return self.deciding(path, folder) is not None

    def ignored_folder(self, root: Path) -> tuple[IgnoreFile, int, Path] | None:
        """Where `root` (a folder named on the command line) is ignored by the files read
        so far (those above it): the file and index of the pattern, and the folder it
        ignores, `root` or the outermost folder above it in the repository; else None."""
        root = Path(os.path.abspath(root))
        homes = [f.home for f in self.files]
        if not homes:
            return None
        top = min(homes, key=lambda h: len(h.parts))
        for folder in [*reversed(root.parents), root]:
            if folder.is_relative_to(top) and folder != top:
                hit = self.deciding(folder, folder=True)
                if hit is not None:
                    return hit[0], hit[1], folder
        return None


class Patterns:
    """The include and exclude patterns of a run, each compiled once, each remembering
    whether it matched a file; `roots` are the folders the two kinds are relative to."""

    def __init__(self, include: tuple[str, ...], exclude: tuple[str, ...], roots: tuple = (None, None)):
        self.roots = tuple(Path(os.path.abspath(r)) if r is not None else None for r in roots)
        self.include = [(p, _spec([p])) for p in include]
        self.exclude = [(p, _spec([p])) for p in exclude]
        self.matched: set[tuple[str, str]] = set()

    def _rel(self, path: Path, tree_rel, root: Path | None) -> str:
        if root is not None:
            rel = below(os.path.abspath(path), root)
            if rel is not None:
                return rel or "."
        return tree_rel() if callable(tree_rel) else tree_rel

    def chosen(self, path: Path, tree_rel) -> bool:
        """Do the patterns let `path` (`tree_rel` in its tree: a string, or a function
        that gives it) be translated?"""
        if not self.include and not self.exclude:
            return True
        rel_in, rel_out = (self._rel(path, tree_rel, root) for root in self.roots)
        hits_in = [p for p, spec in self.include if spec.match_file(rel_in)]
        hits_out = [p for p, spec in self.exclude if spec.match_file(rel_out)]
        self.matched.update([("include", p) for p in hits_in] + [("exclude", p) for p in hits_out])
        return (not self.include or bool(hits_in)) and not hits_out

    def unmatched(self) -> list[tuple[str, str, Path | None]]:
        """("include" or "exclude", pattern, its folder) for each pattern that matched no file."""
        return [(kind, p, root) for kind, pats, root in (("include", self.include, self.roots[0]),
                                                         ("exclude", self.exclude, self.roots[1]))
                for p, _ in pats if (kind, p) not in self.matched]


def ignore_files_above(paths) -> tuple:
    """The ignore rules that apply to the trees among `paths` from outside them (the
    folders above, up to the repository's root): what a record of a run must key on,
    since it stats only the files inside the trees."""
    out = []
    for raw in paths:
        if os.path.isdir(raw):
            out += [(str(f.home), tuple(p.pattern for p in f.spec.patterns)) for f in GitIgnore.above(Path(raw)).files]
    return tuple(out)
