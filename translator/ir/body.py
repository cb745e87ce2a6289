"""Analyses of a kernel's body, each over the file bytes [lo, hi) of the body.

Each one scans for a regex's candidates and keeps those the tree confirms (see
translator.ir.nodes); the results are in match order, the caller sorts them.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile
from translator.ir.ancestry import ancestry
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Expr, SharedDecl
from translator.ir.nodes import call_of, expr, hits, parent_of, text

_INDEX = re.compile(rb"(?:threadIdx|blockIdx|blockDim|gridDim)\b")
_WARP = re.compile(rb"(?:" + b"|".join(sorted((n.encode() for n in WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS
                                               | {"warpSize"}), key=len, reverse=True)) + rb")\b")
_GROUP_METHOD = re.compile(rb"\.\s*(shfl|shfl_up|shfl_down|shfl_xor|ballot|any|all|match_any|match_all|sync|"
                           rb"barrier_wait|arrive_and_wait)\s*\(")
_GROUP_BARRIERS = (b"sync", b"barrier_wait", b"arrive_and_wait")
_FREE_BARRIER = re.compile(rb"(?:__syncthreads(?:_count|_and|_or)?|sync|barrier_wait|arrive_and_wait)\s*\(")
_ATOMIC = re.compile(rb"atomic\w*(?=\s*\()")
_SHARED = re.compile(rb"__shared__\b")
_WRITE_PARENTS = {"assignment_expression", "update_expression"}


def index_uses(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> list[Expr]:
    """`threadIdx.x`, `blockDim.y` ...: a builtin index variable's name confirmed as the
    argument of a field expression; the Expr is the whole field expression."""
    out = []
    for _, node in hits(parsed, frag, _INDEX, lo, hi):
        parent = parent_of(frag, node)
        if node.type == "identifier" and parent is not None and parent.type == "field_expression" \
                and parent.child_by_field_name("argument") == node:
            out.append(expr(parsed, frag, parent))
    return out


def warp_builtins(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> list[Expr]:
    """Calls of the warp-level builtins (masked and mask-less), and uses of `warpSize`:
    the name confirmed as an identifier; a builtin only counts when called."""
    out = []
    for match, node in hits(parsed, frag, _WARP, lo, hi):
        if node.type != "identifier":
            continue
        call = call_of(node, frag)
        if call is not None:
            out.append(expr(parsed, frag, call))
        elif match.group() == b"warpSize":
            out.append(expr(parsed, frag, node))
    return out


def group_calls(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> tuple[list[Expr], list[Expr]]:
    """Cooperative-group method calls, `g.shfl_down(...)`, `block.sync()` ...: the method
    name confirmed as the field of a called field expression. Returns (warp operations,
    barriers): `sync`, `barrier_wait` and `arrive_and_wait` are barriers."""
    warp_ops, barriers = [], []
    for match, node in hits(parsed, frag, _GROUP_METHOD, lo, hi, group=1):
        parent = parent_of(frag, node) if node.type == "field_identifier" else None
        call = parent_of(frag, parent) if parent is not None else None
        if call is None or call.type != "call_expression":
            continue
        (barriers if match.group(1) in _GROUP_BARRIERS else warp_ops).append(expr(parsed, frag, call))
    return warp_ops, barriers


def free_barriers(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> list[Expr]:
    """Calls of `__syncthreads` (and its _count/_and/_or forms) and of free `sync`,
    `barrier_wait`, `arrive_and_wait` functions: the name (the match without its `(`)
    confirmed as the called identifier."""
    out = []
    tree = ancestry(frag)
    for match in _FREE_BARRIER.finditer(parsed.cleaned, lo, hi):
        name_end = match.start() + len(match.group().split(b"(")[0].rstrip())
        node = tree.node_at(match.start() - frag.delta, name_end - frag.delta)
        call = call_of(node, frag) if node is not None and node.type == "identifier" else None
        if call is not None:
            out.append(expr(parsed, frag, call))
    return out


def atomics(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> list[Expr]:
    """Calls of `atomic*` functions: the name confirmed as the called identifier."""
    out = []
    for _, node in hits(parsed, frag, _ATOMIC, lo, hi):
        call = call_of(node, frag) if node.type == "identifier" else None
        if call is not None:
            out.append(expr(parsed, frag, call))
    return out


def shared_decls(parsed: ParsedFile, frag: Fragment, lo: int, hi: int) -> list[SharedDecl]:
    """`__shared__` declarations: the token confirmed as a type qualifier of a declaration;
    one SharedDecl per declarator."""
    out = []
    for _, token in hits(parsed, frag, _SHARED, lo, hi):
        qualifier = parent_of(frag, token)
        decl = parent_of(frag, qualifier) if qualifier is not None else None
        if qualifier is not None and qualifier.type == "type_qualifier" and decl is not None \
                and decl.type == "declaration":
            out.extend(shared_decl(parsed, frag, decl, d) for d in decl.children_by_field_name("declarator"))
    return out


def shared_decl(parsed: ParsedFile, frag: Fragment, decl: ts.Node, declarator: ts.Node) -> SharedDecl:
    """One declarator of a `__shared__` declaration: its name, the declaration's type, the
    array size as written (the innermost sized one) and whether it is extern."""
    is_extern = any(c.type == "storage_class_specifier" and text(parsed, frag, c) == "extern"
                    for c in decl.children)
    size = None
    node = declarator
    while node is not None and node.type not in ("identifier",):
        if node.type == "array_declarator" and node.child_by_field_name("size") is not None:
            size = text(parsed, frag, node.child_by_field_name("size"))
        node = node.child_by_field_name("declarator")
    type_node = decl.child_by_field_name("type")
    return SharedDecl(text(parsed, frag, node) if node is not None else "",
                      text(parsed, frag, type_node) if type_node else "", size, is_extern, frag.span(decl))


def access_mode(parsed: ParsedFile, frag: Fragment, sub: ts.Node) -> str:
    """How a subscript of a parameter is used: "read", "write", or "readwrite" for `+=`,
    `++` ... (`p[i].x = v` and `(p[i]) = v` store through p[i] too)."""
    # The ancestors come from the fragment's Ancestry: `.parent` costs the node's depth.
    tree = ancestry(frag)
    target, parent = sub, tree.parent(sub)
    while parent is not None and (
            (parent.type == "field_expression" and parent.child_by_field_name("argument") == target)
            or parent.type == "parenthesized_expression"):
        target, parent = parent, tree.parent(parent)
    if parent is not None and parent.type in _WRITE_PARENTS:
        if parent.type == "update_expression":
            return "readwrite"
        if parent.child_by_field_name("left") == target:
            op = parent.child_by_field_name("operator")
            return "write" if op is not None and text(parsed, frag, op) == "=" else "readwrite"
    return "read"
