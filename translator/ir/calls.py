"""Device code and its call graph: the file's kernels and `__device__` functions, and who calls whom.

Two analyses, each computed once per parse (cached on the ParsedFile):

- `device_functions(parsed)`: the table of device code. Every function definition at the
  top level of the file (through namespaces, `extern "C"` blocks and templates) whose head
  says `__global__` or `__device__` (`__host__ __device__` included), with its span, its
  body's span, whether it is a kernel, and the names of the file's device functions its
  body calls. Class members and functions defined in macros are not in it.
- `call_graph(parsed)`: the same table as a graph. `callees(name)`, `callers(name)` and
  `components()`: the groups of functions joined by calls in either direction, the unit
  in which a value (a lane index, a mask, a shuffle offset) can pass from one function to
  another. A name stands for all its overloads: a call is resolved by name, not by
  signature, so overloads share a component (a superset of the real edges, which is
  what an analysis that must see every caller needs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at
from translator.ir.model import Span
from translator.ir.nodes import descendants

_CONTAINERS = frozenset({"linkage_specification", "namespace_definition", "declaration_list"})
# Conditional groups hold top-level code too (an include guard holds a whole header): every
# branch's functions are the file's, so each configuration's code is analysed.
_CONDITIONALS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})
_DEVICE = re.compile(rb"\b(__device__|__global__)\b")


@dataclass(frozen=True)
class Function:
    name: str
    span: Span                      # the whole definition (its template head excluded)
    body_span: Span
    kernel: bool                    # `__global__`
    calls: tuple[str, ...]          # the file's device functions its body calls, first call first, once each

    def node(self, parsed: ParsedFile) -> ts.Node | None:
        """The definition's node in the file's main parse."""
        return node_at(parsed.main.root, *self.span)


@dataclass(frozen=True)
class CallGraph:
    functions: tuple[Function, ...]     # in source order

    @cached_property
    def by_name(self) -> dict[str, tuple[Function, ...]]:
        out: dict[str, list[Function]] = {}
        for f in self.functions:
            out.setdefault(f.name, []).append(f)
        return {k: tuple(v) for k, v in out.items()}

    def callees(self, name: str) -> frozenset[str]:
        return frozenset(c for f in self.by_name.get(name, ()) for c in f.calls)

    def callers(self, name: str) -> frozenset[str]:
        return frozenset(f.name for f in self.functions if name in f.calls)

    @cached_property
    def _component_of(self) -> dict[str, frozenset[str]]:
        parent = {name: name for name in self.by_name}

        def root(name: str) -> str:
            while parent[name] != name:
                parent[name] = parent[parent[name]]
                name = parent[name]
            return name
        for f in self.functions:
            for callee in f.calls:
                parent[root(callee)] = root(f.name)
        groups: dict[str, set[str]] = {}
        for name in self.by_name:
            groups.setdefault(root(name), set()).add(name)
        return {name: frozenset(groups[root(name)]) for name in self.by_name}

    def component(self, name: str) -> frozenset[str]:
        """The functions that `name` shares values with: joined to it by calls, either way."""
        return self._component_of.get(name, frozenset({name}))

    def components(self) -> list[frozenset[str]]:
        """Every component, in the source order of its first function."""
        out, seen = [], set()
        for f in self.functions:
            group = self.component(f.name)
            if group not in seen:
                seen.add(group)
                out.append(group)
        return out


def _definitions(parsed: ParsedFile):
    """(node, head bytes) of each function definition at the file's top level."""
    stack = list(reversed(parsed.main.root.named_children))
    while stack:
        node = stack.pop()
        if node.type in _CONTAINERS:
            body = node.child_by_field_name("body") if node.type != "declaration_list" else node
            stack.extend(reversed((body or node).named_children))
        elif node.type in _CONDITIONALS:
            stack.extend(reversed(node.named_children))
        elif node.type == "template_declaration":
            stack.extend(reversed([c for c in node.named_children if c.type == "function_definition"]))
        elif node.type == "function_definition":
            body = node.child_by_field_name("body")
            if body is not None:
                yield node, parsed.data[node.start_byte:body.start_byte]


def _name(node: ts.Node) -> ts.Node | None:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type in ("pointer_declarator", "reference_declarator"):
        declarator = declarator.child_by_field_name("declarator")
    if declarator is None or declarator.type != "function_declarator":
        return None
    name = declarator.child_by_field_name("declarator")
    return name if name is not None and name.type == "identifier" else None


def device_functions(parsed: ParsedFile) -> tuple[Function, ...]:
    """The file's kernels and `__device__` functions, in source order (see the module)."""
    return call_graph(parsed).functions


def call_graph(parsed: ParsedFile) -> CallGraph:
    """The device functions of the file and their calls (computed once per parse)."""
    held = parsed.__dict__.get("_call_graph")
    if held is not None:
        return held
    data = parsed.data
    found: list[tuple[str, ts.Node, ts.Node, bool]] = []
    if _DEVICE.search(parsed.cleaned):
        for node, head in _definitions(parsed):
            words = set(re.findall(rb"\w+", head))
            if not words & {b"__device__", b"__global__"}:
                continue
            name = _name(node)
            if name is not None:
                found.append((parsed.main.text(data, name), node, node.child_by_field_name("body"),
                              b"__global__" in words))
    names = {name for name, *_ in found}
    functions = []
    for name, node, body, kernel in found:
        calls: list[str] = []
        for n in descendants(body):
            if n.type != "call_expression":
                continue
            function = n.child_by_field_name("function")
            if function is not None and function.type == "template_function":
                function = function.child_by_field_name("name")
            callee = parsed.main.text(data, function) if function is not None and function.type == "identifier" \
                else None
            if callee in names and callee not in calls:
                calls.append(callee)
        functions.append(Function(name, parsed.main.span(node), parsed.main.span(body), kernel, tuple(calls)))
    graph = CallGraph(tuple(functions))
    parsed.__dict__["_call_graph"] = graph
    return graph
