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

A launch in a function template of a header (or of a file another includes) takes its
block from the template's arguments, which the files that include it give: the template
index (`template_index`) gathers them first, per file in the same workers, and the
launch facts of the defining file read it.
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
_ANY_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)
_LAUNCHES = re.compile(rb"<<<|\b(?:cuda|hip)Launch(?:Cooperative)?Kernel\b|\bhipLaunchKernelGGL\b")
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
    return launch_indexes(jobs, project, qualifier_macros, cache, headers, mapper, scans)[0]


def launch_indexes(jobs: list[tuple[str, str, bytes]], project: list[tuple[Path, str]] | None,
                   qualifier_macros: frozenset[bytes] = frozenset(), cache=None,
                   headers: tuple[tuple[str, bytes], ...] = (), mapper=None, scans=None) \
        -> tuple[tuple[Entry, ...], tuple[Template, ...]]:
    """The launch index (`launch_index`) and the template index (`template_index`: what
    the project's files give the function templates of headers and included files, which
    the launch facts of those files read), from one reading of the project."""
    files, reach, audience = _graph(jobs, project, scans)
    included = set().union(*(f.includes for f in files.values())) if files else set()
    complete = project is not None or any(f.kernels.main for f in files.values())
    templates = template_index(files, reach, included, complete, mapper, qualifier_macros, cache, headers)
    # A definition's launches span files when a header defines it, or another file reaches it.
    wanted = {key: who for key, who in audience.items()
              if who != {key[0]} or Path(key[0]).suffix.lower() in HEADER_SUFFIXES or key[0] in included}
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
    found = (mapper or _serial)(LaunchFacts(qualifier_macros, cache, headers, templates), tasks)
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
    return tuple(entries), templates


def _headers_digest(headers: tuple[tuple[str, bytes], ...]) -> bytes:
    """The digest (translator.cache.digest) of the local headers' paths and bytes."""
    from translator.cache import digest
    return digest(*(part for path, data in headers for part in (path.encode("utf-8", "surrogateescape"), data))).encode()


def _serial(facts: LaunchFacts, tasks: list) -> list:
    return [facts(task) for task in tasks]


class LaunchFacts:
    """What a file's launch facts depend on besides its bytes: the tree's qualifier macros
    and local headers, the template index (the arguments the project gives a header's
    function templates: `template_index`), and the cache that keeps them. Sent once to
    each worker of a pool."""

    def __init__(self, qualifier_macros: frozenset[bytes], cache, headers: tuple[tuple[str, bytes], ...],
                 templates: tuple[Template, ...] = ()):
        self.qualifier_macros, self.cache, self.headers = qualifier_macros, cache, headers
        self.templates = templates
        self.trim = Every()     # the parses' freed pages back to the system now and then
        # Digested once for the run, not once per file (a project's headers, times its files).
        self.headers_key = _headers_digest(headers) if cache is not None else b""
        # A file's facts read the index's entries of its own templates only: they are its key.
        self.template_keys: dict[str, bytes] = {}
        if cache is not None:
            by_home: dict[str, list] = {}
            for entry in templates:
                by_home.setdefault(entry[0], []).append(entry)
            from translator.cache import digest
            self.template_keys = {home: digest(repr(listed).encode()).encode() for home, listed in by_home.items()}

    def __call__(self, task: tuple[str, bytes, frozenset[str]]) -> list:
        display, data, names = task
        out = _facts(display, data, names, self.qualifier_macros, self.cache, self.headers,
                     self.headers_key + self.template_keys.get(display, b""), self.templates)
        self.trim.tick()
        return out


def _facts(display: str, data: bytes, names: frozenset[str], qualifier_macros: frozenset[bytes], cache, headers,
           headers_key: bytes, templates: tuple = ()) -> list:
    """(kernel, "path:line:col", sizes, reason, symbol) of every launch or other use of
    `names` in the file, from the cache when its bytes (and the headers' and the template
    index's entries of its templates, whose digest is `headers_key`) were indexed before."""
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
        values = HostValues(parsed, headers=LocalHeaders(display, dict(headers)) if headers else None, path=display,
                            templates=templates)
        for fact in launch_facts(parsed, build_ir(display, parsed), names, values):
            if fact.kernel in names:
                line, col = source.position(fact.offset)
                out.append((fact.kernel, f"{display}:{line}:{col}", tuple(fact.values), fact.reason, fact.symbol))
    if key is not None:
        cache.put_data(key, out)
    return out


# One entry of the template index: (defining file, template, each template parameter's
# values over every instantiation the project makes, or why they are not known, None for
# a type parameter, which is not read across files; or why none is known).
Template = tuple[str, str, tuple]


