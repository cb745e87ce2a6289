"""The macro table: the object-like and function-like `#define`s a file sees, its own and
those of the local headers it includes, and their expansion.

One table per round (the fact "macros", translator.facts.macros); every analysis that
reads kernel or host code asks it what a name is, instead of reading `#define` lines
each its own way.

- `MacroTable.get(name)`: a `Macro` (its parameters, None when object-like; its body,
  continuation lines joined and comments removed; where it is defined; whether it sits
  under `#ifndef NAME`, so that the compile line may redefine it), an `Unknown` with the
  reason, or `ABSENT` (no such macro). A name with two different definitions (in two
  `#if` branches, or in the file and a header), or that some line `#undef`s, is unknown:
  which definition holds where it is used is not known here.
- `MacroTable.alternatives(name)`: for a name of several object-like definitions, none
  `#undef`'d, that the conditionals make alternatives (every path through the file's or a
  header's conditionals defines it, an include guard aside; no `#if` around one tests the
  name, as `#ifndef NAME` does), the definitions: one of them holds wherever the name is used,
  whichever branch the build compiles, and a `-DNAME=...` is replaced by it. Else why not.
- `MacroTable.expand(text)`: the text with every macro it uses replaced by its
  expansion, as the preprocessor would (a macro is not expanded again inside its own
  expansion; a function-like macro only where `(` follows its name), or an `Unknown`
  naming the macro that cannot be expanded: an unknown one, one that is redefinable on
  the compile line, one whose body uses `#` or `##`, a call whose arguments do not close.
- `uses(parsed, node)`: the macro names used in a subtree (identifiers, type names and
  field names whose text is a macro's name), each with the node.

Not handled: `#define`s that an `#if` of the file leaves out are still in the table
(every branch counts: a name defined differently in two branches is unknown); a macro
defined after the code that uses it is taken as in effect there (more of the code is
seen through a macro, never less); variadic macros (`...`) cannot be expanded.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.facts import ABSENT, Known, Unknown
from translator.filescan import includes_of
from translator.frontend import Conditional, conditionals, directives, lines_of
from translator.inputs import real

# After `#define`: the name, then `(params)` when the `(` touches the name.
_DEFINE = re.compile(rb"[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?")
_UNDEF = re.compile(rb"[ \t]+([A-Za-z_]\w*)")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_CONTINUED = re.compile(rb"\\\r?\n")
_TOKEN = re.compile(r"""[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|##|"""
                    r"""<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||\+\+|--|->|::|[-+*/%&|^]=|\S""")
_DEPTH = 64         # nested expansions before a text counts as unexpandable


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None      # None: object-like
    body: str                           # continuation lines joined, comments removed, stripped
    offset: int                         # the `#` of its first definition in the file; -1 in a header
    overridable: bool = False           # under `#ifndef NAME` (or `#if !defined(NAME)`)
    header: str = ""                    # the local header that defines it, or "" (the file)
    at: int = -1                        # the `#` of this definition in its own text (the file's or the header's)

    @property
    def object_like(self) -> bool:
        return self.params is None

    @property
    def where(self) -> str:
        return f" (from {os.path.basename(self.header)})" if self.header else ""


def _logical_line(text: bytes, start: int) -> tuple[bytes, int]:
    """The directive's text from `start` to its end (continuation lines joined), and the end."""
    end = start
    while True:
        newline = text.find(b"\n", end)
        if newline == -1:
            return _CONTINUED.sub(b" ", text[start:]), len(text)
        if text[newline - 1:newline] == b"\\" or text[newline - 2:newline] == b"\\\r":
            end = newline + 1
            continue
        return _CONTINUED.sub(b" ", text[start:newline]), newline


_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define)\b([^\n]*)", re.M)


