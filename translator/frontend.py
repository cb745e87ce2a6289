"""Front end: tree-sitter-cuda parse, error sites, wrong-tree shapes, macro bodies.

tree-sitter recovers from errors, so a parse always gives a tree; what matters is
knowing where it is wrong. `ParsedFile` holds the tree, every error site (outermost
ERROR, MISSING nodes, erroring nodes with no erroring child, and the known wrong-tree
shapes that carry no ERROR at all), and a separate parse of every `#define` body,
where launches and API calls hide. Each parse is a `Fragment`: a tree plus the offset
of its text in the file, so passes treat file and macro bodies alike.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cache

import tree_sitter as ts
import tree_sitter_cuda as tsc

# Read as text, with no parse (a run answered from the cache reads them without the front end).
from translator.macrotext import (QualifierMacros, directives, lines_of, object_macros,  # noqa: F401 (the API)
                                 qualifier_macros)


@cache
def language() -> ts.Language:
    return ts.Language(tsc.language())


@cache
def _parser() -> ts.Parser:
    return ts.Parser(language())


def parse(data: bytes, old_tree: ts.Tree | None = None) -> ts.Tree:
    """Parse bytes; with `old_tree` (edited to match), incrementally."""
    if old_tree is None:
        return _parser().parse(data)
    return _parser().parse(data, old_tree)


@dataclass(frozen=True)
class ErrorSite:
    start: int
    end: int
    message: str


@dataclass
class Fragment:
    """A parse of the whole file (delta 0), of one `#if` configuration of it, or of one
    macro body (delta = where its text starts in the file)."""
    tree: ts.Tree
    delta: int
    in_macro: bool
    error_sites: list[ErrorSite] = field(default_factory=list)
    limit: tuple[int, int] | None = None   # a macro body's bytes in the file
    # The byte ranges of the file whose tokens this parse answers for, when it shares the
    # file with configuration parses (see `configurations`); None: all of its text.
    owns: list[tuple[int, int]] | None = None

    def ranges(self, size: int) -> list[tuple[int, int]]:
        if self.owns is not None:
            return self.owns
        return [self.limit] if self.limit is not None else [(0, size)]

    @property
    def root(self) -> ts.Node:
        return self.tree.root_node

    def text(self, data: bytes, node: ts.Node) -> str:
        """The node's text in the file `data`, decoded for messages and IR fields."""
        start, end = self.span(node)
        return data[start:end].decode("utf-8", "replace")

    def span(self, node: ts.Node) -> tuple[int, int]:
        start, end = node.start_byte + self.delta, node.end_byte + self.delta
        if self.limit is not None:  # the wrapper around a macro body is not in the file
            lo, hi = self.limit
            start, end = min(max(start, lo), hi), min(max(end, lo), hi)
        return start, end

    def clean(self, node: ts.Node) -> bool:
        """True when structural edits may touch `node`: no error inside it, no ERROR
        around it, and no wrong-tree shape overlapping it."""
        if node.has_error:
            return False
        # An ERROR anywhere gives the root an error; then ask the fragment's Ancestry
        # (translator.ir.ancestry), whose path knows the ERROR above each node: walking
        # up one `.parent` at a time costs the depth squared.
        if self.tree.root_node.has_error:
            from translator.ir.ancestry import ancestry
            tree = ancestry(self)
            if tree.error_above(node):
                return False
            # A `}` tree-sitter supplied in the function around it makes that function's
            # block structure a guess, which the next run over the output may guess
            # otherwise; so does a block outside every function (code at file scope). (A
            # missing `;` or `)` is local: a statement macro leaves those.)
            holder = tree.function_of(node)
            if holder is None and not self.in_macro:
                ups = list(tree.ancestors(node))
                if any(a.type == "compound_statement" for a in ups):
                    return False
                holder = ups[-2] if len(ups) >= 2 else node       # its top-level item
            if holder is not None and any(s.message == _MISSING_BRACE and holder.start_byte <= s.start - self.delta
                                          <= holder.end_byte for s in self.error_sites):
                return False
        start, end = node.start_byte, node.end_byte
        if self.owns is not None and not any(lo <= start + self.delta and end + self.delta <= hi
                                             for lo, hi in self.owns):
            return False   # part of it belongs to another configuration's parse
        # A zero-width site (a missing token) at the node's edge counts too: the node's
        # shape is what tree-sitter guessed around it.
        return not any((s.start - self.delta < end and start < s.end - self.delta) if s.end > s.start
                       else start <= s.start - self.delta <= end for s in self.error_sites)


