"""Find the CUDA names a file uses, the way HIPIFY's token rewriter does, with the tree
to tell code from strings and comments.

A regex finds candidate identifiers (only names that start like a table entry), the
mapping tables keep the known ones, and the parse tree keeps only real identifiers:
a hit inside a string, a comment, a `#include` path or a member name is not an API
use. `#define` bodies are searched in their own parse (translator.frontend).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile
from translator.ir import ApiUse
from translator.mapping import ApiEntry, MappingTables

# Node types whose text is an identifier that may name an API.
_NAME_NODES = frozenset({"identifier", "type_identifier", "namespace_identifier"})
# `cub::` becomes `hipcub::` (HIPIFY's namespace map; the CUB table lists only macros).
NAMESPACES = {"cub": "hipcub"}


@dataclass(frozen=True)
class Use:
    """An API use together with its table entry and tree node, for the passes."""
    api: ApiUse
    entry: ApiEntry | None     # None for a namespace
    node: ts.Node
    fragment: Fragment


@cache
def _candidate_pattern(tables: MappingTables) -> re.Pattern[bytes]:
    prefixes = sorted({name[:3] for name in tables.names()} | {ns[:3] for ns in NAMESPACES})
    alternation = b"|".join(re.escape(p.encode()) for p in prefixes)
    return re.compile(rb"(?<![\w$])(?:" + alternation + rb")\w*")


def scan_api_uses(parsed: ParsedFile, tables: MappingTables) -> list[Use]:
    pattern = _candidate_pattern(tables)
    data = parsed.data
    uses: list[Use] = []
    for frag in parsed.fragments:
        root = frag.root
        lo = max(0, root.start_byte + frag.delta)
        hi = min(len(data), root.end_byte + frag.delta)
        for match in pattern.finditer(data, lo, hi):
            name = match.group().decode("ascii", "replace")
            entry = tables.lookup(name)
            if entry is None and name not in NAMESPACES:
                continue
            start, end = match.start() - frag.delta, match.end() - frag.delta
            node = root.descendant_for_byte_range(start, end)
            if node is None or node.start_byte != start or node.end_byte != end or node.type not in _NAME_NODES:
                continue
            if entry is None and node.type != "namespace_identifier":
                continue
            kind = entry.kind if entry is not None else "namespace"
            library = entry.library if entry is not None else "cub"
            uses.append(Use(ApiUse(name, kind, library, (match.start(), match.end()), frag.in_macro,
                                   _in_directive(node)), entry, node, frag))
    uses.sort(key=lambda u: u.api.span)
    return uses


def _in_directive(node: ts.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type.startswith("preproc_") and parent.type not in ("preproc_if", "preproc_ifdef",
                                                                       "preproc_else", "preproc_elif",
                                                                       "preproc_elifdef"):
            return True
        if parent.type in ("preproc_if", "preproc_elif") and node.start_byte < _condition_end(parent):
            return True
        if parent.type == "preproc_ifdef" and parent.child_by_field_name("name") == node:
            return True
        node, parent = parent, parent.parent
    return False


def _condition_end(node: ts.Node) -> int:
    cond = node.child_by_field_name("condition")
    return cond.end_byte if cond is not None else node.start_byte