def _guarded(text: bytes) -> set[int]:
    """The offsets of the `#define NAME` lines that sit in the first branch of an
    `#ifndef NAME` (or `#if !defined(NAME)`): the compile line may define NAME first."""
    out: set[int] = set()
    stack: list[bytes | None] = []        # each open group's opener line, None past its first branch
    for match in _CONDITIONAL.finditer(text):
        word, rest = match.group(1), match.group(2)
        if word in (b"if", b"ifdef", b"ifndef"):
            stack.append(word + rest)
        elif word in (b"elif", b"else"):
            if stack:
                stack[-1] = None
        elif word == b"endif":
            if stack:
                stack.pop()
        elif stack and stack[-1] is not None:
            name = re.match(rb"[ \t]+([A-Za-z_]\w*)", rest)
            if name is not None and re.match(rb"(?:ifndef\s+" + re.escape(name.group(1)) + rb"\b|if\s+!\s*defined\s*\(?\s*"
                                             + re.escape(name.group(1)) + rb"\b)", stack[-1]):
                out.add(match.start())
    return out


def definitions(text: bytes, header: str = ""):
    """(name, Macro) of each `#define` of the text, and (name, None) of each `#undef`."""
    if b"define" not in text and b"undef" not in text:
        return
    text = lines_of(text)
    found = []
    guarded = _guarded(text) if b"if" in text else set()
    for hash_at, end in directives(text, b"define"):
        match = _DEFINE.match(text, end)
        if match is None:
            continue
        line, _ = _logical_line(text, match.end())
        body = _COMMENT.sub(" ", line.decode("utf-8", "replace")).strip()
        params = None
        if match.group(2) is not None:
            params = tuple(p.strip() for p in match.group(2)[1:-1].decode("utf-8", "replace").split(",") if p.strip())
        name = match.group(1).decode("utf-8", "replace")
        found.append((hash_at, name, Macro(name, params, body, -1 if header else hash_at,
                                           text.rfind(b"\n", 0, hash_at) + 1 in guarded, header, hash_at)))
    for hash_at, end in directives(text, b"undef"):
        match = _UNDEF.match(text, end)
        if match is not None:
            found.append((hash_at, match.group(1).decode("utf-8", "replace"), None))
    for _, name, macro in sorted(found, key=lambda f: f[0]):
        yield name, macro


def directive_end(data: bytes, at: int) -> int:
    """The end of the directive that starts at `at`: its last line is the first that does not
    end in a backslash."""
    end = at
    while True:
        end = data.find(b"\n", end)
        end = len(data) if end < 0 else end
        if data[end - 1:end] != b"\\" and data[end - 2:end] != b"\\\r":
            return end
        end += 1


def in_define(data: bytes, span: tuple[int, int]) -> bool:
    """Does `span` lie in the body of a `#define` line (continuations included)?"""
    hash_at = data.rfind(b"#", 0, span[0])
    while hash_at >= 0:
        line = data.rfind(b"\n", 0, hash_at) + 1
        if not data[line:hash_at].strip() and re.match(rb"#\s*define\b", data[hash_at:]):
            return span[1] <= directive_end(data, hash_at)
        hash_at = data.rfind(b"#", 0, hash_at)
    return False


def included_headers(path: str, data: bytes, headers: dict[str, bytes]) -> list[tuple[str, bytes]]:
    """The local headers (`#include "x.h"`, found next to the includer among `headers`,
    real path -> bytes) that `data` includes, directly or through others, in the order the
    preprocessor reads them (a header's own includes first)."""
    out, seen = [], set()

    def visit(where: str, text: bytes) -> None:
        folder = os.path.dirname(where)
        for name in includes_of(text):
            target = real(os.path.join(folder, name))
            if target in seen or target not in headers:
                continue
            seen.add(target)
            visit(target, headers[target])
            out.append((target, headers[target]))
    visit(real(path) if path else "", data)
    return out