def _expected(kind: str) -> str:
    """error_sites' message for a token tree-sitter supplied."""
    return f"parse error: expected '{kind}'"


_MISSING_BRACE = _expected("}")


def error_sites(root: ts.Node, delta: int = 0) -> list[ErrorSite]:
    """Every place the parse failed, outermost first, in document order."""
    sites: list[ErrorSite] = []
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            sites.append(ErrorSite(node.start_byte + delta, node.end_byte + delta,
                                   "cannot parse this code"))
            continue
        if node.is_missing:
            sites.append(ErrorSite(node.start_byte + delta, node.end_byte + delta,
                                   _expected(node.type)))
            continue
        children = [c for c in node.children if c.has_error or c.is_missing or c.type == "ERROR"]
        if not children:
            sites.append(ErrorSite(node.start_byte + delta, node.end_byte + delta,
                                   f"parse error in {node.type.replace('_', ' ')}"))
        stack.extend(reversed(children))
    sites.sort(key=lambda s: (s.start, s.end))
    return sites


# Shapes that parse with no ERROR but are wrong (reference/TREE-SITTER-CUDA.md): a loop
# macro `FOR_EACH(i, n) { ... }` read as a nested function definition, and a statement
# macro alone on its line, with no `;`, read as the type of the next line's call. (The
# third, `struct S {...} __align__(16);`, becomes a parse error once `preclean` reads
# `__align__` as `alignas`.) Found from their text, then confirmed on the tree: the
# front end runs no tree-sitter queries, whose compilation costs 10-40 ms each.
_LOOP_MACRO_LINE = re.compile(
    rb"^[ \t]*(?!(?:if|for|while|switch|catch|return|sizeof|else)\b)([A-Za-z_]\w*)[ \t]*\(.*\)[ \t]*\{?[ \t]*\r?$",
    re.M)
_LINE_ENDS_WITH_PAREN = re.compile(rb"\)[ \t]*\{?[ \t]*\r?$", re.M)
_STATEMENT_MACRO_LINE = re.compile(rb"^[ \t]*([A-Z][A-Z0-9_]+)[ \t]*\r?$", re.M)


def node_at(root: ts.Node, start: int, end: int) -> ts.Node | None:
    """The smallest node spanning exactly [start, end), or None."""
    # A search from the root costs the node's depth. Every 64th search first measures
    # the depth at its start; where the tree is deep, its searches go through an Ancestry
    # (translator.ir.ancestry), which starts each one at the deepest node of its path
    # that contains the range: searches in document order then cost the distance between
    # their nodes, not their depth. The node found is the same.
    state = node_at.__dict__
    deep = state.get("deep")       # the Ancestry of the deep tree searched last, or None
    if deep is not None and deep.root == root:
        return deep.node_at(start, end)
    searches = state["searches"] = state.get("searches", 0) + 1
    if not searches % 64 and start < end:
        from translator.ir.ancestry import Ancestry, deep_at
        state["deep"] = deep = Ancestry(root, deep=True) if deep_at(root, start) else None
        if deep is not None:
            return deep.node_at(start, end)
    node = root.descendant_for_byte_range(start, end)
    if node is None or node.start_byte != start or node.end_byte != end:
        return None
    return node


