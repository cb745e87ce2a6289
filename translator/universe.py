"""The launch universe: every place of a project that can launch a kernel.

A kernel can be launched from its own file, from every file that includes that file
(a kernel of a header), and, when it has external linkage, from any translation unit
that declares it (`__global__ void k(float*);` in another `.cu`, or in a header the other
file includes) without seeing a definition of its own. The launch-bounds and
rebalancing passes act on a kernel only when they have seen every launch of it, so the
index is built over the whole project whatever subset of it a command translates: the
configuration's folder, or the inputs' common folder when a folder is given. Files
given one by one with no configuration are a project only when they hold the program
(one of them defines `main`); otherwise a kernel of external linkage among them gets,
instead of its launches, the reason they are not all known, and is not bounded.

Each file's facts (the kernels it defines and declares, and its launches with their
block sizes) depend on its bytes alone, and on the macros of the tree: they are kept in
the content-keyed cache, so that indexing a project costs a read of its files.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from translator.filescan import includes_of
from translator.inputs import read_regular, real_path, walk
from translator.memory import Every
from translator.source import HEADER_SUFFIXES

# What kernels_of reads: outside a signature, comments, literals and `__global__`; inside
# one, also identifiers, brackets and the `{` or `;` that ends it.
_LITERALS = (rb'//[^\n]*|/\*.*?(?:\*/|\Z)|(?P<raw>\b(?:u8|u|U|L)?R"(?P<delim>[^()\\\s"]{0,16})\()'
             rb'|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?')
_OUTSIDE = re.compile(_LITERALS + rb"|(?P<global>\b__global__\b)", re.S)
_INSIDE = re.compile(_LITERALS + rb"|(?P<name>\b[A-Za-z_]\w*\b)|(?P<punct>[()\[\]{};])", re.S)
_CALL = re.compile(rb"\s*\(")
_NOT_NAMES = frozenset({b"__launch_bounds__", b"__maxnreg__", b"__cluster_dims__", b"__attribute__", b"alignas",
                        b"decltype", b"__declspec"})
_MAIN = re.compile(rb"\bint\s+main\s*\(")
_STATIC = re.compile(rb"\bstatic\b")
SUFFIXES = frozenset({".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl",
                      ".inc", ".ipp", ".tpp"})

# A launch or other use of a kernel: (kernel, "path:line:col", block sizes, why unknown,
# the overridable macro the block is exactly, translator.ir.host_values.Value.symbol).
Fact = tuple[str, str, tuple[int, ...], str, str]
# One index entry: (kernel, its defining file, the facts of it across the project). A
# launcher's facts are one tuple each, shared by the entries of every definition it
# reaches (a project of N copies of one program: N x N entries of the same facts).
Entry = tuple[str, str, tuple[Fact, ...]]


@dataclass(frozen=True)
class Kernels:
    """What a text says of kernels (a prefilter: the parse decides what is launched)."""
    defined: dict[str, tuple[int, bool]]    # name -> (offset of its name, external linkage)
    declared: frozenset[str]                # declared without a body
    main: bool                              # it defines main()


def kernels_of(data: bytes) -> Kernels:
    """The kernels `data` defines and declares: each `__global__` outside comments and
    literals, read to the `{` or `;` that ends its signature at its own bracket depth,
    names the first identifier called there at that depth that is not an attribute
    (`__launch_bounds__(...)`, `__attribute__((...))`, `[[...]]`). One pass over the text:
    a signature is read once, and a `__global__` inside one is a part of it."""
    defined: dict[str, tuple[int, bool]] = {}
    declared = set()
    pos = 0
    while True:
        previous_end = pos
        match = _skip_to(_OUTSIDE, data, pos, "global")
        if match is None:
            break
        depth, name, static, pos, ends_body = 0, None, False, match.end(), False
        while True:
            token = _skip_to(_INSIDE, data, pos, "name", "punct")
            if token is None:
                pos = len(data)
                break
            pos = token.end()
            if token.group("name") is not None:
                word = token.group("name")
                if depth == 0 and name is None:
                    if word == b"static":
                        static = True
                    elif word not in _NOT_NAMES and _CALL.match(data, pos):
                        name = token
                continue
            punct = token.group("punct")
            if punct in b"([":
                depth += 1
            elif punct in b")]":
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and punct in b"{;":
                ends_body = punct == b"{"
                break
        if name is None:
            continue
        kernel = name.group("name").decode()
        if ends_body:
            # `static` before it on its line (not before the previous signature's end).
            line_start = max(data.rfind(b"\n", previous_end, match.start()) + 1, previous_end)
            external = not (static or _STATIC.search(data, line_start, match.start()))
            if kernel not in defined or not external:
                defined[kernel] = (name.start("name"), external)
        else:
            declared.add(kernel)
    return Kernels(defined, frozenset(declared - set(defined)), bool(_MAIN.search(data)))


def _skip_to(pattern: re.Pattern, data: bytes, pos: int, *groups: str) -> re.Match | None:
    """The next match of `pattern` from `pos` in one of `groups`, past the comments and
    literals before it (a raw string to its closing delimiter); None at the end."""
    while True:
        match = pattern.search(data, pos)
        if match is None:
            return None
        if any(match.group(g) is not None for g in groups):
            return match
        pos = match.end()
        if match.group("raw") is not None:
            close = data.find(b")" + match.group("delim") + b'"', pos)
            pos = len(data) if close < 0 else close + len(match.group("delim")) + 2


@dataclass
class _File:
    display: str
    data: bytes
    includes: set[str]
    kernels: Kernels


def project_files(root: Path, skip: tuple[Path, ...] = ()) -> list[tuple[Path, str]]:
    """The C, C++ and CUDA files under `root` (hidden folders and `skip`, the output
    folders, left out), with the paths diagnostics show for them."""
    out = []
    skip_real = {real_path(p) for p in skip}
    for here, dirnames, files in walk(Path(root)):
        dirnames[:] = sorted((d for d in dirnames if not d.name.startswith(".") and d.name not in ("__pycache__",)
                              and real_path(here / d.name) not in skip_real), key=lambda d: d.name)
        for entry in sorted(files, key=lambda e: e.name):
            path = here / entry.name
            # A plain file (no link), as the folder's listing says.
            if path.suffix.lower() in SUFFIXES and not entry.is_symlink() and entry.is_file(follow_symlinks=False):
                out.append((path, _display(path)))
    return out


def _display(path: Path) -> str:
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute)
    return absolute if relative.startswith(os.pardir) else relative


def _graph(jobs: list[tuple[str, str, bytes]], project: list[tuple[Path, str]] | None, scans=None) \
        -> tuple[dict[str, _File], dict[str, list[str]], dict[tuple[str, str], set[str]]]:
    """The files (the jobs', then the project's others), what each reaches by its local
    includes, and who may launch each kernel definition (file, name): the files that
    reach it, or that declare it without seeing a definition of their own. `scans`
    (translator.filescan.Scans): the files' kernels and includes where the run read them
    already, and the project's files read once."""
    files: dict[str, _File] = {}
    for real, display, data in jobs:
        files[real] = _File(display, data, set(), scans.kernels(real, data) if scans is not None else kernels_of(data))
    for path, display in project or ():
        real = real_path(path)
        if real in files:
            continue
        if scans is not None:
            got = scans.project_file(path, real)
            if got is None:
                continue
            files[real] = _File(display, got[0], set(), got[1].kernels)
            continue
        try:
            data = read_regular(path)
        except OSError:
            continue
        files[real] = _File(display, data, set(), kernels_of(data))
    for real, f in files.items():
        if scans is not None:
            names = scans.includes(real, f.data)
        else:
            names = includes_of(f.data)
        if names:
            folder = Path(real).parent
            f.includes = {real_path(folder / name) for name in names}
    reach = {real: _reached(real, files) for real in files}
    external: dict[str, list[str]] = {}     # kernel -> the files that define it with external linkage
    for real, f in files.items():
        for name, (_, linkage) in f.kernels.defined.items():
            if linkage:
                external.setdefault(name, []).append(real)
    audience: dict[tuple[str, str], set[str]] = {}
    for real in files:
        seen_defined = {n for h in reach[real] for n in files[h].kernels.defined}
        seen_declared = {n for h in reach[real] for n in files[h].kernels.declared} - seen_defined
        for h in reach[real]:
            for name in files[h].kernels.defined:
                audience.setdefault((h, name), set()).add(real)
        for name in seen_declared:
            for other in external.get(name, ()):
                audience.setdefault((other, name), set()).add(real)
    return files, reach, audience


