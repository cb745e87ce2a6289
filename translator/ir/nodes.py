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

from translator.frontend import Fragment, ParsedFile
from translator.ir.ancestry import ancestry
from translator.ir.model import Expr


def hits(parsed: ParsedFile, frag: Fragment, pattern: re.Pattern, lo: int, hi: int, group: int = 0):
    """(match, node) for each regex hit in file bytes [lo, hi) whose exact range is a node.
    (Searched from the fragment's Ancestry: each search starts at the deepest node of its
    path that contains the hit, not at the root; the node found is the same.)"""
    tree = ancestry(frag)
    delta = frag.delta
    for match in pattern.finditer(parsed.cleaned, lo, hi):
        node = tree.node_at(match.start(group) - delta, match.end(group) - delta)
        if node is not None:
            yield match, node


_OPEN = re.compile(rb"\(")


def calls_between(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> list[ts.Node]:
    """The call expressions whose argument list opens in file bytes [lo, hi), in document
    order: each found from the `(` of its argument list (a regex hit confirmed on the
    tree), not by a walk of every node."""
    found = []
    for _, paren in hits(parsed, frag, _OPEN, lo, hi):
        arguments = parent_of(frag, paren)
        if arguments is None or arguments.type != "argument_list":
            continue
        call = parent_of(frag, arguments)
        if call is not None and call.type == "call_expression" and call.child_by_field_name("arguments") == arguments:
            found.append(call)
    found.sort(key=lambda n: (n.start_byte, -n.end_byte))     # an outer call before the calls it holds
    return found


def owned_hits(parsed: ParsedFile, frag: Fragment, pattern: re.Pattern):
    """hits() over the byte ranges the fragment answers for."""
    for lo, hi in frag.ranges(len(parsed.data)):
        yield from hits(parsed, frag, pattern, lo, hi)


def text(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> str:
    """The node's source text, from the original bytes."""
    return frag.text(parsed.data, node)


def expr(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> Expr:
    """The node as an Expr: its span in the file (and its text, read from the file's bytes)."""
    return Expr.of(parsed.data, frag.span(node))


def parent_of(frag: Fragment, node: ts.Node) -> ts.Node | None:
    """`node.parent`, from the fragment's Ancestry (see translator.ir.ancestry)."""
    held = frag.__dict__.get("_ancestry")       # ancestry(frag), inlined: called per hit
    if held is None or held[0] is not frag.tree:
        return ancestry(frag).parent(node)
    return held[1].parent(node)


def call_of(name: ts.Node, frag: Fragment | None = None) -> ts.Node | None:
    """The call_expression whose function is `name` (through `ns::` qualifiers), or None.
    With the node's fragment, its ancestors come from the fragment's Ancestry."""
    node = name
    if frag is None:
        while node.parent is not None and node.parent.type == "qualified_identifier" \
                and node.parent.child_by_field_name("name") == node:
            node = node.parent
        parent = node.parent
    else:       # parent after parent: O(1) each on a deep Ancestry's path
        tree = ancestry(frag)
        parent = tree.parent(node)
        while parent is not None and parent.type == "qualified_identifier" \
                and parent.child_by_field_name("name") == node:
            node, parent = parent, tree.parent(parent)
    if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return parent
    return None


def statement_of(node: ts.Node, frag: Fragment | None = None) -> tuple[ts.Node | None, int | None]:
    """The statement of the nearest enclosing block that holds `node`, and its position
    among the block's statements (comments not counted); (None, None) outside a block.
    With the node's fragment, from the fragment's Ancestry: no walk up the tree, and each
    block's statements are listed once however many are asked about."""
    if frag is not None:
        tree = ancestry(frag)
        parent, child = tree.block_of(node)
        if parent is None:
            return None, None
        return child, tree.position(parent, child)
    child = node
    parent = node.parent
    while parent is not None and parent.type != "compound_statement":
        child, parent = parent, parent.parent
    if parent is None:
        return None, None
    named = [c for c in parent.named_children if c.type != "comment"]
    return child, next((i for i, c in enumerate(named) if c == child), None)


def function_around(node: ts.Node | None) -> ts.Node | None:
    """The function_definition at or above `node`, by `.parent` (for the small trees of
    one statement or call; `enclosing_function` answers for a fragment's deep nodes)."""
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def balanced(text: str) -> bool:
    """Whether the parentheses of `text` never close more than they opened and all close."""
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def enclosing_function(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> str | None:
    """The name of the function definition around `node`, as written; None in a macro
    body or outside any function. (The fragment's Ancestry knows the nearest function
    definition above each node of its path: no walk up the tree, whose `.parent` calls
    each cost the node's depth.)"""
    if frag.in_macro:
        return None
    node = ancestry(frag).function_of(node)
    if node is None:
        return None
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type not in ("identifier", "qualified_identifier", "field_identifier",
                                                 "operator_name", "destructor_name"):
        decl = decl.child_by_field_name("declarator")
    return text(parsed, frag, decl) if decl is not None else None


def function_name(data: bytes, function: ts.Node, missing: str = "?") -> str:
    """The name a function definition declares, as written (through pointer and reference
    declarators); `missing` where it has none."""
    d = function.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    name = d.child_by_field_name("declarator") if d is not None else None
    return data[name.start_byte:name.end_byte].decode("utf-8", "replace") if name is not None else missing


def initialized(declaration: ts.Node | None) -> tuple[ts.Node, ts.Node] | None:
    """(declarator, value) of a declaration of one declarator with an initializer
    (`T v = e;`, `T *p = e;`, `for (int k = 0; ...)`'s), else None."""
    if declaration is None or declaration.type != "declaration":
        return None
    declarators = declaration.children_by_field_name("declarator")
    if len(declarators) != 1 or declarators[0].type != "init_declarator":
        return None
    name, value = declarators[0].child_by_field_name("declarator"), declarators[0].child_by_field_name("value")
    return (name, value) if name is not None and value is not None else None


def descendants(node: ts.Node, named: bool = True) -> list[ts.Node]:
    """The node and its named descendants (all of them with `named=False`), in document
    order (for the small subtrees of one kernel or statement: `.parent`-free, no
    recursion). A list, built by one loop: a generator costs twice as much per node."""
    out: list[ts.Node] = []
    stack = [node]
    pop, extend, add = stack.pop, stack.extend, out.append
    while stack:
        n = pop()
        add(n)
        kids = n.named_children if named else n.children
        if kids:
            extend(kids[::-1])      # a copy: tree-sitter hands out the node's own list of children
    return out


def with_parents(node: ts.Node) -> list[tuple[ts.Node, ts.Node | None]]:
    """(node, its parent) for the node (parent None) and its named descendants, in
    document order: a walk that knows each parent without `.parent`, which costs the
    node's depth in tree-sitter. A list, built by one loop (see descendants)."""
    out: list[tuple[ts.Node, ts.Node | None]] = []
    stack: list[tuple[ts.Node, ts.Node | None]] = [(node, None)]
    pop, push, add = stack.pop, stack.append, out.append
    while stack:
        item = pop()
        add(item)
        n = item[0]
        kids = n.named_children
        if kids:
            for c in reversed(kids):
                push((c, n))
    return out


def assigned(data: bytes, node: ts.Node, parent: ts.Node | None = ...) -> bool:
    """Is the name `node` written here: the left side of an assignment, the operand of
    `++`/`--`, or taken by address (`&x`: it may be written through)? (`parent`: the
    node's, when the caller knows it.)"""
    parent = node.parent if parent is ... else parent
    if parent is None:
        return False
    if parent.type == "update_expression":
        return True
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == node:
        return True
    return parent.type == "pointer_expression" and data[parent.start_byte:node.start_byte].strip() == b"&"


def declares(parent: ts.Node | None, node: ts.Node) -> bool:
    """Is `node` a declarator of `parent` (its `declarator` field)? A declaration has one
    per name it declares (`int a, b;`: `b` is its second), which `child_by_field_name`,
    the first, does not see."""
    return parent is not None and any(d == node for d in parent.children_by_field_name("declarator"))
