"""Which files of a tree a run takes: `.gitignore` files, and the `--include` and
`--exclude` patterns, all with git's ignore semantics (the `pathspec` library's
GitIgnoreSpec, not hand-written matching).

A tree's `.gitignore` files are read from the tree's folders and from the folders above
it up to the repository's root (the folder holding `.git`), with `.git/info/exclude`;
each applies to the paths below its own folder, a deeper one overriding a shallower one
(`!` re-includes), and an ignored folder is not entered. An ignored file is neither
translated nor copied, as Ruff leaves out what git ignores; a file named on the command
line is always taken, and `--no-ignore` reads no ignore file.

The include and exclude patterns are relative to the project: the configuration file's
folder for the configuration's patterns, the current folder for the command line's (a
pattern with no `/` but a trailing one matches a name at any depth, `dir/x` only at the
project's root, `**/x` anywhere). A file outside the project is matched by its path in
its tree. A pattern that matches no file is reported (I030): a wrong base or a typo
would otherwise exclude nothing without a word.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from translator.catalog import WARNING, rule
from translator.inputs import MAX_FILE_BYTES, read_regular

UNMATCHED = rule(
    "I030", "pattern-matches-nothing", WARNING, "an --include or --exclude pattern matched no file of the trees", """
Patterns are relative to the project (the configuration file's folder for the
configuration's own, the current folder for the command line's) and follow `.gitignore`
rules: `third_party/` or `*.cuh` match at any depth, `src/gen/*.cu` only from the
project's root, `**/gen/*.cu` anywhere. A pattern that matches nothing in the trees the
run walked changes nothing, which is most often a mistake (a path relative to the wrong
folder, a typo): check it against `git ls-files`, which reads paths the same way.""")


def _spec(lines) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _lines(path: Path) -> list[str] | None:
    """The lines of an ignore file, or None when there is none (or it cannot be read)."""
    try:
        data = read_regular(path)
    except OSError:
        return None
    return data[:MAX_FILE_BYTES].decode("utf-8", "surrogateescape").splitlines()


def repository_root(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` that holds `.git`, or None."""
    for here in (folder, *folder.parents):
        if os.path.lexists(here / ".git"):
            return here
    return None


@dataclass
class GitIgnore:
    """The ignore files that apply in one tree, by the folder each applies to."""
    specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = field(default_factory=list)

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
        exclude = _lines(repo / ".git" / "info" / "exclude")
        if exclude:
            ignore.specs.append((repo, _spec(exclude)))
        for folder in reversed(root.parents):
            if folder.is_relative_to(repo):
                ignore.enter(folder)
        return ignore

    def enter(self, folder: Path) -> None:
        """Read `folder`'s own .gitignore (call for each folder walked, parents first)."""
        lines = _lines(folder / ".gitignore")
        if lines:
            self.specs.append((Path(os.path.abspath(folder)), _spec(lines)))

    def ignored(self, path: Path, folder: bool = False) -> bool:
        """Whether git would ignore `path` (a folder when `folder`): the deepest ignore
        file with a pattern for it decides."""
        path = Path(os.path.abspath(path))
        verdict = None
        for home, spec in self.specs:
            if not path.is_relative_to(home) or path == home:
                continue
            rel = path.relative_to(home).as_posix() + ("/" if folder else "")
            result = spec.check_file(rel)
            if result.include is not None:
                verdict = result.include
        return bool(verdict)


class Patterns:
    """The include and exclude patterns of a run, each compiled once, each remembering
    whether it matched a file; `roots` are the folders the two kinds are relative to."""

    def __init__(self, include: tuple[str, ...], exclude: tuple[str, ...], roots: tuple = (None, None)):
        self.roots = tuple(Path(os.path.abspath(r)) if r is not None else None for r in roots)
        self.include = [(p, _spec([p])) for p in include]
        self.exclude = [(p, _spec([p])) for p in exclude]
        self.matched: set[tuple[str, str]] = set()

    def _rel(self, path: Path, tree_rel: str, root: Path | None) -> str:
        if root is not None:
            full = Path(os.path.abspath(path))
            if full.is_relative_to(root):
                return full.relative_to(root).as_posix()
        return tree_rel

    def chosen(self, path: Path, tree_rel: str) -> bool:
        """Do the patterns let `path` (`tree_rel` in its tree) be translated?"""
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
            out += [(str(home), tuple(p.pattern for p in spec.patterns)) for home, spec in GitIgnore.above(Path(raw)).specs]
    return tuple(out)
