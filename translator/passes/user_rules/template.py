"""A call rewrite's new text as chunks of the old call, and the fewest edits that make it.

The new call is a list of chunks: new bytes (the function, the template's literal text,
a `, ` where the call had no separator) and ranges of the old call (its `(`, its
arguments, its separators, its `)`). The ranges that can stay where they are (the
run of them in the old order with the most argument bytes) are kept; the bytes between
two kept ranges become one edit. So `f(a, b)` -> `g(b, a, 0)` replaces `f`, deletes
`a, ` and inserts `, a, 0` after `b`: unchanged bytes are not rewritten, and the fixes
of the other passes on arguments that stay are left as they are.
"""

from __future__ import annotations

import tree_sitter as ts

from translator.edits import Edit
from translator.rules import CallRewrite, Param, Spread, Text

Chunk = bytes | tuple[int, int]
# Expressions that need no parentheses inside a larger one.
PRIMARY = frozenset({
    "identifier", "qualified_identifier", "number_literal", "string_literal", "concatenated_string",
    "raw_string_literal", "char_literal", "true", "false", "null", "nullptr", "this", "call_expression",
    "field_expression", "subscript_expression", "parenthesized_expression", "template_function"})


def chunks(rule: CallRewrite, fn_end: int, open_: int, close: int, spans: list[tuple[int, int]],
           nodes: list[ts.Node]) -> list[Chunk]:
    """The new call from its function name to its `)`, as chunks (empty ranges left out).
    `open_` and `close` are the argument list's span, `spans` and `nodes` the arguments'."""
    fixed = len(rule.params) - rule.variadic
    bound = dict(zip(rule.params[:fixed], zip(spans, nodes)))
    tail = (spans[fixed][0], spans[-1][1]) if len(spans) > fixed else None
    rendered: list[list[Chunk]] = []
    for argument in rule.arguments:
        if isinstance(argument[0], Spread):
            if tail:
                rendered.append([tail])
            continue
        parts: list[Chunk] = []
        for part in argument:
            if isinstance(part, Text):
                parts.append(part.text.encode())
            elif isinstance(part, Param):
                span, node = bound[part.name]
                parts += [span] if part.bare or node.type in PRIMARY else [b"(", span, b")"]
        rendered.append(parts)
    out: list[Chunk] = [rule.function.encode(), (fn_end, open_ + 1)]
    for i, parts in enumerate(rendered):
        if i == 0:
            out.append((open_ + 1, spans[0][0]) if spans else b"")
        else:    # the old call's separators in their places, so that its layout stays
            out.append((spans[i - 1][1], spans[i][0]) if i < len(spans) else b", ")
        out += parts
    if rendered and spans:
        out.append((spans[-1][1], close - 1))
    out.append((close - 1, close))
    return [c for c in out if c and (isinstance(c, bytes) or c[0] < c[1])]


def pieces(rule: CallRewrite, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of the old call that the template moves as wholes: each fixed argument,
    and the variadic tail."""
    fixed = len(rule.params) - rule.variadic
    return spans[:fixed] + ([(spans[fixed][0], spans[-1][1])] if len(spans) > fixed else [])


def kept(out: list[Chunk], moving: list[tuple[int, int]]) -> set[int]:
    """The indices of the ranges that stay in place: increasing and disjoint, with the
    most bytes of arguments (`moving`), then the most bytes."""
    ranges = [(i, c) for i, c in enumerate(out) if isinstance(c, tuple)]
    best: list[tuple[tuple[int, int], list[int]]] = []     # per range: (weight, indices) ending with it
    for k, (i, (lo, hi)) in enumerate(ranges):
        options = [best[j] for j in range(k) if ranges[j][1][1] <= lo]
        (args, size), chain = max(options, default=((0, 0), []), key=lambda t: t[0])
        best.append(((args + (hi - lo) * ((lo, hi) in moving), size + hi - lo), chain + [i]))
    return set(max(best, default=((0, 0), []), key=lambda t: t[0])[1])


def edits(data: bytes, out: list[Chunk], keep: set[int], start: int, end: int, render) -> list[Edit]:
    """The edits of `data`'s [start, end) that give `out`, keeping the ranges of `keep` in
    place; `render(lo, hi)` gives a range that moves (with the fixes folded into it)."""
    made, pos, pending = [], start, []
    for i, chunk in enumerate([*out, (end, end)]):
        if i in keep or i == len(out):
            lo, hi = chunk
            text = b"".join(pending)
            if text != data[pos:lo]:
                made.append(Edit(pos, lo, text))
            pos, pending = hi, []
        else:
            pending.append(chunk if isinstance(chunk, bytes) else render(*chunk))
    return made