class MacroTable:
    """The macros of one file and its local headers (see the module)."""

    def __init__(self, sources):
        """`sources`: (header path or "" for the file, text) in the order they are read."""
        self._macros: dict[str, Macro] = {}
        self._unknown: dict[str, str] = {}
        self._undefined: set[str] = set()           # the names some line #undef's
        self._texts = {header: text for header, text in sources}
        self.every: dict[str, list[Macro]] = {}      # every definition of each name, known or not
        for header, text in sources:
            for name, macro in definitions(text, header):
                if macro is not None:
                    self.every.setdefault(name, []).append(macro)
                else:
                    self._undefined.add(name)
                if name in self._unknown:
                    continue
                if macro is None:
                    self._unknown[name] = f"the macro {name} is #undef'd: which definition holds where it is " \
                                          "used is not known"
                    self._macros.pop(name, None)
                    continue
                held = self._macros.get(name)
                if held is None:
                    self._macros[name] = macro
                elif (held.params, held.body) != (macro.params, macro.body):
                    self._unknown[name] = f"the macro {name} has several definitions ({held.body!r} and " \
                                          f"{macro.body!r}): which one holds is not known"
                    del self._macros[name]
                elif macro.overridable and not held.overridable:
                    self._macros[name] = Macro(held.name, held.params, held.body, held.offset, True, held.header,
                                               held.at)
        self.names = frozenset(self._macros) | frozenset(self._unknown)

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def get(self, name: str):
        """The Macro, an Unknown with the reason, or ABSENT."""
        if name in self._macros:
            return self._macros[name]
        if name in self._unknown:
            return Unknown(self._unknown[name])
        return ABSENT

    def alternatives(self, name: str):
        """Known(the definitions of a macro that has several, one of which holds wherever
        the file uses it), Unknown(why not) or ABSENT (no such name, or one definition).

        They are alternatives when every definition is object-like, no line `#undef`s the
        name, no `#if`/`#ifdef`/`#elif` around a definition tests the name itself (then
        the compile line may define it first: `#ifndef BS`), and the text of the file or
        of one header defines it on every path through its conditionals (an include guard
        aside): by a `#define` at its top, or by a conditional with an `#else` each of whose
        branches does (`#ifdef BIG` / `#define BS 1024` / `#else` / `#define BS 128` /
        `#endif`). A definition in a comment is none. A value
        given with `-D` is then always replaced by one of them (a `#define` of a defined
        name replaces it), so that whichever branch the build compiles, the macro is one
        of these bodies."""
        found = self.every.get(name, [])
        if name not in self._unknown or name in self._macros:
            return ABSENT
        if name in self._undefined:
            return Unknown(self._unknown[name])
        if not found:
            return ABSENT
        function_like = next((m for m in found if not m.object_like), None)
        if function_like is not None:
            return Unknown(f"the macro {name} has several definitions, and {name}({', '.join(function_like.params)}) "
                           "is function-like")
        covered = False
        for header in dict.fromkeys(m.header for m in found):
            text = _uncommented(lines_of(self._texts.get(header, b"")))
            # (a definition in a comment is no definition: it covers no path)
            mine = [m.at for m in found if m.header == header and text[m.at:m.at + 1] == b"#"]
            if not mine:
                continue
            groups = conditionals(text) if b"if" in text else []
            tested = _tested_around(text, groups, mine, name)
            if tested is not None:
                where = f"{os.path.basename(header)}:" if header else "line "
                line = text.count(b"\n", 0, tested[0]) + 1
                return Unknown(f"the macro {name} may be given on the compile line (-D{name}=...): its #define at "
                               f"{where}{line} is under '{tested[1]}', which tests it")
            covered = covered or _covers(text, groups, mine)
        if not covered:
            return Unknown(f"the macro {name} has several definitions under #if branches, and some path through them "
                           f"defines none (an #if or #elif without #else, around them or among them): there {name} "
                           f"may come from the compile line (-D{name}=...)")
        return Known(tuple(found))

    def line_of(self, macro: Macro) -> int:
        """The line of a definition in its own text (the file's or its header's)."""
        return self._texts.get(macro.header, b"").count(b"\n", 0, max(macro.at, 0)) + 1

    def known(self) -> dict[str, Macro]:
        """The macros that have one definition, by name."""
        return self._macros

    def function_like(self) -> frozenset[str]:
        """The names of the known function-like macros."""
        return frozenset(n for n, m in self._macros.items() if not m.object_like)

    def expand(self, text: str):
        """Known(the expansion of `text`) or Unknown(why a macro of it cannot be expanded)."""
        if not self.names or not any(t in self.names for t in _TOKEN.findall(text)):
            return Known(text)
        try:
            return Known(" ".join(self._expand(_TOKEN.findall(text), frozenset(), 0)))
        except _Unexpandable as e:
            return Unknown(str(e))

    def _expand(self, tokens: list[str], hidden: frozenset[str], depth: int) -> list[str]:
        if depth > _DEPTH:
            raise _Unexpandable("the macros nest too deep to expand")
        out: list[str] = []
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token not in self.names or token in hidden:
                out.append(token)
                i += 1
                continue
            macro = self.get(token)
            if isinstance(macro, Unknown):
                raise _Unexpandable(macro.reason)
            if macro.overridable:
                raise _Unexpandable(f"the macro {token} may be redefined on the compile line (-D{token}=...): its "
                                    f"#define is under #ifndef {token}")
            if "#" in macro.body:
                raise _Unexpandable(f"the macro {token} uses # or ##, which cu2hip does not expand")
            body = _TOKEN.findall(macro.body)
            if macro.object_like:
                out += self._expand(body, hidden | {token}, depth + 1)
                i += 1
                continue
            if i + 1 >= len(tokens) or tokens[i + 1] != "(":
                out.append(token)           # a function-like macro's name without `(` is no use of it
                i += 1
                continue
            args, i = _arguments(tokens, i + 1, token)
            if any(p.endswith("...") for p in macro.params) or len(args) != max(len(macro.params), 1) \
                    or not macro.params and args != [[]]:
                raise _Unexpandable(f"the macro {token} takes {len(macro.params)} arguments, or is variadic: its use "
                                    "is not expanded")
            values = {p: self._expand(a, hidden, depth + 1) for p, a in zip(macro.params, args)}
            substituted = [t for b in body for t in (["("] + values[b] + [")"] if b in values else [b])]
            out += self._expand(substituted, hidden | {token}, depth + 1)
        return out


