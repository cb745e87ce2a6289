"""The host-function table of `cu2hip report`: for each host function of a translated file
that the findings of the rules with a report topic fall in (by position: a finding
belongs to the function whose definition holds its first line), the function's name and
lines and those findings, in order. It reads the front end's tree and the findings,
never a pass; kernels and `__device__` functions are the kernel table's."""

from __future__ import annotations

import re

from translator.frontend import parse_file
from translator.ir.nodes import function_name

_DEVICE = re.compile(rb"\b__(global|device)__\b")


def definitions(data: bytes, options) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each host function definition, outermost first."""
    parsed = parse_file(data, None, options.qualifier_macros, defines=options.defines)
    out, stack = [], [parsed.main.root]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            body = node.child_by_field_name("body")
            head = data[node.start_byte:body.start_byte if body is not None else node.end_byte]
            if not _DEVICE.search(head):
                out.append((function_name(data, node), node.start_point[0] + 1, node.end_point[0] + 1))
            continue        # a lambda's body or a local class's method belongs to this function
        stack.extend(reversed(node.children))
    return out


def rows(pairs, findings: dict[str, list], options) -> list[dict]:
    """One row per host function holding a finding: {"file", "line", "function",
    "findings": [{"line", "code", "applied", "message"}]}, in file and line order."""
    by_file: dict[str, list] = {}
    for items in findings.values():
        for d in items:
            by_file.setdefault(d.path, []).append(d)
    out = []
    for _, result in pairs:
        found = by_file.get(result.path)
        if not found or result.skipped:
            continue
        for name, first, last in definitions(result.input, options):
            inside = sorted((d for d in found if first <= d.line <= last), key=lambda d: (d.line, d.col, d.code))
            if inside:
                out.append({"file": result.path, "line": first, "function": name,
                            "findings": [{"line": d.line, "code": d.code, "applied": d.fix is not None,
                                          "message": d.message} for d in inside]})
    return out
