"""Front end: tree-sitter-cuda parse, error sites, wrong-tree shapes, macro bodies.

tree-sitter recovers from errors, so a parse always gives a tree; what matters is
knowing where it is wrong. `ParsedFile` holds the tree, every error site (outermost
ERROR, MISSING nodes, erroring nodes with no erroring child, and the known wrong-tree
shapes that carry no ERROR at all), and a separate parse of every `#define` body,
where launches and API calls hide. Each parse is a `Fragment`: a tree plus the offset
of its text in the file, so passes treat file and macro bodies alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

import tree_sitter as ts
import tree_sitter_cuda as tsc


@cache
def language() -> ts.Language:
    return ts.Language(tsc.language())


@cache
def _parser() -> ts.Parser:
    return ts.Parser(language())


@cache
def query(text: str) -> ts.Query:
    return ts.Query(language(), text)


def parse(data: bytes) -> ts.Tree:
    return _parser().parse(data)


@dataclass(frozen=True)
class ErrorSite:
    start: int
    end: int
    message: str


@dataclass
class Fragment:
    """A parse of the whole file (delta 0) or of one macro body (delta = where its text starts)."""
    tree: ts.Tree
    delta: int
    in_macro: bool
    error_sites: list[ErrorSite] = field(default_factory=list)
    limit: tuple[int, int] | None = None   # a macro body's bytes in the file


    @property
    def root(self) -> ts.Node:
        return self.tree.root_node

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
        parent = node.parent
        while parent is not None:
            if parent.type == "ERROR":
                return False
            parent = parent.parent
        start, end = node.start_byte, node.end_byte
        return not any(s.start - self.delta < end and start < s.end - self.delta
                       for s in self.error_sites)


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
                                   f"parse error: expected '{node.type}'"))
            continue
        children = [c for c in node.children if c.has_error or c.is_missing or c.type == "ERROR"]
        if not children:
            sites.append(ErrorSite(node.start_byte + delta, node.end_byte + delta,
                                   f"parse error in {node.type.replace('_', ' ')}"))
        stack.extend(reversed(children))
    sites.sort(key=lambda s: (s.start, s.end))
    return sites


_ALL_CAPS = re.compile(r"[A-Z][A-Z0-9_]+\Z")

# Shapes that parse with no ERROR but are wrong (reference/TREE-SITTER-CUDA.md):
# a loop macro `FOR_EACH(i, n) { ... }` read as a nested function definition; a
# statement macro with no `;` read as the type of the next line's call. (The third,
# `struct S {...} __align__(16);`, becomes a parse error once `preclean` reads
# `__align__` as `alignas`.)
_SHAPES = """
(compound_statement (function_definition) @nested_function)
(compound_statement (declaration type: (type_identifier) @macro_type declarator: (_) @decl) @declaration)
"""


def wrong_tree_sites(root: ts.Node, data: bytes, delta: int = 0) -> list[ErrorSite]:
    sites = []
    for _, caps in ts.QueryCursor(query(_SHAPES)).matches(root):
        if "nested_function" in caps:
            node = caps["nested_function"][0]
            sites.append(ErrorSite(node.start_byte + delta, node.end_byte + delta,
                                   "a macro used as a loop or block header (parsed as a nested function)"))
        elif "macro_type" in caps:
            type_node, decl = caps["macro_type"][0], caps["declaration"][0]
            name = data[type_node.start_byte:type_node.end_byte].decode("utf-8", "replace")
            if _ALL_CAPS.match(name) and type_node.end_point[0] < caps["decl"][0].start_point[0]:
                sites.append(ErrorSite(decl.start_byte + delta, decl.end_byte + delta,
                                       f"statement macro '{name}' without ';' hides the next statement"))
    return sites


_MACRO_BODIES = "[(preproc_def value: (preproc_arg) @body) (preproc_function_def value: (preproc_arg) @body)]"
_WRAP_OPEN = b"void __cu2hip_macro_body__() {\n"
_WRAP_CLOSE = b"\n;}\n"


def _macro_fragment(data: bytes, start: int, end: int) -> Fragment:
    """Parse a #define body as statements inside a function, or else as top-level code,
    whichever parses with fewer errors."""
    body = data[start:end]
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
_ATTRIBUTE = re.compile(rb"\b__attribute__\s*\(\(")


_QUALIFIER_DEFINE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+((?:(?:__host__|__device__|__global__|__forceinline__|"
    rb"__noinline__|__inline__|inline|static|extern|constexpr)[ \t]*)+)$", re.M)


def preclean(data: bytes) -> bytes:
    """Length-preserving rewrites that tree-sitter-cuda parses better (measured in
    reference/TREE-SITTER-CUDA.md): `__align__(n)` read as `alignas(n)`,
    `__attribute__((...))` blanked, and uses of a qualifier-only macro of the file
    (`#define HOST_DEVICE __host__ __device__`) blanked. Offsets do not move, so a tree
    of the cleaned bytes addresses the original bytes; edits and messages always use
    the original."""
    qualifier_macros = [m.group(1) for m in _QUALIFIER_DEFINE.finditer(data)] if b"define" in data else []
    if b"__align__" not in data and b"__attribute__" not in data and not qualifier_macros:
        return data
    out = bytearray(_ALIGN.sub(b"alignas  ", data))
    if qualifier_macros:
        uses = re.compile(rb"(?<![\w#])(?:" + b"|".join(re.escape(m) for m in qualifier_macros) + rb")(?!\w)")
        defined_at = {m.start(1) for m in _QUALIFIER_DEFINE.finditer(data)}
        for match in uses.finditer(data):
            line_start = data.rfind(b"\n", 0, match.start()) + 1
            if match.start() not in defined_at and not data[line_start:match.start()].lstrip().startswith(b"#"):
                out[match.start():match.end()] = b" " * (match.end() - match.start())
    for match in _ATTRIBUTE.finditer(data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        before = data[line_start:match.start()]
        if b"//" in before or b"/*" in before or before.count(b'"') % 2:
            continue  # in a comment or a string: not code
        depth, i, limit = 0, match.end() - 2, min(len(out), match.end() + 1024)
        while i < limit:
            if out[i] == 0x28:
                depth += 1
            elif out[i] == 0x29:
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth == 0 and i < limit and b"*/" not in data[match.start():i]:
            for j in range(match.start(), i + 1):
                if out[j] not in (0x0A, 0x0D):
                    out[j] = 0x20
    return bytes(out)


@dataclass
class ParsedFile:
    data: bytes
    main: Fragment
    macros: list[Fragment]

    @property
    def fragments(self) -> list[Fragment]:
        return [self.main, *self.macros]

    @property
    def error_sites(self) -> list[ErrorSite]:
        return self.main.error_sites


def parse_file(data: bytes) -> ParsedFile:
    """Parse a file (through `preclean`) and its #define bodies. `ParsedFile.data` is the
    original bytes."""
    cleaned = preclean(data)
    tree = parse(cleaned)
    main = Fragment(tree, 0, False)
    main.error_sites = sorted(error_sites(tree.root_node) + wrong_tree_sites(tree.root_node, data),
                              key=lambda s: (s.start, s.end))
    macros = []
    if b"#" in data:
        for _, caps in ts.QueryCursor(query(_MACRO_BODIES)).matches(tree.root_node):
            body = caps["body"][0]
            if body.end_byte > body.start_byte:
                macros.append(_macro_fragment(cleaned, body.start_byte, body.end_byte))
    return ParsedFile(data, main, macros)