_LITERAL_OR_COMMENT = re.compile(rb'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?(?:\*/|\Z)|//[^\n]*', re.S)


def _uncommented(text: bytes) -> bytes:
    """The text with its comments blanked, line breaks kept (length-preserving): a
    directive in a comment is none."""
    if b"/*" not in text and b"//" not in text:
        return text
    out = bytearray(text)
    for match in _LITERAL_OR_COMMENT.finditer(text):
        if match.group().startswith(b"/"):
            out[match.start():match.end()] = re.sub(rb"[^\n]", b" ", match.group())
    return bytes(out)


def _around(groups: list[Conditional], at: int):
    """(group, branch index) of each conditional whose branch holds the offset `at`, outermost first."""
    out = []
    for g in groups:
        if g.start < at < g.end:
            k = next((i for i, (lo, hi) in enumerate(g.branches) if lo <= at < hi), None)
            if k is not None:
                out.append((g, k))
    return sorted(out, key=lambda gk: gk[0].start)


def _tested_around(text: bytes, groups: list[Conditional], offsets: list[int], name: str):
    """(offset, directive) of an `#if`/`#ifdef`/`#elif` deciding whether a definition at one
    of `offsets` is read (its own branch's and the earlier branches' of each conditional
    around it) that names `name`, or None."""
    word = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
    for at in offsets:
        for g, k in _around(groups, at):
            for i, (lo, _) in enumerate(g.branches[:k + 1]):
                line_start = g.start if i == 0 else text.rfind(b"\n", 0, max(lo - 1, 0)) + 1
                directive = text[line_start:lo].strip()
                if word.search(directive):
                    return at, directive.decode("utf-8", "replace")
    return None


