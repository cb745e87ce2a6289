r"""Helpers the analyses share: regex hits confirmed on the tree, and small tree walks.

Everything is found from the text and confirmed on the tree: a regex finds candidate
tokens (`__global__`, `<<<`, `threadIdx`, a parameter name followed by `[` ...), the
tree gives the node at that exact byte range, and its parents say what it is. A hit
in a comment or a string has no matching node and drops out. This costs a regex scan
and a few C calls per hit, where tree-sitter queries cost 10-40 ms each to compile.

The analyses' patterns have no leading \b: the node at the match's exact range confirms
the token's boundaries, and a pattern that starts with a literal is scanned many times
faster by `re`.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile, node_at
from translator.ir.model import Expr


def hits(parsed: ParsedFile, frag: Fragment, pattern: re.Pattern, lo: int, hi: int, group: int = 0):
    """(match, node) for each regex hit in file bytes [lo, hi) whose exact range is a node."""
    for match in pattern.finditer(parsed.cleaned, lo, hi):
        node = node_at(frag.root, match.start(group) - frag.delta, match.end(group) - frag.delta)
        if node is not None:
            yield match, node


def owned_hits(parsed: ParsedFile, frag: Fragment, pattern: re.Pattern):
    """hits() over the byte ranges the fragment answers for."""
    for lo, hi in frag.ranges(len(parsed.data)):
        yield from hits(parsed, frag, pattern, lo, hi)


def text(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> str:
    """The node's source text, from the original bytes."""
    return frag.text(parsed.data, node)


def expr(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> Expr:
    """The node as an Expr: its text and its span in the file."""
    return Expr(text(parsed, frag, node), frag.span(node))


def call_of(name: ts.Node) -> ts.Node | None:
    """The call_expression whose function is `name` (through `ns::` qualifiers), or None."""
    node = name
    while node.parent is not None and node.parent.type == "qualified_identifier" \
            and node.parent.child_by_field_name("name") == node:
        node = node.parent
    parent = node.parent
    if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return parent
    return None


def statement_of(node: ts.Node) -> tuple[ts.Node | None, int | None]:
    """The statement of the nearest enclosing block that holds `node`, and its position
    among the block's statements (comments not counted); (None, None) outside a block."""
    child = node
    parent = node.parent
    while parent is not None and parent.type != "compound_statement":
        child, parent = parent, parent.parent
    if parent is None:
        return None, None
    named = [c for c in parent.named_children if c.type != "comment"]
    return child, next((i for i, c in enumerate(named) if c == child), None)


def enclosing_function(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> str | None:
    """The name of the function definition around `node`, as written; None in a macro
    body or outside any function."""
    if frag.in_macro:
        return None
    while node is not None and node.type != "function_definition":
        node = node.parent
    if node is None:
        return None
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type not in ("identifier", "qualified_identifier", "field_identifier",
                                                 "operator_name", "destructor_name"):
        decl = decl.child_by_field_name("declarator")
    return text(parsed, frag, decl) if decl is not None else None
