"""Find the CUDA names a file uses, the way HIPIFY's token rewriter does, with the tree
to tell code from strings and comments.

A regex finds every identifier, a set keeps the names the tables know (and a few the
passes need that the tables lack), and the parse tree keeps only real identifiers: a
hit inside a string, a comment, a `#include` path or a member name is not an API use.
`#define` bodies are searched in their own parse (translator.frontend).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile, node_at, words_of
from translator.ir import WARP_SYNC_BUILTINS, ApiUse
from translator.mapping import ApiEntry, MappingTables

# Node types whose text is an identifier that may name an API. Member names count too,
# as in HIPIFY's token rewriter: a misparsed declaration can make a type a member name,
# and a class's member named like an API is renamed at its definition and its uses alike.
_NAME_NODES = frozenset({"identifier", "type_identifier", "namespace_identifier", "field_identifier"})
# `cub::` becomes `hipcub::` (HIPIFY's namespace map; the CUB table lists only macros).
NAMESPACES = {"cub": "hipcub"}


@dataclass(frozen=True)
class Use:
    """An API use together with its table entry and tree node, for the passes."""
    api: ApiUse
    entry: ApiEntry | None     # None for a namespace or a warp builtin
    node: ts.Node
    fragment: Fragment


@cache
def _known_names(tables: MappingTables) -> frozenset[bytes]:
    return frozenset(n.encode() for n in tables.names()) | {n.encode() for n in NAMESPACES} | \
        {n.encode() for n in WARP_SYNC_BUILTINS}


def mentions_api(tables: MappingTables):
    """A predicate on bytes: do they contain a name the scan or the IR looks for?
    (The front end parses only the #define bodies that do.)"""
    names = _known_names(tables)

    def wanted(body: bytes) -> bool:
        return b"<<<" in body or b"__global__" in body or not names.isdisjoint(words_of(body))
    return wanted


def scan_api_uses(parsed: ParsedFile, tables: MappingTables) -> list[Use]:
    names = _known_names(tables)
    pattern = parsed.word_pattern(names)
    if pattern is None:
        return []
    text = parsed.cleaned
    uses: list[Use] = []
    for frag, lo, hi in ((f, lo, hi) for f in parsed.fragments for lo, hi in f.ranges(len(text))):
        root = frag.root
        for match in pattern.finditer(text, lo, hi):
            raw = match.group()
            if raw not in names:
                continue
            name = raw.decode("ascii", "replace")
            node = node_at(root, match.start() - frag.delta, match.end() - frag.delta)
            if node is None or node.type not in _NAME_NODES and not _using_namespace(node, name):
                continue
            entry = tables.lookup(name)
            if entry is None and name in NAMESPACES and node.type != "namespace_identifier" \
                    and not _using_namespace(node, name):
                continue
            if frag.error_sites and _in_broken_literal(text, node, match.start()):
                continue
            if entry is not None:
                kind, library = entry.kind, entry.library
            elif name in NAMESPACES:
                kind, library = "namespace", "cub"
            else:
                kind, library = "device_function", "device"
            uses.append(Use(ApiUse(name, kind, library, (match.start(), match.end()), frag.in_macro,
                                   not frag.in_macro and _in_directive(text, match.start())), entry, node, frag))
    uses.sort(key=lambda u: u.api.span)
    return uses


def _using_namespace(node: ts.Node, name: str) -> bool:
    """`using namespace cub;`: tree-sitter types the name as a plain identifier."""
    return name in NAMESPACES and node.type == "identifier" and node.parent is not None \
        and node.parent.type == "using_declaration"


def _in_broken_literal(text: bytes, node: ts.Node, offset: int) -> bool:
    """Inside an ERROR region tree-sitter may read a string or a comment as tokens; there,
    trust the line's own quoting instead."""
    # The line first: it needs no walk up the tree, where each `.parent` costs the
    # node's depth. A line longer than a few KiB is read through an index of the text's
    # lines (translator.ir.lines), not once per name.
    lo = offset - 4096
    found = text.rfind(b"\n", lo if lo > 0 else 0, offset)
    if found != -1 or lo <= 0:
        line = text[found + 1:offset]
        literal = b"//" in line.replace(b"://", b"") or len(re.findall(rb'(?<!\\)"', line)) % 2 == 1
    else:
        from translator.ir.lines import comment_or_open_string
        literal = comment_or_open_string(text, offset)
    if not literal:
        return False
    parent = node.parent
    while parent is not None and parent.type != "ERROR":
        parent = parent.parent
    return parent is not None


def _in_directive(text: bytes, offset: int) -> bool:
    """Is the offset on a preprocessor directive's line (a continued one included)?"""
    # A line longer than a few KiB, or continued, is read through an index of the text's
    # lines (translator.ir.lines): a search back to its start per name is quadratic.
    lo = offset - 4096
    start = text.rfind(b"\n", lo if lo > 0 else 0, offset) + 1
    if (start or lo <= 0) and not (start > 1 and (text[start - 2:start - 1] == b"\\" or
                                                  text[max(start - 3, 0):start - 1] == b"\\\r")):
        return text[start:offset].lstrip(b" \t").startswith(b"#")
    from translator.ir.lines import in_directive
    return in_directive(text, offset)