_GUARD = re.compile(rb"#[ \t]*(?:ifndef[ \t]+(\w+)|if[ \t]+![ \t]*defined[ \t]*\(?[ \t]*(\w+))")


def _guard(text: bytes, g: Conditional) -> bool:
    """Whether the conditional is an include guard: `#ifndef G` (or `#if !defined(G)`), no
    other branch, its first directive `#define G`."""
    opener = _GUARD.match(text, g.start)
    if opener is None or g.has_else or len(g.branches) != 1:
        return False
    name = opener.group(1) or opener.group(2)
    lo, hi = g.branches[0]
    first = re.search(rb"^[ \t]*#[ \t]*(\w+)[ \t]*(\w*)", text[lo:hi], re.M)
    return first is not None and first.group(1) == b"define" and first.group(2) == name


def _covers(text: bytes, groups: list[Conditional], offsets: list[int]) -> bool:
    """Whether the text defines the name on every path through it (include guards aside):
    by a definition at its top, or in a conditional at its top that has an #else and each of
    whose branches does (recursively)."""
    def sure(lo: int, hi: int) -> bool:
        inside = [g for g in groups if lo <= g.start and g.end <= hi]
        direct = [g for g in inside if not any(o is not g and o.start < g.start and g.end <= o.end for o in inside)]
        if any(lo <= at < hi and not any(g.start < at < g.end for g in direct) for at in offsets):
            return True
        return any((g.has_else or _guard(text, g)) and all(sure(b_lo, b_hi) for b_lo, b_hi in g.branches)
                   for g in direct)
    return sure(0, len(text))


class _Unexpandable(Exception):
    pass


def _arguments(tokens: list[str], at: int, name: str) -> tuple[list[list[str]], int]:
    """The arguments of a call whose `(` is tokens[at], and the index after its `)`."""
    args: list[list[str]] = [[]]
    depth = 0
    for i in range(at, len(tokens)):
        t = tokens[i]
        if t == "(":
            depth += 1
            if depth == 1:
                continue
        elif t == ")":
            depth -= 1
            if depth == 0:
                return args, i + 1
        elif t == "," and depth == 1:
            args.append([])
            continue
        args[-1].append(t)
    raise _Unexpandable(f"the use of the macro {name} does not close its arguments")


def table_of(data: bytes, path: str = "", headers: dict[str, bytes] | None = None) -> MacroTable:
    """The table of a file's text: its local headers' macros (in include order), then its own."""
    sources = included_headers(path, data, headers) if headers else []
    return MacroTable([*sources, ("", data)])


_NAMED = frozenset({"identifier", "type_identifier", "field_identifier"})


def uses(table: MacroTable, frag, data: bytes, node: ts.Node) -> list[tuple[str, ts.Node]]:
    """(name, node) of each use of a macro in the subtree: a name token whose text is a
    macro's (a function-like macro's only where it is called)."""
    if not table.names:
        return []
    from translator.ir.nodes import descendants
    out = []
    function_like = table.function_like()
    for n in descendants(node):
        if n.type in _NAMED and n.child_count == 0:
            name = frag.text(data, n)
            if name in table.names:
                if name in function_like and not _called(n):
                    continue
                out.append((name, n))
    return out


