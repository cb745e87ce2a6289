"""Kernels: each `__global__` function's signature, and the facts about its body."""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile
from translator.ir import body
from translator.ir.model import Kernel, Param
from translator.ir.nodes import expr, owned_hits, parent_of, text

_GLOBAL = re.compile(rb"__global__")
_BODY_FACTS = ("shared", "index_uses", "warp_ops", "barriers", "atomics")


def find_kernels(parsed: ParsedFile, frag: Fragment) -> list[Kernel]:
    """The kernels the fragment answers for, definitions and prototypes: each `__global__`
    token whose parent is a function definition or declaration with a function declarator."""
    out = []
    if b"__global__" not in parsed.words:
        return out
    for _, token in owned_hits(parsed, frag, _GLOBAL):
        node = parent_of(frag, token)
        if node is None or node.type not in ("function_definition", "declaration"):
            continue
        declarator = node.child_by_field_name("declarator")
        if declarator is None or declarator.type != "function_declarator":
            continue
        name = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters")
        body_node = node.child_by_field_name("body")
        if name is None or params is None:
            continue
        bounds_node = next((c for c in node.children if c.type == "launch_bounds"), None)
        param_list = [param(parsed, frag, p) for p in params.named_children
                      if p.type in ("parameter_declaration", "optional_parameter_declaration")]
        out.append(Kernel(
            name=text(parsed, frag, name), span=frag.span(node), name_span=frag.span(name),
            template_params=template_params(parsed, frag, node), params=tuple(param_list),
            launch_bounds=tuple(expr(parsed, frag, c) for c in bounds_node.named_children) if bounds_node else (),
            launch_bounds_span=frag.span(bounds_node) if bounds_node else None,
            body_span=frag.span(body_node) if body_node else None,
            in_macro=frag.in_macro, clean=frag.clean(node),
            **body_facts(parsed, frag, body_node, param_list),
        ))
    return out


def template_params(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> tuple[str, ...]:
    """The template parameters as written, when the kernel is a template_declaration's; else ()."""
    parent = parent_of(frag, node)
    if parent is not None and parent.type == "template_declaration":
        plist = parent.child_by_field_name("parameters")
        return tuple(text(parsed, frag, p) for p in plist.named_children) if plist else ()
    return ()


def param(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> Param:
    """One parameter: its name, type and qualifiers (those of the declarators too), and
    whether a pointer or array declarator wraps its name."""
    qualifiers = [text(parsed, frag, c) for c in node.children if c.type == "type_qualifier"]
    name_node = node.child_by_field_name("declarator")
    is_pointer = False
    while name_node is not None and name_node.type not in ("identifier", "field_identifier"):
        if name_node.type in ("pointer_declarator", "array_declarator", "abstract_pointer_declarator",
                              "abstract_array_declarator"):
            is_pointer = True
        qualifiers += [text(parsed, frag, c) for c in name_node.children if c.type == "type_qualifier"]
        inner = name_node.child_by_field_name("declarator")
        if inner is None and name_node.type == "reference_declarator":
            inner = next((c for c in name_node.named_children), None)
        name_node = inner
    type_node = node.child_by_field_name("type")
    return Param(
        name=text(parsed, frag, name_node) if name_node is not None else "",
        type_text=text(parsed, frag, type_node) if type_node else "",
        qualifiers=tuple(qualifiers), is_pointer=is_pointer, span=frag.span(node))


def body_facts(parsed: ParsedFile, frag: Fragment, body_node: ts.Node | None, params: list[Param]) -> dict:
    """The Kernel fields about its body, each from one analysis of translator.ir.body,
    in source order; all empty for a prototype."""
    if body_node is None:
        return {k: () for k in _BODY_FACTS}
    lo, hi = frag.span(body_node)
    group_warp, group_barriers = body.group_calls(parsed, frag, lo, hi)
    return {
        "shared": _by_span(body.shared_decls(parsed, frag, lo, hi)),
        "index_uses": _by_span(body.index_uses(parsed, frag, lo, hi)),
        "warp_ops": _by_span(body.warp_builtins(parsed, frag, lo, hi) + group_warp),
        "barriers": _by_span(group_barriers + body.free_barriers(parsed, frag, lo, hi)),
        "atomics": _by_span(body.atomics(parsed, frag, lo, hi)),
    }


def _by_span(items: list) -> tuple:
    return tuple(sorted(items, key=lambda e: e.span))
