"""Configuration files: `[tool.cu2hip]` in pyproject.toml, or a cu2hip.toml (top-level keys).

Precedence, highest first:
1. command-line flags (merged by the CLI over the Config returned here);
2. the file named by `--config FILE` (`load(paths, explicit=FILE)`); a file named
   pyproject.toml is read from its [tool.cu2hip] table, any other name from its top level;
3. the file found by `find_config`: from each input (a file's folder, or the folder itself)
   walk up to the filesystem root; in each folder a cu2hip.toml wins over a pyproject.toml,
   and a pyproject.toml counts only if it has a [tool.cu2hip] table. The search stops at the
   first folder that has one. Inputs are tried in order and the first input that finds a file
   is the run's configuration (its output, patterns, jobs, project); each file's translation
   options come from the file `find_config([its folder])` finds (translator.settings.Nearest),
   as Ruff's do, so that two projects in one run keep their own settings.
4. nothing: an empty `Config()`.

Relative paths in a file (`output`, `rules`) are relative to the file's folder; `~` is expanded.
Every error is a ConfigError located at PATH:LINE:COL (the first one, in file order): where
tomllib reports a syntax error, else at the key for an unknown key (a nested table counts) or a
bad value. tomllib gives no positions, so `locate` finds keys with a small scanner of valid TOML.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from translator.inputs import LOOP, MISSING, REGULAR, SPECIAL, kind, read_limited

_NOT_A_FILE = {MISSING: "missing or unreadable", LOOP: "a loop of symbolic links",
               SPECIAL: "not a regular file (a folder, FIFO or device)"}

class ConfigError(Exception):
    def __init__(self, path: str | Path, line: int, col: int, key: str | None, message: str):
        self.path, self.line, self.col, self.key, self.message = str(path), line, col, key, message
        super().__init__(self.path, line, col, key, message)   # picklable: args rebuild it

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: error: {self.message}"


@dataclass(frozen=True)
class Config:
    path: Path | None = None          # the file it came from
    root: Path | None = None          # that file's folder
    output: Path | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    rocm_version: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    rules: tuple[Path, ...] = ()
    target: str | None = None
    jobs: int | None = None
    roc: bool | None = None
    miopen: bool | None = None
    experimental: bool | None = None
    hip_kernel_execution_syntax: bool | None = None
    only_translated: bool | None = None
    strict: bool | None = None
    # The passes' declared options (translator.passes.PassOption) the file sets, by Options field.
    passes: dict = field(default_factory=dict)
    offload_arch: tuple[str, ...] = ()
    compile_timeout: float | None = None
    # Where each key is, (line, col) by its TOML name: for errors found after loading.
    at: dict = field(default_factory=dict, compare=False)

    def check_rules_files(self) -> None:
        """A ConfigError at the `rules` key for a rules file it names that is not a readable
        regular file (the rules loader would name the file, not the key)."""
        for path in self.rules:
            what = kind(path)
            if what != REGULAR:
                raise self.error("rules", f"'rules' names {path}, which is {_NOT_A_FILE[what]}")

    def error(self, key: str, message: str) -> ConfigError:
        """A ConfigError at `key` of this file."""
        line, col = self.at.get(key, (1, 1))
        return ConfigError(self.path, line, col, key, message)

    def describe_rocm_version(self) -> str:
        """'6.2 (from /x/pyproject.toml)'; 'not set' when the file does not say."""
        if self.rocm_version is None:
            return "not set"
        return f"{self.rocm_version} (from {self.path})" if self.path else self.rocm_version


class _Bad(Exception):
    """A bad value: the message after the key's name."""


