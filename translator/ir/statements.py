"""Host blocks that launch kernels: their statements in order, each classified, and what
the enclosing function does with its pointers. The fusion pass reads these.

A statement between two launches is
- "launch": an expression statement that is one launch, nothing more;
- "transparent": host arithmetic and declarations, whose only calls are to a short
  allow-list of pure functions (`min`, `sqrtf`, ...): it touches no device memory;
- "check": an error query (`cudaGetLastError()`), bare or inside a function-like macro of
  the file that only reports and exits (`CHECK(cudaGetLastError())`);
- "barrier": anything else, with what it is: another call (memcpy, memset, events,
  allocation, synchronization, a library or a user function), control flow, or an access
  to memory the host cannot prove is not the device's (`p[k]`, `*p`, `p->f`).
CUDA's names and HIP's are both known: the pass also sees its own output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at
from translator.ir.model import LaunchSite, Module, Span
from translator.ir.ancestry import ancestry
from translator.ir.nodes import assigned, descendants, with_parents

PURE_CALLS = frozenset({
    "min", "max", "std::min", "std::max", "fmin", "fmax", "fminf", "fmaxf", "abs", "std::abs", "fabs", "fabsf",
    "sqrt", "sqrtf", "std::sqrt", "ceil", "ceilf", "floor", "floorf", "pow", "powf", "exp", "expf", "log", "logf",
    "sin", "sinf", "cos", "cosf", "dim3",
})
ERROR_QUERIES = frozenset({"cudaGetLastError", "cudaPeekAtLastError", "hipGetLastError", "hipPeekAtLastError"})
# What a function-like macro that checks an error may call and still be a check.
_REPORTING = frozenset({"fprintf", "printf", "puts", "fflush", "exit", "abort", "std::exit", "std::abort",
                        "cudaGetErrorString", "cudaGetErrorName", "hipGetErrorString", "hipGetErrorName",
                        "if", "while", "do", "for", "switch", "return", "sizeof"}) | ERROR_QUERIES
ALLOCATORS = frozenset({"cudaMalloc", "cudaMallocManaged", "hipMalloc", "hipMallocManaged"})
FREES = frozenset({"cudaFree", "hipFree"})
_CONTROL = {"if_statement": "an if", "for_statement": "a loop", "while_statement": "a loop",
            "do_statement": "a loop", "for_range_loop": "a loop", "switch_statement": "a switch",
            "return_statement": "a return", "break_statement": "a break", "continue_statement": "a continue",
            "goto_statement": "a goto", "compound_statement": "a nested block", "try_statement": "a try block"}
_MACRO = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\r?\n)*[^\n]*)", re.M)
_CALLED = re.compile(r"([A-Za-z_][\w:]*)\s*\(")


@dataclass(frozen=True)
class Statement:
    span: Span
    kind: str                     # "launch", "transparent", "check" or "barrier"
    what: str                     # a barrier's description; "" otherwise
    assigns: frozenset[str]       # the names it declares or assigns
    launch: LaunchSite | None


@dataclass(frozen=True)
class Block:
    """A compound statement holding two launches or more: its statements from the first
    launch to the last."""
    span: Span
    function: str | None
    statements: tuple[Statement, ...]
    function_span: Span | None    # the enclosing function definition


@dataclass(frozen=True)
class PointerUse:
    span: Span
    role: str                     # "allocate" (&p in an allocation), "free", "declare" or "other"


@dataclass(frozen=True)
class Pointers:
    """What a function does with its names: which are distinct allocations, which
    parameters are `__restrict__`, and every use of each name."""
    allocated: frozenset[str]     # locals set only by one cudaMalloc/cudaMallocManaged (&p)
    restricted: frozenset[str]    # pointer parameters declared __restrict__
    parameters: frozenset[str]
    locals: frozenset[str]        # names declared in the function's body
    uses: dict[str, tuple[PointerUse, ...]]


def launch_blocks(parsed: ParsedFile, module: Module) -> list[Block]:
    """Every block of the file's main parse that holds two launches or more."""
    frag = parsed.main
    groups: dict[Span, list[tuple[LaunchSite, ts.Node]]] = {}
    parents: dict[Span, ts.Node] = {}
    tree = ancestry(frag)
    for site in module.launches:
        if site.in_macro or not site.clean or site.statement is None:
            continue
        statement = tree.node_at(*site.statement)
        parent = tree.parent(statement) if statement is not None else None
        if parent is None or parent.type != "compound_statement":
            continue
        key = (parent.start_byte, parent.end_byte)
        groups.setdefault(key, []).append((site, statement))
        parents[key] = parent
    macros = _check_macros(parsed.data)
    blocks = []
    for key, sites in sorted(groups.items()):
        if len(sites) < 2:
            continue
        parent = parents[key]
        first, last = sites[0][1], sites[-1][1]
        by_statement = {statement.id: site for site, statement in sites}
        inside = False
        statements = []
        for child in parent.named_children:
            if child.id == first.id:
                inside = True
            if inside and child.type != "comment":
                statements.append(_classify(parsed, child, by_statement.get(child.id), macros))
            if child.id == last.id:
                break
        function = tree.function_of(parent)
        blocks.append(Block(key, sites[0][0].function, tuple(statements),
                            (function.start_byte, function.end_byte) if function is not None else None))
    return blocks