def wrong_tree_sites(root: ts.Node, data: bytes, delta: int = 0) -> list[ErrorSite]:
    """`data` is the text `root` was parsed from; sites are shifted by `delta`."""
    # Nodes and their parents come from an Ancestry of the tree (translator.ir.ancestry):
    # `.parent` and a search from the root each cost the node's depth. A line's start is
    # searched for back to the previous match only (the matches come in order).
    tree = None
    sites = []
    line_start, scanned = 0, 0
    for close in _LINE_ENDS_WITH_PAREN.finditer(data, root.start_byte, root.end_byte):
        # A `)` (and maybe `{`) ending a line: is the line `NAME(...)`? (Literal first:
        # a regex anchored at every line start is scanned many times slower.)
        newline = data.rfind(b"\n", scanned, close.start())
        if newline != -1:
            line_start = newline + 1
        scanned = close.start()
        match = _LOOP_MACRO_LINE.match(data, line_start)
        if match is None:
            continue
        if tree is None:
            from translator.ir.ancestry import Ancestry
            tree = Ancestry(root)
        name = tree.node_at(match.start(1), match.end(1))
        declarator = tree.parent(name) if name is not None else None
        function = tree.parent(declarator) if declarator is not None else None
        if (declarator is not None and declarator.type == "function_declarator" and function is not None
                and function.type == "function_definition" and (holder := tree.parent(function)) is not None
                and holder.type == "compound_statement"):
            sites.append(ErrorSite(function.start_byte + delta, function.end_byte + delta,
                                   "a macro used as a loop or block header (parsed as a nested function)"))
    for match in _STATEMENT_MACRO_LINE.finditer(data, root.start_byte, root.end_byte):
        if tree is None:
            from translator.ir.ancestry import Ancestry
            tree = Ancestry(root)
        name = tree.node_at(match.start(1), match.end(1))
        declaration = tree.parent(name) if name is not None else None
        if (name is not None and name.type == "type_identifier" and declaration is not None
                and declaration.type == "declaration" and declaration.child_by_field_name("type") == name
                and (holder := tree.parent(declaration)) is not None and holder.type == "compound_statement"):
            sites.append(ErrorSite(declaration.start_byte + delta, declaration.end_byte + delta,
                                   f"statement macro '{match.group(1).decode()}' without ';' hides the next "
                                   "statement"))
    return sites


_IDENTIFIER = re.compile(rb"[A-Za-z_]\w*")
# Bytes of words kept, every other byte made a space.
_WORD_BYTES = bytes(c if chr(c).isalnum() or c == 0x5F else 0x20 for c in range(256))


def words_of(text: bytes) -> frozenset[bytes]:
    """Every identifier-like word of `text`, numbers too (a superset does no harm to its
    uses: filters before any per-match Python work). bytes.translate and split, several
    times faster than an identifier regex."""
    return frozenset(text.translate(_WORD_BYTES).split())


_WRAP_OPEN = b"void __cu2hip_macro_body__() {\n"
_WRAP_CLOSE = b"\n;}\n"


def macro_operators_read(body: bytes) -> bytes:
    """A #define body with its `##` and `#` operators made something C++ parses,
    length-preserving (they are no C++ tokens, so every body using them failed to parse):
    `a ## b` reads as `a :: b`, one qualified name whose parts stay separate identifiers
    (renamed token by token, as HIPIFY's token rewriter does), and `#x` (stringizing) as
    ` x`. String and character literals and comments are left as they are."""
    if b"#" not in body:
        return body
    out, i, n = bytearray(body), 0, len(body)
    while i < n:
        c = body[i]
        if c in b"\"'":
            i += 1
            while i < n and body[i] != c and body[i] != 0x0A:
                i += 2 if body[i] == 0x5C else 1
            i += 1
        elif body.startswith(b"/*", i):
            close = body.find(b"*/", i + 2)
            i = n if close < 0 else close + 2
        elif body.startswith(b"//", i):
            newline = body.find(b"\n", i)
            i = n if newline < 0 else newline
        elif c == 0x23:
            if body.startswith(b"##", i):
                out[i:i + 2] = b"::"
                i += 2
            else:
                out[i] = 0x20
                i += 1
        else:
            i += 1
    return bytes(out)


def _macro_fragment(data: bytes, start: int, end: int) -> Fragment:
    """Parse a #define body as statements inside a function, or else as top-level code,
    whichever parses with fewer errors (its `#` and `##` operators read as
    `macro_operators_read` says)."""
    body = macro_operators_read(data[start:end])
    wrapped = parse(_WRAP_OPEN + body + _WRAP_CLOSE)
    best = Fragment(wrapped, start - len(_WRAP_OPEN), True)
    if wrapped.root_node.has_error:
        plain = Fragment(parse(body), start, True)
        if len(error_sites(plain.root)) < len(error_sites(best.root)):
            best = plain
    best.error_sites = [ErrorSite(max(s.start, start), min(max(s.end, start), end), s.message)
                        for s in error_sites(best.root, best.delta)]
    best.limit = (start, end)
    return best