def _show(value) -> str:
    """A value as the message shows it: 'two', 0, true, [1, 2], a table."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = "[" + ", ".join(map(_show, value)) + "]" if isinstance(value, list) else \
        repr(value) if isinstance(value, (str, int, float)) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fits(pattern: str):
    """Whether a value is a string that matches `pattern` in full."""
    return lambda v: isinstance(v, str) and re.fullmatch(pattern, v) is not None


def _resolve(v: str, root: Path) -> Path:
    return Path(os.path.normpath(root / Path(v).expanduser()))


def _one(expected: str, ok, convert=lambda v, root: v):
    """A validator of one value: `ok(value)` or "'KEY' must be EXPECTED, not VALUE"."""
    def check(value, root: Path):
        if not ok(value):
            raise _Bad(f"must be {expected}, not {_show(value)}")
        return convert(value, root)
    return check


def _many(expected: str = "", ok=_fits("(?s).+"), convert=lambda v, root: v):
    """A validator of an array of non-empty strings, each `ok` (else "entries must be EXPECTED")."""
    def check(value, root: Path) -> tuple:
        if not isinstance(value, list):
            raise _Bad(f"must be an array of strings, not {_show(value)}")
        for v in value:
            if not ok(v):
                raise _Bad(f"entries must be {expected or 'non-empty strings'}, not {_show(v)}")
        return tuple(convert(v, root) for v in value)
    return check


_bool = _one("true or false", lambda v: isinstance(v, bool))
_rule_ids = _many("rule ids or prefixes such as 'E' or 'W012', or 'ALL'", _fits("[A-Z][0-9]{0,3}|ALL"))

# TOML key -> (Config field, validator(value, root) -> field value). Adding a key is one line here.
KEYS = {
    "output": ("output", _one("a path (a non-empty string)", _fits("(?s).+"), _resolve)),
    "include": ("include", _many()),
    "exclude": ("exclude", _many()),
    "rocm-version": ("rocm_version", _one("a version string like '6.2' or '5.2.3'", _fits(r"[0-9]+(\.[0-9]+){0,2}"))),
    "select": ("select", _rule_ids),
    "ignore": ("ignore", _rule_ids),
    "rules": ("rules", _many(convert=_resolve)),
    "target": ("target", _one("'hip' or 'cuda'", _fits("hip|cuda"))),
    "jobs": ("jobs", _one("an integer >= 1", lambda v: type(v) is int and v >= 1)),
    "roc": ("roc", _bool),
    "miopen": ("miopen", _bool),
    "experimental": ("experimental", _bool),
    "hip-kernel-execution-syntax": ("hip_kernel_execution_syntax", _bool),
    "only-translated": ("only_translated", _bool),
    "strict": ("strict", _bool),
    "compile-timeout": ("compile_timeout", _one("a number of seconds > 0", lambda v: type(v) in (int, float)
                                                and 0 < v < 1e9, lambda v, root: float(v))),
    "offload-arch": ("offload_arch", _many("AMD targets such as 'gfx90a'", _fits("gfx[0-9a-f]+(:[a-z0-9+-]+)*"))),
}


def _deepest(text: str, limit: int = 100) -> tuple[int, int]:
    """Where brackets (outside strings and comments) first nest `limit` deep, else 1:1."""
    depth, quote, i = 0, None, 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 1
            elif char == quote or char == "\n":
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            i = text.find("\n", i)
            if i < 0:
                break
        elif char in "[{":
            depth += 1
            if depth >= limit:
                return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)
        elif char in "]}":
            depth -= 1
        i += 1
    return 1, 1


def _decode(data: bytes) -> str:
    """UTF-8, a byte order mark (some editors write one) left out."""
    return data.decode("utf-8").removeprefix("\ufeff")
def _pass_keys() -> dict:
    """The passes' declared options as keys: key -> the option."""
    from translator.options import pass_options
    return {o.name: o for o in pass_options()}


def _parse(path: Path, data: bytes) -> dict:
    """The TOML document, or a ConfigError at the line and column tomllib (or UTF-8) reports."""
    import tomllib      # here: a run that finds no configuration file parses no TOML
    try:
        return tomllib.loads(text := _decode(data))
    except RecursionError:
        line, col = _deepest(text)
        msg = "arrays or tables nested too deeply"
    except UnicodeDecodeError as exc:
        line, col, msg = data.count(b"\n", 0, exc.start) + 1, exc.start - data.rfind(b"\n", 0, exc.start), "not UTF-8"
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        if m := re.search(r"\(at line (\d+), column (\d+)\)$", msg):
            line, col = int(m[1]), int(m[2])
        else:   # "(at end of document)"
            line, col = text.count("\n") + 1, len(text) - text.rfind("\n")
        msg = re.sub(r"\s*\(at [^()]*\)$", "", msg)
    raise ConfigError(path, line, col, None, "invalid TOML: " + msg[:1].lower() + msg[1:])


def load_config(path: Path) -> Config:
    """Read and validate one file: [tool.cu2hip] of a pyproject.toml, the top level of any other."""
    path = Path(os.path.abspath(path))
    try:
        data = read_limited(path)       # a FIFO, /dev/zero or a folder is refused, never read
    except OSError as exc:
        raise ConfigError(path, 1, 1, None, f"cannot read: {exc.strerror or exc}") from None
    table, text = _parse(path, data), _decode(data)
    where = ("tool", "cu2hip") if path.name == "pyproject.toml" else ()
    for i, name in enumerate(where):
        if name not in table:
            raise ConfigError(path, 1, 1, None, "no [tool.cu2hip] table")
        if not isinstance(table := table[name], dict):
            line, col = locate(text, where[:i + 1])
            raise ConfigError(path, line, col, name, f"[{'.'.join(where[:i + 1])}] must be a table, not {_show(table)}")
    values: dict = {}
    declared = _pass_keys()
    for key, value in table.items():
        line, col = locate(text, where + (key,))
        values.setdefault("at", {})[key] = (line, col)
        if key in declared:
            option = declared[key]
            if not option.accepts(value):
                raise ConfigError(path, line, col, key, f"'{key}' must be "
                                  f"{'true or false' if option.switch else option.expected}, not {_show(value)}")
            values.setdefault("passes", {})[option.field] = value
            continue
        if key not in KEYS:
            import difflib
            near = difflib.get_close_matches(key.replace("_", "-"), [*KEYS, *declared], n=1)
            scope, hint = "[tool.cu2hip]" if where else path.name, f"; did you mean '{near[0]}'?" if near else ""
            raise ConfigError(path, line, col, key, f"unknown key {key!r} in {scope}{hint}")
        try:
            values[KEYS[key][0]] = KEYS[key][1](value, path.parent)
        except _Bad as exc:
            raise ConfigError(path, line, col, key, f"'{key}' {exc}") from None
    return Config(path=path, root=path.parent, **values)