def _text(parsed: ParsedFile, node: ts.Node) -> str:
    return parsed.data[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _check_macros(data: bytes) -> frozenset[str]:
    """The file's function-like macros that only query, report and exit."""
    out = set()
    for match in _MACRO.finditer(data):
        params = {p.strip() for p in match.group(2).decode("utf-8", "replace").split(",")}
        called = set(_CALLED.findall(match.group(3).decode("utf-8", "replace")))
        if called <= _REPORTING | params:
            out.add(match.group(1).decode())
    return frozenset(out)


def _classify(parsed: ParsedFile, node: ts.Node, site: LaunchSite | None, macros: frozenset[str]) -> Statement:
    span = (node.start_byte, node.end_byte)
    if site is not None:
        expression = node.named_children[0] if node.type == "expression_statement" and node.named_children else None
        if expression is not None and (expression.start_byte, expression.end_byte) == site.span:
            return Statement(span, "launch", "", frozenset(), site)
        return Statement(span, "barrier", "a launch inside a larger statement", frozenset(), None)
    if node.type in _CONTROL:
        return Statement(span, "barrier", _CONTROL[node.type], frozenset(), None)
    if node.type not in ("expression_statement", "declaration"):
        return Statement(span, "barrier", f"a {node.type.replace('_', ' ')}", frozenset(), None)
    check = _error_check(parsed, node, macros)
    if check:
        return Statement(span, "check", "", frozenset(), None)
    assigns = set()
    for n in descendants(node):
        kind = n.type
        if kind == "call_expression":
            name = _callee(parsed, n)
            if name not in PURE_CALLS:
                inner = [_callee(parsed, c) for c in descendants(n) if c.type == "call_expression" and c is not n]
                inner = [c for c in inner if c not in PURE_CALLS]
                what = f"a call of {inner[0]} (in {name}(...))" if name in macros and inner else f"a call of {name}"
                return Statement(span, "barrier", what, frozenset(), None)
        elif kind == "subscript_expression":
            return Statement(span, "barrier", f"a memory access ({_text(parsed, n)})", frozenset(), None)
        elif kind == "pointer_expression" and _text(parsed, n).lstrip().startswith("*"):
            return Statement(span, "barrier", f"a memory access ({_text(parsed, n)})", frozenset(), None)
        elif kind == "field_expression" and any(c.type == "->" for c in n.children):
            return Statement(span, "barrier", f"a memory access ({_text(parsed, n)})", frozenset(), None)
        elif kind in ("new_expression", "delete_expression", "lambda_expression", "gnu_asm_expression",
                      "co_await_expression", "throw_expression"):
            return Statement(span, "barrier", f"a {kind.replace('_', ' ')}", frozenset(), None)
        elif kind in ("assignment_expression", "update_expression"):
            target = n.child_by_field_name("left") or n.child_by_field_name("argument")
            if target is not None:
                assigns.add(_text(parsed, target).strip())
        elif kind == "init_declarator" or (kind == "declaration" and n is node):
            for d in ([n] if kind == "init_declarator" else n.children_by_field_name("declarator")):
                target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                while target is not None and target.type != "identifier":
                    target = target.child_by_field_name("declarator")
                if target is not None:
                    assigns.add(_text(parsed, target))
        elif kind == "pointer_expression":       # &x: it may be written through
            assigns.add(_text(parsed, n).lstrip()[1:].strip())
    return Statement(span, "transparent", "", frozenset(assigns), None)


def _callee(parsed: ParsedFile, call: ts.Node) -> str:
    function = call.child_by_field_name("function")
    return _text(parsed, function) if function is not None else ""


def _error_check(parsed: ParsedFile, node: ts.Node, macros: frozenset[str]) -> bool:
    """`cudaGetLastError();`, `cudaError_t e = cudaGetLastError();` or `CHECK(q())` for a
    reporting macro CHECK and an error query q."""
    calls = [n for n in descendants(node) if n.type == "call_expression"]
    names = []
    for call in calls:
        function = call.child_by_field_name("function")
        names.append(_text(parsed, function) if function is not None else "")
    if not names or not any(n in ERROR_QUERIES for n in names):
        return False
    return all(n in ERROR_QUERIES or n in macros for n in names)


def pointers(parsed: ParsedFile, function_span: Span) -> Pointers:
    """The facts of one function definition (see Pointers)."""
    function = node_at(parsed.main.root, *function_span)
    if function is None:
        return Pointers(frozenset(), frozenset(), frozenset(), frozenset(), {})
    declarator = function.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    restricted, parameters = set(), set()
    for p in (params.named_children if params is not None else ()):
        name = p.child_by_field_name("declarator")
        while name is not None and name.type != "identifier":
            name = name.child_by_field_name("declarator")
        if name is None:
            continue
        parameters.add(_text(parsed, name))
        if re.search(r"\b(__restrict__|__restrict|restrict)\b", _text(parsed, p)):
            restricted.add(_text(parsed, name))
    body = function.child_by_field_name("body")
    uses: dict[str, list[PointerUse]] = {}
    declared, allocations, written = set(), {}, {}
    for n, parent in with_parents(body) if body is not None else ():
        if n.type != "identifier":
            continue
        name = _text(parsed, n)
        role = "other"
        if parent is not None and parent.type in ("init_declarator", "pointer_declarator", "declaration",
                                                  "array_declarator") \
                and parent.child_by_field_name("declarator") == n:
            role = "declare"
            declared.add(name)
        else:
            call, argument = _argument_of(n, parent)
            callee = call.child_by_field_name("function") if call is not None else None
            callee_name = _text(parsed, callee) if callee is not None else ""
            if argument is not None and callee_name in ALLOCATORS and argument == _first_argument(call) \
                    and _address_of(parsed, argument) == name:
                role = "allocate"
                allocations[name] = allocations.get(name, 0) + 1
            elif argument is not None and callee_name in FREES and _text(parsed, argument).strip() == name:
                role = "free"
            elif assigned(parsed.data, n, parent):
                written[name] = written.get(name, 0) + 1
        uses.setdefault(name, []).append(PointerUse((n.start_byte, n.end_byte), role))
    allocated = {name for name, count in allocations.items()
                 if count == 1 and name in declared and not written.get(name)}
    return Pointers(frozenset(allocated), frozenset(restricted), frozenset(parameters), frozenset(declared),
                    {k: tuple(v) for k, v in uses.items()})


def _argument_of(node: ts.Node, parent: ts.Node | None) -> tuple[ts.Node | None, ts.Node | None]:
    """The call and the argument of it that holds `node` (through `&`, casts and
    parentheses), or (None, None). (`parent`: the node's.)"""
    child = node
    while parent is not None and parent.type in ("pointer_expression", "cast_expression",
                                                 "parenthesized_expression"):
        child, parent = parent, parent.parent
    if parent is None or parent.type != "argument_list":
        return None, None
    return parent.parent, child


def _first_argument(call: ts.Node) -> ts.Node | None:
    arguments = call.child_by_field_name("arguments")
    named = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    return named[0] if named else None


def _address_of(parsed: ParsedFile, argument: ts.Node) -> str | None:
    """`x` for `&x`, `(void **)&x`, `reinterpret_cast<void**>(&x)` ..."""
    text = re.sub(r"\s+", "", _text(parsed, argument))
    match = re.fullmatch(r"(?:\((?:void|char|float|double|int|\w+)\*\*\))?\(?&(\w+)\)?", text)
    return match.group(1) if match else None
