"""Consumers: kernels that are not elementwise but read their inputs at the thread's own
index under the guard, as a block reduction does (`v = i < n ? r[i] : 0`, then a
shared-memory tree and an atomic). The fusion pass can compute what a chain of
elementwise kernels produces in the consumer's own thread, in registers, instead of
storing it and reading it back.

A consumer's body starts with the index declaration (`T i = <global id>;`), after
declarations that name no parameter (`__shared__ float partial[256];`); after it
anything may happen (shared memory, barriers, atomics, early returns), and the analysis
records, for every parameter, each use: `p[i]` accesses with the bounds of the guards
around them (`if (i < n)`, `i < n ? ... : ...`, either side of an `&&`), and any other
use (`atomicAdd(total, v)`, `p[k]`), so that the pass can check that what a chain
produces is only read, at `[i]`, under the chain's guard.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at
from translator.ir.elementwise import DeviceFunction, Refusal, _index_declaration, _statements, squeeze, unknown_call
from translator.ir.macros import impure, macros
from translator.ir.nodes import assigned, descendants
from translator.ir.model import Kernel, Span


@dataclass(frozen=True)
class Guarded:
    """`p[i]` in a consumer: how it is used and the bounds of the guards around it (each
    bound with its parameter names and their spans)."""
    param: str
    mode: str
    span: Span
    bounds: tuple[tuple[str, Span, tuple[tuple[str, Span], ...]], ...]


@dataclass(frozen=True)
class Consumer:
    kernel: str
    index: str
    index_type: str
    prefix: Span | None                    # declarations before the index's (shared arrays)
    declaration: Span                      # the index declaration statement
    rest: Span                             # the statements after it, to the body's end
    accesses: tuple[Guarded, ...]          # p[i] for pointer parameters p
    other_uses: frozenset[str]             # pointer parameters used other than as p[i]
    names: tuple[tuple[str, Span], ...]    # every use of a parameter or of the index after the declaration
    locals: frozenset[str]


def consumer(parsed: ParsedFile, kernel: Kernel, helpers: dict[str, DeviceFunction]) -> Consumer | Refusal:
    """The kernel as the consumer of a chain, or why it cannot be one."""
    def refuse(reason: str) -> Refusal:
        return Refusal(kernel.name, reason)
    if kernel.body_span is None or kernel.in_macro or not kernel.clean or kernel.template_params:
        return refuse("it is not a plain kernel defined in this file")
    frag = parsed.main
    body = node_at(frag.root, *kernel.body_span)
    stmts = _statements(body) if body is not None else []
    # Declarations that name no parameter (`__shared__ float partial[256];`) may come first.
    params = {p.name for p in kernel.params if p.name}
    at = 0
    while at < len(stmts) and _index_declaration(parsed, frag, stmts[at]) is None:
        if stmts[at].type != "declaration" or any(
                n.type == "identifier" and frag.text(parsed.data, n) in params for n in descendants(stmts[at])):
            break
        at += 1
    declared = _index_declaration(parsed, frag, stmts[at]) if at < len(stmts) else None
    if declared is None or at + 1 >= len(stmts):
        return refuse("its body does not start with the index from the global thread id")
    index, index_type = declared
    unknown = unknown_call(parsed, kernel.name)
    if unknown:
        return refuse(unknown)
    prefix = (frag.span(stmts[0])[0], frag.span(stmts[at - 1])[1]) if at else None
    pointers = {p.name for p in kernel.params if p.is_pointer and p.name}
    accesses, names, other, local = [], [], set(), set()
    table = macros(parsed)
    for statement in stmts[:at] + stmts[at + 1:]:
        for node in descendants(statement):
            if node.type.startswith("preproc"):
                return refuse("its body holds preprocessor lines")
            if node.type in ("identifier", "type_identifier") and frag.text(parsed.data, node) in table:
                hidden = impure(table, frag.text(parsed.data, node), node, frag, parsed.data)
                if hidden:
                    return refuse(hidden)
                continue
            if node.type in ("init_declarator", "array_declarator", "pointer_declarator", "declaration") \
                    and node.child_by_field_name("declarator") is not None \
                    and node.child_by_field_name("declarator").type == "identifier":
                name = frag.text(parsed.data, node.child_by_field_name("declarator"))
                if name in params or name == index:
                    return refuse(f"it declares '{name}', the name of a parameter or of the index")
                local.add(name)
            if node.type in ("subscript_expression", "pointer_expression", "field_expression"):
                base = node.child_by_field_name("argument")
                deref = node.type != "pointer_expression" or frag.text(parsed.data, node).lstrip().startswith("*")
                if deref and base is not None and base.type == "identifier" and (node.type != "field_expression"
                                                                                  or any(c.type == "->" for c in
                                                                                         node.children)):
                    held = frag.text(parsed.data, base)
                    if held not in params and held not in local:
                        return refuse(f"it reads or writes memory it was not given as a parameter "
                                      f"({squeeze(frag.text(parsed.data, node))}), which may be the chain's")
            if node.type != "identifier":
                continue
            name = frag.text(parsed.data, node)
            if name not in params and name != index:
                continue
            parent = node.parent
            if assigned(parsed.data, node) and (name == index or name not in pointers):
                return refuse(f"it assigns {'its index' if name == index else repr(name)}")
            names.append((name, frag.span(node)))
            if name not in pointers:
                continue
            if parent is not None and parent.type == "subscript_expression" \
                    and parent.child_by_field_name("argument") == node:
                indices = parent.child_by_field_name("indices")
                if indices is not None and squeeze(frag.text(parsed.data, indices))[1:-1] == index:
                    accesses.append(Guarded(name, _mode(parsed, parent), frag.span(parent),
                                            _guard_bounds(parsed, parent, body, index)))
                    continue
            other.add(name)
    lo = frag.span(stmts[at + 1])[0]
    return Consumer(kernel.name, index, index_type, prefix, frag.span(stmts[at]), (lo, frag.span(stmts[-1])[1]),
                    tuple(accesses), frozenset(other), tuple(names), frozenset(local))


def _mode(parsed: ParsedFile, sub: ts.Node) -> str:
    parent = sub.parent
    while parent is not None and parent.type == "parenthesized_expression":
        sub, parent = parent, parent.parent
    if parent is None:
        return "read"
    if parent.type == "update_expression":
        return "readwrite"
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == sub:
        op = parent.child_by_field_name("operator")
        return "write" if op is not None and parsed.data[op.start_byte:op.end_byte] == b"=" else "readwrite"
    return "read"


def _guard_bounds(parsed: ParsedFile, node: ts.Node, top: ts.Node, index: str):
    """The X of each `index < X` (or `X > index`) that must hold for `node` to run: the
    conditions of the ifs whose then-branch holds it and of the conditional expressions
    whose true branch holds it, and either side of their `&&`s."""
    out = []
    child, parent = node, node.parent
    while parent is not None and parent != top:
        condition = None
        if parent.type == "if_statement" and parent.child_by_field_name("consequence") == child:
            condition = parent.child_by_field_name("condition")
        elif parent.type == "conditional_expression" and parent.child_by_field_name("consequence") == child:
            condition = parent.child_by_field_name("condition")
        if condition is not None:
            out += _bounds_in(parsed, condition, index)
        child, parent = parent, parent.parent
    return tuple(out)


def _bounds_in(parsed: ParsedFile, cond: ts.Node, index: str):
    while cond is not None and cond.type in ("condition_clause", "parenthesized_expression") \
            and cond.named_child_count >= 1:
        cond = cond.child_by_field_name("value") or cond.named_children[0]
    if cond is None or cond.type != "binary_expression":
        return []
    op = cond.child_by_field_name("operator")
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    if op is None or left is None or right is None:
        return []
    op_text = parsed.data[op.start_byte:op.end_byte].decode()
    if op_text == "&&":
        return _bounds_in(parsed, left, index) + _bounds_in(parsed, right, index)
    text = lambda n: parsed.data[n.start_byte:n.end_byte].decode("utf-8", "replace")
    bound = right if op_text == "<" and text(left) == index else left if op_text == ">" and text(right) == index \
        else None
    if bound is None:
        return []
    names = tuple((text(n), (n.start_byte, n.end_byte)) for n in descendants(bound) if n.type == "identifier")
    return [(text(bound), (bound.start_byte, bound.end_byte), names)]