_ALIGN = re.compile(rb"\b__align__(?=\s*\()")
# Blanked whole: GNU attributes, and the CUDA kernel attributes the grammar does not know
# (the launch-bounds pass reports those from the original bytes).
_ATTRIBUTE = re.compile(rb"\b(?:__attribute__\s*\(\(|__maxnreg__\s*\(|__cluster_dims__\s*\()")


# A new-expression of a pointer type, `new int*[rows]`, `new T*[n]()`, `new (at) int**`: the
# grammar's new_expression takes a type and `[n]` but no `*` (an ERROR, and a function the
# structural passes skip). Group 1 holds the stars, which the parse reads as blanks: `new
# int [rows]`, a new_expression of `int` whose span and tokens are the source's. In C++
# every `*` after `new TYPE` belongs to the type (the new-type-id is the longest one), so no
# product is read as a type; a C file's `new` (a name there) is never followed by a name.
# (`new const T[n]` and `new T const*` fail with or without stars: not matched.)
# A star before a `/` stays (blanked, `*/` would lose its star, should it close a comment).
_TEMPLATE_ARGUMENTS = rb"<(?:[^<>;{}()]|<(?:[^<>;{}()]|<[^<>;{}()]*>)*>)*>"
_NEW_POINTER = re.compile(
    rb"(?<![\w$])new(?![\w$])\s*(?:\([^()]*\)\s*)?"
    rb"(?:(?:unsigned|signed|struct|class|typename|enum)\s+)*"
    rb"(?:::\s*)?[A-Za-z_]\w*(?:\s*" + _TEMPLATE_ARGUMENTS + rb")?"
    rb"(?:\s*::\s*[A-Za-z_]\w*(?:\s*" + _TEMPLATE_ARGUMENTS + rb")?)*"
    rb"(?:\s+(?:int|long|short|char|double)(?![\w$]))*"
    rb"((?:\s*\*(?!/))+)(?=\s*(?:/\*(?:[^*]|\*(?!/))*\*/\s*)?[\[({;),])")


def new_pointer_stars(data: bytes) -> list[int]:
    """The offsets of the `*`s of the pointer types of the text's new-expressions."""
    if b"new" not in data:
        return []
    return [m.start(1) + i for m in _NEW_POINTER.finditer(data) for i, c in enumerate(m.group(1)) if c == 0x2A]