def _called(node: ts.Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node


def expansion_of_use(table: MacroTable, frag, data: bytes, node: ts.Node):
    """Known(the expansion of one use: the name, or the whole call when the name is
    called) or Unknown(why not)."""
    target = node.parent if _called(node) else node
    return table.expand(frag.text(data, target))


def tokens(text: str) -> list[str]:
    """The preprocessing tokens of an expansion."""
    return _TOKEN.findall(text)


# The C++ casts: `cast<T>(x)` names no function (translator.ir.implicit, statements).
CAST_WORDS = frozenset({"static_cast", "reinterpret_cast", "const_cast", "dynamic_cast"})


def called_names(expansion: str) -> list[str]:
    """The names an expansion calls, first first, once each: a name followed by `(`, or by
    template arguments and `(` (`f<float>(x)` calls f; `a < b > (c)` may, and counts). A
    cast keeps its type, as written between its angle brackets, tokens joined by spaces
    (`static_cast<Wide>(x)`: "static_cast<Wide>"), for the caller to judge."""
    found = tokens(expansion)
    out: list[str] = []
    for at, name in enumerate(found[:-1]):
        if not (name[0].isalpha() or name[0] == "_"):
            continue
        called = name if found[at + 1] == "(" else _template_call(found, at)
        if called is not None and called not in out:
            out.append(called)
    return out


def _template_call(found: list[str], at: int) -> str | None:
    """The callee of `name<...>(` at `at` (see called_names), or None."""
    if found[at + 1] != "<":
        return None
    depth = 0
    for end in range(at + 1, min(len(found), at + 65)):
        token = found[end]
        depth += {"<": 1, ">": -1, ">>": -2}.get(token, 0)
        if token in (";", "{", "}") or depth < 0:
            return None
        if depth == 0:
            if end + 1 >= len(found) or found[end + 1] != "(":
                return None
            name = found[at]
            return f"{name}<{' '.join(found[at + 2:end])}>" if name in CAST_WORDS else name
    return None


# What an expansion may hold and still be a value the code around it could have written
# itself: numbers, arithmetic and comparison operators, casts to arithmetic types, and
# calls of the device library's math functions (whose arguments are the tree's).
_ARITHMETIC_WORDS = frozenset({"float", "double", "int", "unsigned", "signed", "long", "short", "char", "bool",
                               "const", "true", "false", "static_cast", "sizeof"})
_PURE_OPERATORS = frozenset("+ - * / % ( ) , ? : < > << >> <= >= == != && || ! ~ ^ |".split())
_NOT_MATH = re.compile(r"atomic|shfl|ballot|vote|sync|fence|activemask|__any|__all|match|reduce|printf|alloc|free|"
                       r"mem|clock|trap|ldg|__ld|__st|nanosleep|assert|prof|brkpt|lane|warp|Idx|Dim")


def impure(table: MacroTable, name: str, node: ts.Node, frag, data: bytes) -> str | None:
    """Why a use of the macro `name` may hide code an analysis of the tree does not see (a
    memory access, a name of the code around it, a thread index, an assignment, a call
    that is not of a math function), or None when it is a pure value: its body, its
    macros expanded, holds only numbers, operators, arithmetic casts, math calls and (for
    a function-like macro) its parameters, whose arguments are in the tree."""
    macro = table.get(name)
    if isinstance(macro, Unknown):
        return macro.reason
    params = set(macro.params or ())
    if macro.params is not None and not _called(node):
        return None
    body = table.expand(macro.body)
    if isinstance(body, Unknown):
        return body.reason
    from translator.ir.calls import library_functions
    library = library_functions()
    for token in tokens(body.value):
        if token in params or token in _PURE_OPERATORS or token in _ARITHMETIC_WORDS or token[0].isdigit() \
                or token[0] == "." and token[1:2].isdigit():
            continue
        if (token[0].isalpha() or token[0] == "_") and token in library and not _NOT_MATH.search(token):
            continue
        return f"it uses the macro {name}{macro.where}, which expands to '{macro.body}': '{token}' there is not a " \
               "number, an operator, an arithmetic cast or a math function, so the expansion holds code the " \
               "analysis of the kernel's text does not see"
    return None


def macros(parsed) -> MacroTable:
    """The macro table of a parse (the fact "macros": once per round)."""
    from translator.facts import provide
    return provide(parsed, "macros")