def affected(jobs: list[tuple[str, str, bytes]], project: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    """The files of `project` beyond `jobs` whose translation reads the jobs' bytes, as
    (path, display): those that include a job's file (its macros and constants are
    theirs), and, for each kernel whose launches one of those files may hold or which one
    of them defines, the kernel's file (its bound) and every file that may launch it
    (what rebalancing reads of the bound). A commit of the jobs must rewrite them too."""
    files, reach, audience = _graph(jobs, project)
    changed = {real for real, _, _ in jobs}
    readers = {real for real in files if changed.intersection(reach[real])}
    out = set(readers)
    for (home, _), who in audience.items():
        if home in readers or not readers.isdisjoint(who):
            out |= {home} | who
    return [(Path(real), files[real].display) for real in sorted(out - changed)]


def launch_index(jobs: list[tuple[str, str, bytes]], project: list[tuple[Path, str]] | None,
                 qualifier_macros: frozenset[bytes] = frozenset(), cache=None,
                 headers: tuple[tuple[str, bytes], ...] = (), mapper=None, scans=None) -> tuple[Entry, ...]:
    """The index of the launches of every kernel that can be launched from another file
    than its own: `jobs` (real path, display, bytes) are the files translated; `project`
    the project's other files (None: the jobs are all there is). See the module's docstring.
    `mapper(facts, tasks)` gives `[facts(t) for t in tasks]`, in order (a pool of workers
    computes each file's facts: they depend on its bytes and on `facts` alone). `scans`:
    the files' scans (translator.filescan.Scans), where the run made them."""
    files, _, audience = _graph(jobs, project, scans)
    included = set().union(*(f.includes for f in files.values())) if files else set()
    # A definition's launches span files when a header defines it, or another file reaches it.
    wanted = {key: who for key, who in audience.items()
              if who != {key[0]} or Path(key[0]).suffix.lower() in HEADER_SUFFIXES or key[0] in included}
    complete = project is not None or any(f.kernels.main for f in files.values())
    entries: list[Entry] = []
    if not complete:
        for (home, name), _ in sorted(audience.items()):
            offset, external = files[home].kernels.defined[name]
            if external and (home, name) not in wanted and Path(home).suffix.lower() not in HEADER_SUFFIXES:
                wanted[(home, name)] = {home}
    names_of: dict[str, set[str]] = {}
    for (home, name), who in wanted.items():
        for real in who:
            names_of.setdefault(real, set()).add(name)
    launchers = sorted(names_of)
    tasks = [(files[real].display, files[real].data, frozenset(names_of[real])) for real in launchers]
    found = (mapper or _serial)(LaunchFacts(qualifier_macros, cache, headers), tasks)
    del tasks
    # Each file's facts by kernel: a kernel's entries are its launchers' facts of it (the
    # facts' own tuples, not copies).
    facts: dict[str, dict[str, list]] = {}
    for real, listed in zip(launchers, found):
        by_kernel = facts[real] = {}
        for fact in listed:
            by_kernel.setdefault(fact[0], []).append(fact)
    del found
    for (home, name), who in sorted(wanted.items()):
        shown = files[home].display
        offset, external = files[home].kernels.defined[name]
        listed: list[Fact] = []
        if not complete and external and home not in included and Path(home).suffix.lower() not in HEADER_SUFFIXES:
            line = files[home].data.count(b"\n", 0, offset) + 1
            listed.append((name, f"{shown}:{line}", (), (
                f"{name} has external linkage: another translation unit of the program may launch it, and the "
                "files given do not hold the program (none defines main). Translate the project's folder, or "
                "set [tool.cu2hip] in its pyproject.toml or a cu2hip.toml, so that every launch is counted"), ""))
        for real in sorted(who, key=lambda r: files[r].display):
            listed += facts[real].get(name, ())
        if listed:
            entries.append((name, shown, tuple(listed)))
    return tuple(entries)


def _headers_digest(headers: tuple[tuple[str, bytes], ...]) -> bytes:
    """The digest (translator.cache.digest) of the local headers' paths and bytes."""
    from translator.cache import digest
    return digest(*(part for path, data in headers for part in (path.encode("utf-8", "surrogateescape"), data))).encode()


def _serial(facts: LaunchFacts, tasks: list) -> list:
    return [facts(task) for task in tasks]


class LaunchFacts:
    """What a file's launch facts depend on besides its bytes: the tree's qualifier macros
    and local headers (and the cache that keeps them). Sent once to each worker of a pool."""

    def __init__(self, qualifier_macros: frozenset[bytes], cache, headers: tuple[tuple[str, bytes], ...]):
        self.qualifier_macros, self.cache, self.headers = qualifier_macros, cache, headers
        self.trim = Every()     # the parses' freed pages back to the system now and then
        # Digested once for the run, not once per file (a project's headers, times its files).
        self.headers_key = _headers_digest(headers) if cache is not None else b""

    def __call__(self, task: tuple[str, bytes, frozenset[str]]) -> list:
        display, data, names = task
        out = _facts(display, data, names, self.qualifier_macros, self.cache, self.headers, self.headers_key)
        self.trim.tick()
        return out


def _facts(display: str, data: bytes, names: frozenset[str], qualifier_macros: frozenset[bytes], cache, headers,
           headers_key: bytes) -> list:
    """(kernel, "path:line:col", sizes, reason, symbol) of every launch or other use of
    `names` in the file, from the cache when its bytes (and the headers', whose digest is
    `headers_key`) were indexed before."""
    from translator.cache import digest
    key = digest(b"launch-facts", display.encode("utf-8", "surrogateescape"), data,
                 b"\0".join(sorted(n.encode() for n in names)), b"\0".join(sorted(qualifier_macros)),
                 headers_key) if cache is not None else None
    if key is not None:
        found = cache.get_data(key, _valid_facts)
        if found is not None:
            return [(k, where, tuple(sizes), reason, symbol) for k, where, sizes, reason, symbol in found]
    from translator.frontend import parse_file, words_of
    from translator.ir import build_ir
    from translator.ir.host_values import HostValues, LocalHeaders, launch_facts
    from translator.source import SourceFile
    out = []
    if not {n.encode() for n in names}.isdisjoint(words_of(data)):
        parsed = parse_file(data, None, qualifier_macros)
        source = SourceFile(display, data)
        values = HostValues(parsed, headers=LocalHeaders(display, dict(headers)) if headers else None, path=display)
        for fact in launch_facts(parsed, build_ir(display, parsed), names, values):
            if fact.kernel in names:
                line, col = source.position(fact.offset)
                out.append((fact.kernel, f"{display}:{line}:{col}", tuple(fact.values), fact.reason, fact.symbol))
    if key is not None:
        cache.put_data(key, out)
    return out


def _valid_facts(payload) -> bool:
    """A cached list of launch facts: [kernel, where, [sizes], reason or null, symbol] each."""
    return isinstance(payload, list) and all(
        isinstance(e, list) and len(e) == 5 and isinstance(e[0], str) and isinstance(e[1], str)
        and isinstance(e[2], list) and all(isinstance(v, int) and not isinstance(v, bool) for v in e[2])
        and (e[3] is None or isinstance(e[3], str)) and isinstance(e[4], str) for e in payload)


def _reached(path: str, files: dict[str, _File]) -> list[str]:
    """The file and every file of the project it includes, directly or through others."""
    seen, todo = [], [path]
    while todo:
        current = todo.pop()
        if current not in seen and current in files:
            seen.append(current)
            todo += sorted(files[current].includes)
    return seen