def template_index(files: dict[str, _File], reach: dict[str, list[str]], included: set[str], complete: bool,
                   mapper=None, qualifier_macros: frozenset[bytes] = frozenset(), cache=None,
                   headers: tuple[tuple[str, bytes], ...] = ()) -> tuple[Template, ...]:
    """The arguments every file of the project gives each function template of a header,
    or of a file another includes, that launches a kernel or reaches one that does
    (translator.ir.host_values reads a file's own templates from its own calls only, and
    refuses these): every file of a translation unit that reaches the defining file
    through local includes (the includers, the other headers they read, the file itself)
    is read in a worker (host_values.template_uses: its calls, explicit instantiations and
    the defaults they take, or why one of its uses is not read), and the parent merges
    them, following a call whose argument is a parameter of a calling template of a
    header to that template's own entry. A parameter is known when every such file's uses
    are read and each argument is known. Nothing is indexed unless the files are the whole
    program (`complete`: a file outside the run may include the header), and a header is
    left unknown where a file includes a file of its name by a path that resolves to no
    file of the project (an include path of the build may make it that header)."""
    if not complete:
        return ()
    shared = {real for real, f in files.items()
              if (Path(real).suffix.lower() in HEADER_SUFFIXES or real in included) and b"template" in f.data}
    # A template that launches (or reaches one that does: a call may pass its argument on).
    launching = {real for real in shared if _LAUNCHES.search(files[real].data)}
    candidates = {real for real in shared if launching.intersection(reach[real])}
    if not candidates:
        return ()
    held = {str(real) for real, _ in headers}
    # Who reads each: every file of a translation unit that includes it, before or after
    # it (another header the includer reads may call it), the includers themselves, and
    # it; a file that includes a file of its name by a path cu2hip does not resolve blocks it.
    audience: dict[str, set[str]] = {h: set() for h in candidates}
    for real in files:
        for h in candidates.intersection(reach[real]):
            audience[h].update(reach[real])
    blocked: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}
    for h in candidates:
        by_name.setdefault(os.path.basename(h), []).append(h)
    for real in sorted(files, key=lambda r: files[r].display):
        for match in _ANY_INCLUDE.finditer(files[real].data):
            written = match.group(1).decode("utf-8", "replace").strip()
            if os.path.basename(written) not in by_name or match.group(0).rstrip().endswith(b'"') and \
                    real_path(Path(real).parent / written) in files:
                continue        # (another file of that name, which it reads)
            for h in by_name[os.path.basename(written)]:
                if h not in reach[real] and h not in blocked:
                    blocked[h] = (f"{files[real].display} includes '{written}', which cu2hip does not resolve to "
                                  f"{files[h].display} (an include path of the build may make it that file): its "
                                  "calls are not read")
    launchers, tasks = [], []
    for real in sorted(files):
        seen = sorted(h for h in candidates if real in audience[h])
        if seen:
            launchers.append(real)
            tasks.append((files[real].display, files[real].data, tuple(
                (files[h].display, str(h), None if str(h) in held or h == real else files[h].data) for h in seen)))
    found = (mapper or _serial)(TemplateFacts(qualifier_macros, cache, headers), tasks)
    del tasks
    reports: dict[tuple[str, str], dict[str, object]] = {}
    homes: dict[tuple[str, str], str] = {}
    display_of = {files[h].display: h for h in candidates}
    for real, listed in zip(launchers, found):
        for home, name, result in listed:
            key = (home, name)
            homes[key] = display_of.get(home, "")
            got = reports.setdefault(key, {})
            if real in got:
                result = f"{os.path.basename(home)} defines more than one function template named {name}"
            got[real] = result
    readers = {h: sorted(who, key=lambda r: files[r].display) for h, who in audience.items()}
    memo: dict[tuple[str, str, int], tuple[int, ...] | str] = {}

    def values(key: tuple[str, str], position: int, stack: tuple) -> tuple[int, ...] | str:
        home, name = key
        if (home, name, position) in memo:
            return memo[(home, name, position)]
        if (key, position) in stack or len(stack) > 32:
            return f"{name}'s arguments are followed through a call of itself, which is not read"
        got = reports.get(key)
        real = homes.get(key)
        if got is None or not real:
            return f"the calls of {name} ({home}) are not indexed"
        if real in blocked:
            return f"{name} is defined in {os.path.basename(home)}, and {blocked[real]}"
        out: set[int] = set()
        calls = 0
        for reader in readers[real]:
            result = got.get(reader)
            shown = files[reader].display
            if result is None:
                return f"{name} is defined in {os.path.basename(home)}, whose includer {shown} was not read"
            if isinstance(result, str):
                return f"{name} is defined in {os.path.basename(home)}; in {shown}: {result}"
            for instantiation in result:
                calls += 1
                fact = instantiation[position]
                if fact[0] == "v":
                    out |= set(fact[1])
                elif fact[0] == "r":
                    return f"{name} is defined in {os.path.basename(home)}; in {shown}: {fact[1]}"
                elif fact[0] == "p":
                    outer = values((fact[1], fact[2]), fact[3], stack + ((key, position),))
                    if isinstance(outer, str):
                        return outer
                    out |= set(outer)
                else:
                    return f"{name}'s parameter {position + 1} is a type"
        found = tuple(sorted(out)) if out else (
            f"{name} is defined in {os.path.basename(home)}, and no file of the project calls it" if not calls
            else f"{name}'s calls give no value")
        memo[(home, name, position)] = found
        return found

    entries = []
    for key in sorted(reports):
        sample = next((r[0] for r in reports[key].values() if not isinstance(r, str) and r), None)
        if sample is None:      # no instantiation read: why (a use not read, or no call at all)
            entries.append((*key, values(key, 0, ())))
            continue
        entries.append((*key, tuple(None if fact[0] == "t" else values(key, i, ()) for i, fact in enumerate(sample))))
    return tuple(entries)


