"""Whether the lanes that run a warp-sync call are exactly the lanes its mask names.

Below HIP 6.2 a `*_sync` call becomes the mask-less builtin, which acts on the lanes
that run it; that is the CUDA call's meaning when its mask names exactly those lanes
(HIP 6.2's own `*_sync` builtins assert this, then do what the mask-less one does). The
warp-sync rules (warp_sync.py) ask this module when the mask is a local variable:

- written once, by its initialiser or by one plain assignment statement, and never
  assigned, incremented or passed by address after;
- with the value `__activemask()`: the lanes that ran that statement; or
  `__ballot_sync(M, P)` with M provably full or `__activemask()`: those lanes where P
  holds;
- and the call runs under the same condition as that statement: the call's statement is
  in the statement's block (or a plain `{}` block inside it) after it, not under a loop,
  `switch`, `else` or other `if` the statement is not under, nor in a conditional or
  short-circuit operand, and no `return`, `break`, `continue`, `goto` or label lies
  between them. For a ballot of P, the call may also be (only) under `if (P)`, where P
  is the same text, made of literals, thread and block indices and locals or parameters
  never assigned (so it means the same at the `if` as at the ballot).

Anything else is unknown: the caller reports the call as before.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.frontend import Fragment, node_at
from translator.ir.nodes import function_around

_EXITS = frozenset({"return_statement", "break_statement", "continue_statement", "goto_statement",
                    "labeled_statement", "throw_statement", "co_return_statement"})
_STATEMENTS = frozenset({"expression_statement", "declaration", "return_statement", "if_statement"})
_INDICES = re.compile(r"(?:threadIdx|blockIdx|blockDim|gridDim)\.[xyz]\Z")


def same_lanes(frag: Fragment, data: bytes, cleaned: bytes, mask: ts.Node, call: ts.Node, full_mask) -> str | None:
    """Why the lanes that run `call` are exactly those the local `mask` names, or None
    when that is not proven. `full_mask(node)` says whether a mask expression is
    provably all ones."""
    if mask.type != "identifier":
        return None
    function = function_around(mask)
    if function is None:
        return None
    word = frag.text(data, mask)
    writes = _writes(frag, data, cleaned, function, word)
    if writes is None or len(writes) != 1:
        return None
    statement, value = writes[0]
    text = frag.text(data, value).replace(" ", "")
    if text == "__activemask()":
        predicate = None
    else:
        predicate = _ballot_predicate(frag, data, value, full_mask)
        if predicate is None:
            return None
    block = statement.parent
    if block is None or block.type != "compound_statement":
        return None
    if not _plain_operand(call):
        return None
    narrowed = _path_to(frag, data, cleaned, call, block, predicate, function)
    if narrowed is None or (predicate is not None and not narrowed):
        return None
    top = _child_of(call, block)
    if top is None or top.start_byte <= statement.start_byte:
        return None
    if _exit_between(statement, call, function):
        return None
    if predicate is None:
        return (f"'{word}' is __activemask() taken under the same condition as this call, with no exit between: "
                "it names exactly the lanes that run it")
    return (f"'{word}' is the ballot of '{frag.text(data, predicate)}' taken where this call's 'if "
            f"({frag.text(data, predicate)})' is, with no exit between: it names exactly the lanes that run it")


def _writes(frag: Fragment, data: bytes, cleaned: bytes, function: ts.Node, word: str):
    """[(statement, value)] for each write of the local `word` in the function, or None
    when it is written in a way this module does not follow (a parameter, an address
    taken, a compound assignment, a second declaration)."""
    lo, hi = frag.span(function)
    writes, declared = [], 0
    for match in re.compile(rb"(?<![\w$])" + re.escape(word.encode()) + rb"(?![\w$])").finditer(cleaned, lo, hi):
        node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
        parent = node.parent if node is not None else None
        if parent is None:
            return None
        if parent.type in ("parameter_declaration", "optional_parameter_declaration", "pointer_declarator",
                           "reference_declarator", "array_declarator") or _aliased(frag, data, node, parent):
            return None
        if parent.type == "init_declarator" and parent.child_by_field_name("declarator") == node:
            declared += 1
            statement = parent.parent
            value = parent.child_by_field_name("value")
            if statement is None or statement.type != "declaration" or value is None:
                return None
            writes.append((statement, value))
        elif parent.type == "declaration":
            declared += 1           # declared without a value: the one assignment gives it
        elif parent.type == "assignment_expression" and parent.child_by_field_name("left") == node:
            operator = parent.child_by_field_name("operator")
            statement = parent.parent
            if operator is None or frag.text(data, operator) != "=" or statement is None \
                    or statement.type != "expression_statement":
                return None
            writes.append((statement, parent.child_by_field_name("right")))
        elif parent.type == "update_expression" or \
                (parent.type == "pointer_expression" and frag.text(data, parent).startswith("&")):
            return None
    return writes if declared == 1 else None


def _aliased(frag: Fragment, data: bytes, node: ts.Node, parent: ts.Node) -> bool:
    """Could a use write the variable unseen: bound to a reference (`T& r = m;`) or passed
    to a function that is not a builtin (it may take a non-const reference)?"""
    if parent.type == "init_declarator" and parent.child_by_field_name("value") == node:
        return parent.child_by_field_name("declarator").type == "reference_declarator"
    if parent.type == "argument_list":
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None else None
        return function is None or not frag.text(data, function).startswith("__")
    return False


def _ballot_predicate(frag: Fragment, data: bytes, value: ts.Node, full_mask) -> ts.Node | None:
    """P of `__ballot_sync(M, P)` whose M is provably full or `__activemask()`, else None."""
    if value.type != "call_expression":
        return None
    function = value.child_by_field_name("function")
    arguments = value.child_by_field_name("arguments")
    if function is None or frag.text(data, function) != "__ballot_sync" or arguments is None:
        return None
    args = [a for a in arguments.named_children if a.type != "comment"]
    if len(args) != 2:
        return None
    first = frag.text(data, args[0]).replace(" ", "")
    return args[1] if first == "__activemask()" or full_mask(args[0]) else None


def _plain_operand(call: ts.Node) -> bool:
    """Does every lane that runs the call's statement evaluate the call: no conditional or
    short-circuit operand, loop condition or lambda between the call and its statement?"""
    child, node = call, call.parent
    while node is not None and node.type not in _STATEMENTS:
        if node.type == "conditional_expression" and node.child_by_field_name("condition") != child:
            return False
        if node.type == "binary_expression" and node.child_by_field_name("right") == child:
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in ("&&", "||", "and", "or"):
                return False
        if node.type in ("lambda_expression", "compound_statement"):
            return False
        child, node = node, node.parent
    return node is not None         # an if_statement is reached from its condition only


def _contains(outer: ts.Node, inner: ts.Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _path_to(frag: Fragment, data: bytes, cleaned: bytes, call: ts.Node, block: ts.Node,
             predicate: ts.Node | None, function: ts.Node) -> bool | None:
    """Walking up from the call to `block`: None when a construct narrows the lanes (a
    loop, switch, else, an if other than `if (predicate)`) or `block` is not above the
    call; else whether the walk passed `if (predicate)` (allowed once, for a ballot)."""
    child, node, narrowed = call, call.parent, False
    while node is not None and node != block:
        if node.type == "if_statement":
            condition = node.child_by_field_name("condition")
            if condition is not None and _contains(condition, call):
                pass                    # the condition runs on the lanes that reach the if
            elif predicate is None or narrowed or node.child_by_field_name("consequence") != child \
                    or not _same_predicate(frag, data, cleaned, condition, predicate, function):
                return None
            else:
                narrowed = True
        elif node.type in ("for_statement", "for_range_loop", "while_statement", "do_statement",
                           "switch_statement", "case_statement", "else_clause", "try_statement",
                           "catch_clause", "lambda_expression", "function_definition"):
            return None
        child, node = node, node.parent
    return narrowed if node == block else None


def _same_predicate(frag: Fragment, data: bytes, cleaned: bytes, condition: ts.Node | None, predicate: ts.Node,
                    function: ts.Node) -> bool:
    if condition is None:
        return False
    inner = condition.child_by_field_name("value") or next(iter(condition.named_children), None)
    if inner is None or _strip(frag.text(data, inner)) != _strip(frag.text(data, predicate)):
        return False
    return _stable(frag, data, cleaned, predicate, function)


def _strip(text: str) -> str:
    text = text.replace(" ", "")
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text


def _stable(frag: Fragment, data: bytes, cleaned: bytes, node: ts.Node, function: ts.Node) -> bool:
    """Does the expression mean the same wherever it is evaluated in the function: only
    literals, thread and block indices, operators, and locals or parameters never written
    after their declaration?"""
    if node.type in ("number_literal", "true", "false", "char_literal"):
        return True
    if node.type == "field_expression":
        return bool(_INDICES.match(frag.text(data, node).replace(" ", "")))
    if node.type == "identifier":
        return _never_written(frag, data, cleaned, node, function)
    if node.type in ("binary_expression", "unary_expression", "parenthesized_expression"):
        return all(_stable(frag, data, cleaned, c, function) for c in node.named_children if c.type != "comment")
    return False


def _never_written(frag: Fragment, data: bytes, cleaned: bytes, name: ts.Node, function: ts.Node) -> bool:
    """A local with an initialiser or a parameter of `function`, which nothing assigns,
    increments or takes the address of, declared once."""
    word = frag.text(data, name)
    lo, hi = frag.span(function)
    declared = 0
    for match in re.compile(rb"(?<![\w$])" + re.escape(word.encode()) + rb"(?![\w$])").finditer(cleaned, lo, hi):
        node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
        parent = node.parent if node is not None else None
        if parent is None:
            return False
        if (parent.type == "init_declarator" and parent.child_by_field_name("declarator") == node) or \
                parent.type in ("parameter_declaration", "optional_parameter_declaration"):
            declared += 1
        elif parent.type in ("declaration", "pointer_declarator", "reference_declarator", "array_declarator",
                             "update_expression") or \
                (parent.type == "assignment_expression" and parent.child_by_field_name("left") == node) or \
                (parent.type == "pointer_expression" and frag.text(data, parent).startswith("&")):
            return False
    return declared == 1


def _child_of(node: ts.Node, block: ts.Node) -> ts.Node | None:
    """The child of `block` that contains `node`."""
    while node is not None and node.parent != block:
        node = node.parent
    return node


def _exit_between(statement: ts.Node, call: ts.Node, function: ts.Node) -> bool:
    """Is there a return, break, continue, goto, throw or label after `statement` and
    before `call` in the function's text?"""
    lo, hi = statement.end_byte, call.start_byte
    stack = [function]
    while stack:
        node = stack.pop()
        if node.end_byte <= lo or node.start_byte >= hi:
            continue
        if node.type in _EXITS and node.start_byte >= lo and not _contains(node, call):
            return True         # (the call's own `return f(...)` runs the call first)
        stack.extend(node.children)
    return False
