"""The batch manifest: which repositories `cu2hip batch` translates, where each one's
output goes and with which options.

Two forms. TOML (a file ending in `.toml`):

    output = "ported"                        # the folder of every repository's output (default: cu2hip-batch)
    options = ["--rocm-version", "6.2"]      # translate options of every repository

    [[repository]]
    path = "repos/solver"                    # a local folder, relative to the manifest
    options = ["--no-fuse"]                  # added after the shared options

    [[repository]]
    git = "https://example.org/team/proj.git"
    ref = "v1.2"                             # a branch, tag or commit (default: the remote's HEAD)
    name = "proj"                            # default: the last part of the path or URL
    output = "out/proj-hip"                  # default: <output>/<name>
    paths = ["src", "include"]               # what to translate (default: the whole repository)

Text (any other name): a repository a line, `SOURCE [REF]`, where SOURCE is a folder or a
git URL; `#` starts a comment. Every repository then gets `<output>/<name>` and the
options of the command line.

Each repository's options are checked here, before any work starts, against `cu2hip
translate`'s own parser: an unknown option, or one that says where the output goes
(`-o`, `--in-place`, `--report` ...), is an error that names the repository.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

# Options that `batch` decides itself, per repository.
_OWN = {"-o", "--output", "--in-place", "--stdout", "--examine", "--report", "--o-stats", "--pre-commit",
        "-j", "--jobs", "--o-dir", "--inplace", "--no-output", "--print-stats-csv", "-q", "--quiet"}
_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[\w.-]+@[\w.-]+:)", re.I)
# A ref is a name git accepts and that no command line can take for an option.
_REF = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./@^~+-]*$")
_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
DEFAULT_OUTPUT = "cu2hip-batch"


class ManifestError(ValueError):
    """A manifest that cannot be used, with the place that says why."""


@dataclass(frozen=True)
class Repository:
    name: str
    output: Path                 # absolute
    path: Path | None = None     # a local folder (absolute), or
    git: str | None = None       # a URL to clone
    ref: str | None = None
    paths: tuple[str, ...] = ()  # relative to the repository's root; () is all of it
    options: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return self.git if self.git is not None else str(self.path)

    def as_task(self) -> dict:
        """What a worker needs, as plain data (a worker may be another machine's Python)."""
        return {"name": self.name, "output": str(self.output), "path": str(self.path) if self.path else None,
                "git": self.git, "ref": self.ref, "paths": list(self.paths), "options": list(self.options)}


@dataclass
class Manifest:
    repositories: list[Repository] = field(default_factory=list)
    output: Path = Path(DEFAULT_OUTPUT)


def load(path: Path, output: str | None = None, options: tuple[str, ...] = ()) -> Manifest:
    """The manifest at `path`. `output` and `options` (the command line's) are the
    defaults: the manifest's top-level `output` wins over the default output, and its
    options come after the command line's."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read the manifest: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ManifestError(f"{path}:{line}: the manifest is not UTF-8") from None
    base = path.resolve().parent
    if path.suffix == ".toml":
        entries, top_output, top_options = _toml(path, text)
    else:
        entries, top_output, top_options = _text(path, text), None, ()
    root = Path(top_output) if top_output else Path(output or DEFAULT_OUTPUT)
    root = root if root.is_absolute() else (base if top_output else Path.cwd()) / root
    manifest = Manifest(output=root)
    names: dict[str, str] = {}
    outputs: dict[Path, str] = {}
    for where, entry in entries:
        repo = _repository(path, where, entry, base, root, (*options, *top_options))
        if repo.name in names:
            raise ManifestError(f"{path}:{where}: the name {repo.name!r} is also that of {names[repo.name]}; "
                                "give one of them a `name`")
        for other, other_where in outputs.items():
            if other == repo.output or other in repo.output.parents or repo.output in other.parents:
                raise ManifestError(f"{path}:{where}: the output {repo.output} overlaps that of {other_where}")
        names[repo.name] = where
        outputs[repo.output] = where
        manifest.repositories.append(repo)
    if not manifest.repositories:
        raise ManifestError(f"{path}: the manifest names no repository")
    return manifest


def _toml(path: Path, text: str):
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: {exc}") from None
    unknown = set(doc) - {"output", "options", "repository"}
    if unknown:
        raise ManifestError(f"{path}: unknown key {sorted(unknown)[0]!r} (known: output, options, repository)")
    repos = doc.get("repository", [])
    if not isinstance(repos, list) or not all(isinstance(r, dict) for r in repos):
        raise ManifestError(f"{path}: `repository` must be an array of tables ([[repository]])")
    output = doc.get("output")
    if output is not None and not isinstance(output, str):
        raise ManifestError(f"{path}: `output` must be a string")
    return ([(f"repository {i + 1}", r) for i, r in enumerate(repos)], output,
            tuple(_strings(path, "the top level", doc.get("options", []), "options")))


def _text(path: Path, text: str):
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not line:
            continue
        words = line.split()
        if len(words) > 2:
            raise ManifestError(f"{path}:{number}: expected `SOURCE [REF]`, got {len(words)} words "
                                "(a TOML manifest takes options per repository)")
        source = words[0]
        entry = {"git": source} if _URL.match(source) or source.endswith(".git") else {"path": source}
        if len(words) == 2:
            entry["ref"] = words[1]
        entries.append((f"line {number}", entry))
    return entries


def _strings(path: Path, where: str, value, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(f"{path}:{where}: `{key}` must be an array of strings")
    return value


def _repository(path: Path, where: str, entry: dict, base: Path, root: Path, options: tuple[str, ...]) -> Repository:
    unknown = set(entry) - {"name", "path", "git", "ref", "output", "paths", "options"}
    if unknown:
        raise ManifestError(f"{path}:{where}: unknown key {sorted(unknown)[0]!r}")
    for key in ("name", "path", "git", "ref", "output"):
        if key in entry and not isinstance(entry[key], str):
            raise ManifestError(f"{path}:{where}: `{key}` must be a string")
    if ("path" in entry) == ("git" in entry):
        raise ManifestError(f"{path}:{where}: give exactly one of `path` (a local folder) and `git` (a URL)")
    ref = entry.get("ref")
    if ref is not None and not _REF.match(ref):
        raise ManifestError(f"{path}:{where}: {ref!r} is not a branch, tag or commit name")
    if "path" in entry and ref is not None:
        raise ManifestError(f"{path}:{where}: `ref` is for a git URL; a local folder is translated as it is")
    git = entry.get("git")
    if git is not None and (git.startswith("-") or not git.strip() or any(c in git for c in "\0\n\r")):
        raise ManifestError(f"{path}:{where}: {git!r} is not a repository URL")
    local = None
    if "path" in entry:
        local = Path(entry["path"])
        local = (local if local.is_absolute() else base / local).resolve()
        if not local.is_dir():
            raise ManifestError(f"{path}:{where}: {local} is not a folder")
    name = entry.get("name") or _default_name(local.name if local else git)
    if not name or name in (".", "..") or _NAME.sub("", name) != name:
        raise ManifestError(f"{path}:{where}: {name!r} cannot name an output folder (letters, digits, '.', '_', "
                            "'-'); give a `name`")
    output = Path(entry["output"]) if "output" in entry else root / name
    output = output if output.is_absolute() else base / output
    paths = tuple(_strings(path, where, entry.get("paths", []), "paths"))
    for p in paths:
        if Path(p).is_absolute() or ".." in Path(p).parts or p.startswith("-"):
            raise ManifestError(f"{path}:{where}: {p!r}: `paths` are folders or files inside the repository")
    own = tuple(_strings(path, where, entry.get("options", []), "options"))
    every = (*options, *own)
    _check_options(path, where, every)
    repo = Repository(name=name, output=Path(os.path.abspath(output)), path=local, git=git, ref=ref, paths=paths,
                      options=every)
    if local is not None and (repo.output == local or local in repo.output.parents
                              or repo.output in local.parents):
        raise ManifestError(f"{path}:{where}: the output {repo.output} overlaps the repository {local}")
    return repo


def _default_name(source: str) -> str:
    last = re.split(r"[/:]", source.rstrip("/"))[-1]
    last = last[:-4] if last.endswith(".git") else last
    return _NAME.sub("-", last).strip("-.")


def _check_options(path: Path, where: str, options: tuple[str, ...]) -> None:
    """Translate's parser takes them, and none of them is one `batch` sets itself."""
    for option in options:
        if option.split("=", 1)[0] in _OWN:
            raise ManifestError(f"{path}:{where}: {option.split('=', 1)[0]} is set by `cu2hip batch` for each "
                                "repository")
    from translator.cli import translate_options_error
    problem = translate_options_error(list(options))
    if problem:
        raise ManifestError(f"{path}:{where}: options {' '.join(options)}: {problem}")