def preclean(data: bytes, qualifier_names: frozenset[bytes] = frozenset(),
             words: frozenset[bytes] | None = None, keep=None) -> bytes:
    """Length-preserving rewrites that tree-sitter-cuda parses better (measured in
    reference/TREE-SITTER-CUDA.md): a lone CR (a CR-only file's line break) read as LF,
    `__align__(n)` read as `alignas(n)`, `__attribute__((...))`, `__maxnreg__(n)` and
    `__cluster_dims__(...)` blanked, the stars of a new-expression's pointer type
    (`new int*[rows]`, which the grammar cannot parse) blanked, `#pragma` lines in statement positions (between a
    `for`, `while` or `if` header, `else` or `do`, and a statement without braces, which
    tree-sitter-cuda cannot parse) blanked, and uses of
    qualifier-only macros blanked: those of the file and `qualifier_names` (collected
    over the tree being translated), except a name for which `keep(name)` is true: a
    name the scan renames must stay in the parse wherever it is used, as it stays in
    its `#define` line (directives are never blanked), or the definition would be
    renamed and the uses not. Offsets do not move, so a tree of the cleaned bytes
    addresses the original bytes; edits and messages always use the original."""
    data = lines_of(data)
    own = qualifier_macros([data])
    # Only the names used in the file besides their own definitions (an include guard's
    # macro is defined empty and used in directives only).
    names = {n for n in own if data.count(n) > 1}
    if qualifier_names:
        names |= qualifier_names.intersection(words if words is not None else words_of(data))
    if keep is not None:
        names = {n for n in names if not keep(n)}
    pragmas = statement_pragmas(data) if b"pragma" in data else []
    stars = new_pointer_stars(data)
    if b"__align__" not in data and b"__attribute__" not in data and b"__maxnreg__" not in data \
            and b"__cluster_dims__" not in data and not names and not pragmas and not stars:
        return data
    out = bytearray(_ALIGN.sub(b"alignas  ", data))
    for at in stars:
        out[at] = 0x20
    for lo, hi in pragmas:
        out[lo:hi] = data[lo:hi].translate(_BLANK)
    if names:
        uses = re.compile(rb"(?<![\w#])(?:" + b"|".join(re.escape(m) for m in sorted(names)) + rb")(?![\w$])")
        for match in uses.finditer(data):
            line_start = data.rfind(b"\n", 0, match.start()) + 1
            if not data[line_start:match.start()].lstrip().startswith(b"#"):
                out[match.start():match.end()] = b" " * (match.end() - match.start())
    for match in _ATTRIBUTE.finditer(data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        before = data[line_start:match.start()]
        if b"//" in before or b"/*" in before or before.count(b'"') % 2:
            continue  # in a comment or a string: not code
        depth, i, limit = 0, data.index(b"(", match.start()), min(len(out), match.end() + 1024)
        while i < limit:
            if out[i] == 0x28:
                depth += 1
            elif out[i] == 0x29:
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth == 0 and i < limit and b"*/" not in data[match.start():i]:
            out[match.start():i + 1] = data[match.start():i + 1].translate(_BLANK)
    return bytes(out)


_PRAGMA_LINE = re.compile(rb"^[ \t]*#[ \t]*pragma\b(?:[^\n]*\\\r?\n)*[^\n]*", re.M)
_LINE_COMMENT = re.compile(rb"//[^\n]*\Z")
_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_OPENS_STATEMENT = re.compile(rb"(?:\)|(?<![\w$])else|(?<![\w$])do)\Z")


def statement_pragmas(data: bytes) -> list[tuple[int, int]]:
    """The `#pragma` lines that sit where a statement is expected: after a loop's or an
    `if`'s header, `else` or `do` whose statement has no braces (`for (...)` then
    `#pragma unroll` then the body). Only the code line before them decides: it ends
    with `)`, `else` or `do` (comments aside), and is no directive."""
    out = []
    for match in _PRAGMA_LINE.finditer(data):
        at = match.start()
        while True:
            line_end = data.rfind(b"\n", 0, at)
            if line_end < 0:
                break
            line_start = data.rfind(b"\n", 0, line_end) + 1
            line = _BLOCK_COMMENT.sub(b" ", data[line_start:line_end]).rstrip(b"\r")
            code = _LINE_COMMENT.sub(b"", line).strip() if b"//" in line else line.strip()
            if not code or code.startswith(b"#") and b"pragma" in code[:12]:
                at = line_start      # a blank line, or another pragma of the same statement
                continue
            if not code.startswith(b"#") and _OPENS_STATEMENT.search(code) and line.count(b'"') % 2 == 0:
                out.append((match.start(), match.end()))
            break
    return out


# ---------------------------------------------------------------- #if configurations
#
# Branches that each open a brace or split a statement make the whole-file parse fail.
# Where that happens, the file is parsed once per configuration: configuration k keeps
# branch k of every conditional (or its last one; a conditional without #else has an
# empty one) and blanks the others, length-preserving. Each configuration then answers
# for the bytes it keeps that no earlier configuration kept, inside the failed region;
# a region is handed over only when every configuration parses its share cleanly.

_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b[^\n]*", re.M)
MAX_CONFIGURATIONS = 4


@dataclass
class Conditional:
    start: int
    end: int
    branches: list[tuple[int, int]]     # the text between the directive lines
    has_else: bool

    @property
    def choices(self) -> int:
        return len(self.branches) + (0 if self.has_else else 1)


def conditionals(text: bytes) -> list[Conditional]:
    out, stack = [], []
    for match in _CONDITIONAL.finditer(text):
        kind, line_end = match.group(1), match.end()
        content = line_end + 1 if line_end < len(text) else line_end
        if kind.startswith(b"if"):
            stack.append([match.start(), [], False, content])
        elif not stack:
            continue
        elif kind in (b"elif", b"else"):
            top = stack[-1]
            top[1].append((top[3], match.start()))
            top[2] = top[2] or kind == b"else"
            top[3] = content
        else:
            start, branches, has_else, current = stack.pop()
            branches.append((current, match.start()))
            out.append(Conditional(start, line_end, branches, has_else))
    return out


# Every byte but CR and LF made a space: blanks a range and keeps line numbers.
_BLANK = bytes(c if c in (0x0A, 0x0D) else 0x20 for c in range(256))


def _merge(ranges) -> list[tuple[int, int]]:
    """Sorted, disjoint, non-empty ranges covering the same bytes."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if lo >= hi:
            continue
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _subtract(ranges, cut: list[tuple[int, int]], ends: list[int] | None = None) -> list[tuple[int, int]]:
    """The bytes of `ranges` outside `cut` (a `_merge`d list; `ends`: its ends, if at hand)."""
    if ends is None:
        ends = [hi for _, hi in cut]
    out = []
    for lo, hi in _merge(ranges):
        j, at = bisect.bisect_right(ends, lo), lo
        while j < len(cut) and cut[j][0] < hi:
            if cut[j][0] > at:
                out.append((at, cut[j][0]))
            at = max(at, cut[j][1])
            j += 1
        if at < hi:
            out.append((at, hi))
    return out


def _touches(merged: list[tuple[int, int]], ranges: list[tuple[int, int]]) -> bool:
    """Does any of `ranges` overlap a range of `merged`?"""
    ends = [hi for _, hi in merged]
    for lo, hi in ranges:
        j = bisect.bisect_right(ends, lo)
        if j < len(merged) and merged[j][0] < hi:
            return True
    return False


def _configurations(cleaned: bytes, main: Fragment, groups: list[Conditional],
                    defines: tuple[str, ...] = ()) -> list[Fragment]:
    failed = [s for s in error_sites(main.root)
              if any(g.start < s.end and s.start < g.end for g in groups)]
    if not failed:
        return []
    count = min(MAX_CONFIGURATIONS, max(g.choices for g in groups
                                        if any(g.start < s.end and s.start < g.end for s in failed)))
    # The build's configuration (-D) comes first, so that it answers for the bytes it
    # keeps: each conditional its definitions decide takes the branch they select, the
    # others their first.
    choices: list[list[int]] = [[min(k, g.choices - 1) for g in groups] for k in range(count)]
    if defines:
        values = _define_values(defines)
        build = [_decided(cleaned, g, values) for g in groups]
        if any(b is not None for b in build):
            choices.insert(0, [b if b is not None else 0 for b in build])
    parses = []
    for chosen in choices:
        blanked = []
        for g, keep in zip(groups, chosen):
            # Blank the directive lines too: a configuration is plain code, so a brace
            # opened in a branch can close after #endif.
            edges = [g.start, *(p for branch in g.branches for p in branch), g.end]
            blanked += [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]
            blanked += [branch for i, branch in enumerate(g.branches) if i != keep]
        blanked = _merge(blanked)
        blanked_ends = [hi for _, hi in blanked]
        text = bytearray(cleaned)
        for lo, hi in blanked:
            text[lo:hi] = cleaned[lo:hi].translate(_BLANK)
        tree = parse(bytes(text))
        sites = error_sites(tree.root_node) + wrong_tree_sites(tree.root_node, bytes(text))
        # A MISSING node is an empty range: give it a byte so that it still counts.
        errors = _merge((e.start, max(e.end, e.start + 1)) for e in sites)
        parses.append((Fragment(tree, 0, False, sites), (blanked, blanked_ends), errors))
    owned: list[list[tuple[int, int]]] = [[] for _ in parses]
    handed = []
    for site in failed:
        shares, taken = [], []
        for _, (blanked, blanked_ends), _ in parses:
            share = _subtract(_subtract([(site.start, site.end)], blanked, blanked_ends), taken)
            shares.append(share)
            taken = _merge(taken + share)
        if not any(_touches(errors, share) for (_, _, errors), share in zip(parses, shares)):
            handed.append((site.start, site.end))
            for k, share in enumerate(shares):
                owned[k] += share
    if not handed:
        return []
    main.owns = _subtract([(0, len(cleaned))], _merge(r for share in owned for r in share))
    main.error_sites = [s for s in main.error_sites
                        if not any(lo <= s.start and s.end <= hi for lo, hi in handed)]
    out = []
    for (fragment, _, _), share in zip(parses, owned):
        if share:
            fragment.owns = sorted(share)
            out.append(fragment)
    return out


def _define_values(defines: tuple[str, ...]) -> dict[str, int | None]:
    """`-D NAME[=VALUE]` as the preprocessor sees them: NAME is 1, an integer value is
    itself, any other value None (defined, of unknown value)."""
    out: dict[str, int | None] = {}
    for d in defines:
        name, _, value = d.partition("=")
        value = value.strip() if "=" in d else "1"
        try:
            out[name.strip()] = int(value, 0)
        except ValueError:
            out[name.strip()] = None
    return out


_PP_TOKEN = re.compile(rb"\s*(defined\b|[A-Za-z_]\w*|0[xX][0-9a-fA-F]+|\d+|&&|\|\||==|!=|<=|>=|[!<>()])")


def _condition_value(text: bytes, values: dict[str, int | None]) -> bool | None:
    """The truth of an `#if` condition when every name in it is one the definitions
    give (or a `defined` test of one); None when it depends on anything else."""
    text = text.split(b"//", 1)[0].split(b"/*", 1)[0].strip()
    tokens, pos = [], 0
    while pos < len(text):
        m = _PP_TOKEN.match(text, pos)
        if m is None:
            return None
        tokens.append(m.group(1).decode())
        pos = m.end()
        if not text[pos:].strip():
            break
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "defined":
            parenthesized = tokens[i + 1:i + 2] == ["("]
            name = tokens[i + 2] if parenthesized and tokens[i + 3:i + 4] == [")"] else \
                tokens[i + 1] if not parenthesized and i + 1 < len(tokens) else None
            width = 4 if parenthesized else 2
            if name is None or name not in values:
                return None
            out.append("1")
            i += width
            continue
        if t[0].isalpha() or t[0] == "_":
            if values.get(t) is None:
                return None
            out.append(str(values[t]))
        elif t[0].isdigit():
            out.append(str(int(t, 0)))
        else:
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(t, t))
        i += 1
    expression = "".join(out)
    try:
        return bool(eval(expression, {"__builtins__": {}}, {}))     # integers and operators only
    except (SyntaxError, TypeError, ZeroDivisionError, NameError, ValueError):
        return None


_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(ifdef|ifndef|if|elif|else)\b([^\n]*)")


def _decided(text: bytes, group: Conditional, values: dict[str, int | None]) -> int | None:
    """The branch of a conditional that the definitions select, or None."""
    starts = [group.start] + [hi for _, hi in group.branches[:-1]]
    for k, at in enumerate(starts):
        m = _DIRECTIVE.match(text, at)
        if m is None:
            return None
        kind, rest = m.group(1), m.group(2).strip()
        if kind == b"else":
            return k
        name = rest.split()[0].decode() if rest.split() else ""
        if kind in (b"ifdef", b"ifndef"):
            if name not in values:
                return None
            truth = kind == b"ifdef"
        else:
            truth = _condition_value(rest, values)
            if truth is None:
                return None
        if truth:
            return k
    return len(group.branches) if not group.has_else else None


@dataclass
class ParsedFile:
    data: bytes               # the original bytes
    main: Fragment
    macros: list[Fragment]
    cleaned: bytes = b""      # what was parsed (`preclean`): same length and offsets
    configurations: list[Fragment] = field(default_factory=list)
    words: frozenset[bytes] = frozenset()   # words_of(data): a superset of the cleaned text's

    def __post_init__(self) -> None:
        if not self.cleaned:
            self.cleaned = self.data
        if not self.words:
            self.words = words_of(self.data)

    def word_pattern(self, names) -> re.Pattern[bytes] | None:
        """A regex matching those of `names` (bytes) that occur in the file, or more: the
        caller confirms each match on the tree; None when none occurs."""
        found = self.words.intersection(names)
        if not found:
            return None
        if len(found) > 48 or len(self.data) < 512 * len(found):
            # `re` tries an alternation's branches one by one: past a few dozen names, every
            # identifier is cheaper (a header that uses hundreds of APIs). Compiling the
            # alternation costs about 45 us a name, scanning every identifier about 0.1 us
            # a byte: in a file of less than 512 bytes a name, every identifier is cheaper.
            return _IDENTIFIER
        # Longest first and no leading boundary (a literal start scans fast): the node at
        # each match's exact range confirms the token.
        return re.compile(rb"(?:" + b"|".join(re.escape(n) for n in sorted(found, key=len, reverse=True))
                          + rb")(?![\w$])")

    @property
    def fragments(self) -> list[Fragment]:
        return [self.main, *self.configurations, *self.macros]

    @property
    def error_sites(self) -> list[ErrorSite]:
        return self.main.error_sites


def parse_file(data: bytes, wanted_macro=None, qualifier_names: frozenset[bytes] = frozenset(),
               keep=None, defines: tuple[str, ...] = ()) -> ParsedFile:
    """Parse a file (through `preclean`) and its #define bodies. `ParsedFile.data` is the
    original bytes. `wanted_macro(body_bytes)`, when given, picks the bodies worth
    parsing (those that mention something a pass looks for). `keep(name)` names the
    macros never blanked as qualifier macros (see `preclean`); by default
    `wanted_macro`: a macro named after something a pass looks for (`#define
    cudaStream_t`) stays in the parse, so that its uses are found as its definition is."""
    words = words_of(data)
    cleaned = preclean(data, qualifier_names, words, keep if keep is not None else wanted_macro)
    tree = parse(cleaned)
    main = Fragment(tree, 0, False)
    main.error_sites = _unterminated_directive(cleaned, sorted(
        error_sites(tree.root_node) + wrong_tree_sites(tree.root_node, cleaned), key=lambda s: (s.start, s.end)))
    configurations = []
    if tree.root_node.has_error and b"#" in cleaned:
        groups = conditionals(cleaned)
        if groups:
            configurations = _configurations(cleaned, main, groups, defines)
    macros = []
    for hash_at, end in directives(cleaned, b"define"):
        node = node_at(tree.root_node, hash_at, end)
        directive = node.parent if node is not None else None
        if directive is None or directive.type not in ("preproc_def", "preproc_function_def"):
            continue
        body = directive.child_by_field_name("value")
        if body is None or body.end_byte <= body.start_byte:
            continue
        if wanted_macro is None or wanted_macro(cleaned[body.start_byte:body.end_byte]):
            macros.append(_macro_fragment(cleaned, body.start_byte, body.end_byte))
    return ParsedFile(data, main, macros, cleaned, configurations, words)


def _unterminated_directive(text: bytes, sites: list[ErrorSite]) -> list[ErrorSite]:
    """The sites less the one a last directive line with no final newline makes
    (`#include <x.h>` at the end of a file): the grammar wants the newline, the
    preprocessor does not, and nothing else is wrong there."""
    if not sites or text.endswith(b"\n"):
        return sites
    last = text.rfind(b"\n") + 1
    if not text[last:].lstrip(b" \t").startswith(b"#"):
        return sites
    return [s for s in sites if s.start < last]


def unparsed_define_bodies(parsed: ParsedFile, wanted) -> list[Fragment]:
    """A parse of each `#define` body that the front end left unparsed (it parses only
    those a pass looks for) and for which `wanted(start, end)` of its bytes in the
    cleaned text is true."""
    text = parsed.cleaned
    if b"define" not in text:
        return []
    done = {m.limit for m in parsed.macros}
    out = []
    for hash_at, end in directives(text, b"define"):
        token = node_at(parsed.main.root, hash_at, end)
        directive = token.parent if token is not None else None
        if directive is None or directive.type not in ("preproc_def", "preproc_function_def"):
            continue
        body = directive.child_by_field_name("value")
        if body is None or body.end_byte <= body.start_byte or (body.start_byte, body.end_byte) in done:
            continue
        if wanted(body.start_byte, body.end_byte):
            out.append(_macro_fragment(text, body.start_byte, body.end_byte))
    return out


def include_directives(parsed: ParsedFile) -> list[tuple[ts.Node, ts.Node]]:
    """(directive, path) of every `#include <...>` or `#include "..."` of the file, in order."""
    out = []
    root = parsed.main.root
    for hash_at, end in directives(parsed.cleaned, b"include"):
        token = node_at(root, hash_at, end)
        node = token.parent if token is not None else None
        path = node.child_by_field_name("path") if node is not None and node.type == "preproc_include" else None
        if path is not None and path.type in ("system_lib_string", "string_literal"):
            out.append((node, path))
    return out