def _counts(pyproject: Path) -> bool:
    """Whether a pyproject.toml has a [tool.cu2hip] table (a ConfigError if it would but is not TOML)."""
    try:
        data = read_limited(pyproject)
        tool = _parse(pyproject, data).get("tool") if b"cu2hip" in data else None
    except OSError:
        return False
    except ConfigError:
        if b"[tool.cu2hip" in data:
            raise
        return False
    return isinstance(tool, dict) and "cu2hip" in tool


def find_config(paths: list[Path], looked: dict[Path, Path | None] | None = None) -> Path | None:
    """The configuration file for these inputs, or None (see the module docstring).
    `looked` gets what `config_in` said of each folder looked at (translator.settings.Nearest
    reads no folder's files again)."""
    for p in paths:
        p = Path(os.path.abspath(p))
        start = p if p.is_dir() else p.parent
        for folder in (start, *start.parents):
            found = config_in(folder)
            if looked is not None:
                looked[folder] = found
            if found is not None:
                return found
    return None


def config_in(folder: Path) -> Path | None:
    """The configuration file of `folder` itself (its parents not looked at), or None."""
    if (folder / "cu2hip.toml").is_file():
        return folder / "cu2hip.toml"
    if (folder / "pyproject.toml").is_file() and _counts(folder / "pyproject.toml"):
        return folder / "pyproject.toml"
    return None


def load(paths: list[Path], explicit: Path | None = None, looked: dict[Path, Path | None] | None = None) -> Config:
    """`explicit` (--config FILE) if given, else the file `find_config` finds (filling
    `looked`), else Config()."""
    found = explicit if explicit is not None else find_config(paths, looked)
    return load_config(found) if found is not None else Config()


def locate(text: str, path: tuple[str, ...]) -> tuple[int, int]:
    """1-based (line, col) in valid TOML `text` of the key `path` names: of the part naming path[-1]
    in its first definition (`key =` in its table, dotted `a.b.key =`, a `[a.b.key]` header, a key
    of an inline table); (1, 1) if there is none."""
    import tomllib
    try:
        at = next(offsets[len(path) - 1] for full, offsets in _entries(text) if full[:len(path)] == path)
    except (StopIteration, IndexError, tomllib.TOMLDecodeError, RecursionError):
        return 1, 1
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


_TOKEN = re.compile("|".join((
    r'"""(?:\\[\s\S]|[^\\])*?"""(?!")', r"'''[\s\S]*?'''(?!')",   # multi-line strings
    r'"(?:\\.|[^"\\\n])*"', r"'[^'\n]*'", r"#[^\n]*", r"[ \t\r]+", r"\n",
    r"[\[\]{}=.,]", r"[^\s\[\]{}=.,#\"']+")))


def _entries(text: str) -> list[tuple[tuple[str, ...], list[int]]]:
    """Every definition in valid TOML, in order: (full key path, offset of each part of it)."""
    import tomllib
    toks = [(m[0], m.start()) for m in _TOKEN.finditer(text) if m[0][0] not in " \t\r#"] + [("\n", len(text))]
    out: list = []
    i = 0

    def key() -> tuple[tuple[str, ...], list[int]]:
        nonlocal i
        names, offsets = [], []
        while True:
            tok, pos = toks[i]
            names.append(tomllib.loads("k = " + tok)["k"] if tok[0] in "\"'" else tok)
            offsets.append(pos)
            i += 2                      # the part and the '.' (or '=', or ']') after it
            if toks[i - 1][0] != ".":
                return tuple(names), offsets

    def value(prefix: tuple[str, ...], at: list[int]) -> None:
        nonlocal i
        close = {"[": "]", "{": "}"}.get(toks[i][0])
        i += 1
        while close is None and toks[i][0] not in (",", "]", "}", "\n"):
            i += 1                      # a scalar: 1.5 and dates are several tokens
        while close is not None:        # an array or an inline table, to its closing bracket
            while toks[i][0] in (",", "\n"):
                i += 1
            if toks[i][0] == close:
                i += 1
                return
            if close == "}":            # keys of inline tables are definitions too
                names, offsets = key()
                out.append((prefix + names, at + offsets))
                value(prefix + names, at + offsets)
            else:                       # keys inside arrays get no index: harmless, as they
                value(prefix, at)       # come after the definition of the array itself

    table, at = (), []
    while i < len(toks) - 1:
        if toks[i][0] == "\n":
            i += 1
        elif toks[i][0] == "[":         # [table] or [[array of tables]]
            double = toks[i + 1][0] == "["
            i += 2 if double else 1
            table, at = key()
            out.append((table, at))
            i += 1 if double else 0
        else:
            names, offsets = key()
            out.append((table + names, at + offsets))
            value(table + names, at + offsets)
    return out