class TemplateFacts:
    """What a file's template uses (translator.ir.host_values.template_uses) depend on
    besides its bytes and its templates' files: the tree's qualifier macros and local
    headers, and the cache that keeps them. Sent once to each worker of a pool."""

    def __init__(self, qualifier_macros: frozenset[bytes], cache, headers: tuple[tuple[str, bytes], ...]):
        self.qualifier_macros, self.cache, self.headers = qualifier_macros, cache, headers
        self.trim = Every()
        self.headers_key = _headers_digest(headers) if cache is not None else b""

    def __call__(self, task: tuple[str, bytes, tuple]) -> list:
        display, data, homes = task
        from translator.cache import digest
        key = digest(b"template-uses", display.encode("utf-8", "surrogateescape"), data, self.headers_key,
                     b"\0".join(sorted(self.qualifier_macros)),
                     *(part for home, real, text in homes for part in (home.encode("utf-8", "surrogateescape"),
                                                                       real.encode("utf-8", "surrogateescape"),
                                                                       text if text is not None else b"\0held"))) \
            if self.cache is not None else None
        if key is not None:
            found = self.cache.get_data(key, _valid_uses)
            if found is not None:
                return found
        from translator.frontend import parse_file, words_of
        from translator.ir.host_values import HostValues, LocalHeaders, parsed_header, template_uses, value_templates
        from translator.ir.macros import table_of
        held = dict(self.headers)
        table = table_of(data, display, held)
        theirs = {home: parsed_header(text if text is not None else held[real])
                  for home, real, text in homes if home != display}
        names = {callee.rsplit("::", 1)[-1].encode() for parsed in theirs.values()
                 for _, callee, _ in value_templates(parsed)}
        word = re.compile(rb"(?<![\w$])(?:" + b"|".join(re.escape(n) for n in sorted(names)) + rb")(?![\w$])") \
            if names else None
        if len(theirs) == len(homes) and (word is None or names.isdisjoint(words_of(data)) and not any(
                word.search(m.body.encode()) for definitions in table.every.values() for m in definitions)):
            # No template of its headers is named in its text or its macros: no use of one.
            out = [[home, callee, []] for home in theirs for _, callee, _ in value_templates(theirs[home])]
        else:
            parsed = parse_file(data, None, self.qualifier_macros)
            own = HostValues(parsed, headers=LocalHeaders(display, held) if held else None, path=display, table=table)
            templates = [(home, own if home == display else HostValues(
                theirs[home], headers=LocalHeaders(home, held) if held else None, path=home))
                for home, _, _ in homes]
            out = template_uses(own, display, templates)
        if key is not None:
            self.cache.put_data(key, out)
        self.trim.tick()
        return out


def _valid_uses(payload) -> bool:
    """A cached list of template uses: [file, template, reason or [[fact, ...], ...]] each."""
    def fact(f) -> bool:
        return isinstance(f, list) and bool(f) and (
            f[0] == "t" and len(f) == 1 or f[0] == "r" and len(f) == 2 and isinstance(f[1], str)
            or f[0] == "v" and len(f) == 2 and isinstance(f[1], list)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in f[1])
            or f[0] == "p" and len(f) == 4 and isinstance(f[1], str) and isinstance(f[2], str)
            and isinstance(f[3], int))
    return isinstance(payload, list) and all(
        isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) and isinstance(e[1], str)
        and (isinstance(e[2], str) or isinstance(e[2], list) and all(
            isinstance(i, list) and all(fact(f) for f in i) for i in e[2])) for e in payload)


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
