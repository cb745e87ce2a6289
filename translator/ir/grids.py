"""A launch's grid and block as expressions: their components, and whether a grid is a
ceiling division of an element count by the block size.

Both follow a local that the launching function initializes once and never writes
(`int blocks = (n + 255) / 256;`, `dim3 grid(blocks);`) to its initializer.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from translator.ir.host_values import HostValues

_WRAPPERS = ("parenthesized_expression", "cast_expression")


@dataclass(frozen=True)
class CeilDivision:
    count: ts.Node      # N of ceil(N / B), as written
    divisor: int        # B
    node: ts.Node       # the whole division
    mentions: tuple[ts.Node, ...]   # the expressions that give B (or B - 1 in `N + (B - 1)`)


def strip(node: ts.Node) -> ts.Node:
    """The expression inside parentheses and casts."""
    while node.type in _WRAPPERS:
        inner = node.child_by_field_name("value") if node.type == "cast_expression" else \
            next((c for c in node.named_children if c.type != "comment"), None)
        if inner is None:
            break
        node = inner
    return node


def components(values: HostValues, node: ts.Node) -> list[ts.Node]:
    """The components of a launch dimension: [x] for an integer expression, [x, y, z] for
    `dim3(x, y, z)`, or what a never-written local of the function was initialized with."""
    for _ in range(8):      # locals initialized from locals
        node = strip(node)
        if node.type == "identifier":
            init = values.initializer(node)
            if init is None:
                return [node]
            if init.type in ("argument_list", "initializer_list", "parameter_list"):   # dim3 b(X*Y): a vexing parse
                return [a for a in init.named_children if a.type != "comment"]
            node = init
            continue
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if function is not None and arguments is not None and \
                    values.parsed.data[function.start_byte:function.end_byte] == b"dim3":
                return [a for a in arguments.named_children if a.type != "comment"]
        return [node]
    return [node]


def one_dimensional(values: HostValues, parts: list[ts.Node]) -> bool:
    """Whether every component after the first is known to be 1."""
    for part in parts[1:]:
        if values.evaluate(part).values != (1,):
            return False
    return True


def ceil_division(values: HostValues, node: ts.Node) -> CeilDivision | None:
    """N and B when `node` computes ceil(N / B): `(N + B - 1) / B`, `(N + (B - 1)) / B`,
    `(N + K) / B` with K = B - 1, or `(N - 1) / B + 1` (B's two mentions of equal value)."""
    node = strip(node)
    if node.type != "binary_expression":
        return None
    op, left, right = _parts(values, node)
    if op == "+" and _is(values, right, 1):             # (N - 1) / B + 1
        quotient = strip(left)
        if quotient.type == "binary_expression":
            qop, numerator, divisor = _parts(values, quotient)
            numerator = strip(numerator)
            b = _known(values, divisor)
            if qop == "/" and b and numerator.type == "binary_expression":
                nop, count, one = _parts(values, numerator)
                if nop == "-" and _is(values, one, 1):
                    return CeilDivision(count, b, node, (divisor,))
        return None
    if op != "/":
        return None
    b = _known(values, right)
    numerator = strip(left)
    if not b or numerator.type != "binary_expression":
        return None
    nop, first, second = _parts(values, numerator)
    if nop == "-" and _is(values, second, 1):           # (N + B) - 1
        inner = strip(first)
        if inner.type == "binary_expression":
            iop, count, divisor = _parts(values, inner)
            if iop == "+" and _known(values, divisor) == b:
                return CeilDivision(count, b, node, (divisor, right))
        return None
    if nop == "+" and _known(values, second) == b - 1:  # N + (B - 1), N + 255
        return CeilDivision(first, b, node, (second, right))
    return None


def _parts(values: HostValues, node: ts.Node) -> tuple[str, ts.Node, ts.Node]:
    op = node.child_by_field_name("operator")
    text = values.parsed.data[op.start_byte:op.end_byte].decode("utf-8", "replace") if op is not None else ""
    return text, node.child_by_field_name("left"), node.child_by_field_name("right")


def _known(values: HostValues, node: ts.Node | None) -> int | None:
    if node is None:
        return None
    found = values.evaluate(node)
    return found.values[0] if len(found.values) == 1 else None


def _is(values: HostValues, node: ts.Node | None, number: int) -> bool:
    return _known(values, node) == number
