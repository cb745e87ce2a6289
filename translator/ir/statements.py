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
from dataclasses import dataclass, field

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at
from translator.ir.model import LaunchSite, Module, Span
from translator.ir.ancestry import ancestry
from translator.ir.macros import CAST_WORDS, called_names
from translator.ir.macros import macros as macro_table
from translator.ir.nodes import assigned, declares, descendants, function_name, with_parents

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
    parameters are `__restrict__`, every use of each name, and why a name's value may not
    be what it was (the aliases the analysis cannot rule out)."""
    allocated: frozenset[str]     # locals set only by one cudaMalloc/cudaMallocManaged (&p), never changed
    restricted: frozenset[str]    # pointer parameters declared __restrict__, never changed
    parameters: frozenset[str]    # ... the parameters never changed
    locals: frozenset[str]        # names declared in the function's body
    uses: dict[str, tuple[PointerUse, ...]]
    # Why a name may hold another value than the one it was given, or share it: assigned,
    # its address taken, bound to a non-const reference, passed to a function or macro
    # that may take it by reference.
    changed: dict[str, str] = field(default_factory=dict)
    # Why a name may be read where its uses do not show it: a macro of the file names it,
    # or the function calls a macro the file does not define (its body is not known).
    hidden: dict[str, str] = field(default_factory=dict)

    def distinct(self, a: str, b: str):
        """Known(True) when `a` and `b` (pointer arguments, white space removed) provably
        point to different memory: a local that one allocation of this function sets
        cannot be reached through a parameter (whose value predates it) or another such
        local; two __restrict__ parameters are distinct by the caller's promise; none of
        them changed since. A pointer into such a local at an offset (`&x[off]`, `x+off`:
        see `base_of`) stays in its allocation, so it is that local for this question,
        except against another pointer into the same local: `&x[off]` and `&x[off+1]` (or
        `x`) may overlap. Else Unknown(why)."""
        from translator.facts import Known, Unknown
        bases = []
        for key in (a, b):
            form = (key, "") if key.isidentifier() else offset_form(key)
            if form is None or self._names_a_local(form[1]):
                return Unknown(f"'{key}' is not a plain name (pointer arithmetic, a member, a call, a macro's "
                               "expansion): where it points is not known")
            bases.append(form[0])
        for key, name in zip((a, b), bases):
            if name in self.changed:
                return Unknown(self.changed[name])
            if name != key and name not in self.allocated:
                return Unknown(f"'{key}' points into '{name}', which is not a local that one allocation of this "
                               "function sets: where it points is not known")
        x, y = bases
        if x == y and x in self.allocated:
            return Unknown(f"'{a}' and '{b}' both point into '{x}', which one allocation of this function sets: at "
                           "different offsets they may overlap")
        fresh = self.allocated
        if x in fresh and (y in fresh or y in self.parameters) or y in fresh and x in self.parameters:
            return Known(True)
        if a in self.restricted and b in self.restricted:
            return Known(True)
        return Unknown("not provably distinct allocations")

    def base_of(self, key: str) -> str | None:
        """The local that one allocation of this function sets (`allocated`) into which
        the pointer argument `key` (white space removed) points: the name itself, or the
        base of `&base[offset]` or `base+offset` (`offset_form`) whose offset names no
        such local (`x+(y-x)` is `y`); else None."""
        if key.isidentifier():
            return key if key in self.allocated else None
        form = offset_form(key)
        if form is None or form[0] not in self.allocated or self._names_a_local(form[1]):
            return None
        return form[0]

    def _names_a_local(self, offset: str) -> bool:
        return bool(self.allocated.intersection(_OFFSET_NAME.findall(offset)))

    def read_elsewhere(self, name: str) -> str | None:
        """Why `name` may be read by code its uses do not show, or None."""
        return self.hidden.get(name) or self.hidden.get("")


_OFFSET_FORMS = (re.compile(r"&([A-Za-z_]\w*)\[([^\[\]]+)\]"), re.compile(r"([A-Za-z_]\w*)\+(.+)"))
_PURE_OFFSET = re.compile(r"[\w+\-*/%()]+")
_OFFSET_CALL = re.compile(r"\w\s*\(")
_OFFSET_NAME = re.compile(r"(?<![\w])[A-Za-z_]\w*")


def offset_form(key: str) -> tuple[str, str] | None:
    """(base, offset) of a pointer argument `&base[offset]` or `base+offset` (white space
    removed) whose offset is host arithmetic: names, numbers, `+ - * / %` and
    parentheses; no call, subscript, member, `++`/`--` or assignment, so that its value is
    that of its names, which a launch's check of the names modified between the launches
    covers. Else None."""
    for form in _OFFSET_FORMS:
        match = form.fullmatch(key)
        if match is None:
            continue
        base, offset = match.groups()
        if not _PURE_OFFSET.fullmatch(offset) or _OFFSET_CALL.search(offset) or "++" in offset or "--" in offset:
            return None
        depth = 0
        for c in offset:
            depth += (c == "(") - (c == ")")
            if depth < 0:
                return None
        return (base, offset) if depth == 0 else None
    return None


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
    macros = _check_macros(macro_table(parsed))
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


def _check_macros(table) -> frozenset[str]:
    """The function-like macros (the file's and its headers') that only query, report and exit."""
    out = set()
    for name, macro in table.known().items():
        # A cast (`static_cast<int>(e)`, kept with its type) is not a call to report with.
        called = {c for c in called_names(macro.body) if c.split("<", 1)[0] not in CAST_WORDS}
        if macro.params is not None and called <= _REPORTING | set(macro.params):
            out.add(name)
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


def pointers(parsed: ParsedFile, function_span: Span, shapes: dict | None = None) -> Pointers:
    """The facts of one function definition (see Pointers). `shapes`: the file's
    parameter_shapes, when the caller has them."""
    shapes = parameter_shapes(parsed) if shapes is None else shapes
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
    changed: dict[str, str] = {}
    for n, parent in with_parents(body) if body is not None else ():
        if n.type == "init_declarator":
            _reference_binding(parsed, n, changed)
        if n.type != "identifier":
            continue
        name = _text(parsed, n)
        role = "other"
        if parent is not None and parent.type in ("init_declarator", "pointer_declarator", "declaration",
                                                  "array_declarator") \
                and declares(parent, n):
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
            elif argument is not None and argument.type == "identifier" and callee_name not in BY_VALUE \
                    and not any(c.type == "kernel_call_syntax" for c in call.children) \
                    and _may_take_reference(shapes, callee_name, argument):
                changed.setdefault(name, f"'{name}' is passed to {callee_name or 'a call'}, which may take it by "
                                         "reference and change it")
        uses.setdefault(name, []).append(PointerUse((n.start_byte, n.end_byte), role))
    for name, count in written.items():
        changed.setdefault(name, f"'{name}' is assigned or its address taken in {function_name(parsed.data, function, 'the function')}")
    allocated = {name for name, count in allocations.items()
                 if count == 1 and name in declared and name not in changed}
    for name, count in allocations.items():
        if count > 1:
            changed.setdefault(name, f"'{name}' is allocated {count} times")
    parameters -= set(changed)
    restricted -= set(changed)
    return Pointers(frozenset(allocated), frozenset(restricted), frozenset(parameters), frozenset(declared),
                    {k: tuple(v) for k, v in uses.items()}, changed, _hidden(parsed, body, declared | parameters))


# Calls that take their pointer arguments by value (and a launch's arguments are values).
BY_VALUE = frozenset({
    "cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", "cudaMemsetAsync", "cudaMemcpy2D", "cudaMemPrefetchAsync",
    "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemAdvise", "cudaFree", "cudaFreeHost",
    "hipMemcpy", "hipMemcpyAsync", "hipMemset", "hipMemsetAsync", "hipMemcpy2D", "hipMemPrefetchAsync",
    "hipMemcpyToSymbol", "hipMemcpyFromSymbol", "hipMemAdvise", "hipFree", "hipHostFree",
    "printf", "fprintf", "free", "memcpy", "memset", "std::memcpy", "std::memset",
}) | PURE_CALLS | ERROR_QUERIES


def _may_take_reference(shapes_of: dict, callee: str, argument: ts.Node) -> bool:
    """May the call pass `argument` by reference? Yes, unless the callee is a function
    of the file whose every declaration takes that position by value."""
    shapes = shapes_of.get(callee)
    if not shapes:
        return True
    arguments = argument.parent
    position = [a for a in arguments.named_children if a.type != "comment"].index(argument)
    return any(position >= len(shape) or shape[position] for shape in shapes)


def parameter_shapes(parsed: ParsedFile) -> dict[str, list[tuple[bool, ...]]]:
    """For each function the file declares or defines at its top level: per declaration,
    whether each parameter may be a reference (a reference, variadic, or not read)."""
    out: dict[str, list[tuple[bool, ...]]] = {}
    stack = list(parsed.main.root.named_children)
    while stack:
        node = stack.pop()
        if node.type in ("namespace_definition", "linkage_specification", "declaration_list",
                         "template_declaration", "preproc_if", "preproc_ifdef", "preproc_else"):
            body = node.child_by_field_name("body") if node.type in ("namespace_definition",
                                                                     "linkage_specification") else None
            stack.extend((body or node).named_children)
            continue
        if node.type not in ("function_definition", "declaration"):
            continue
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type in ("pointer_declarator", "reference_declarator"):
            declarator = declarator.child_by_field_name("declarator")
        if declarator is None or declarator.type != "function_declarator":
            continue
        name = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters")
        if name is None or params is None:
            continue
        shape = tuple(p.type == "variadic_parameter" or "&" in _text(parsed, p) or p.type != "parameter_declaration"
                      and p.type != "optional_parameter_declaration" for p in params.named_children
                      if p.type != "comment")
        out.setdefault(_text(parsed, name), []).append(shape)
    return out


def _reference_binding(parsed: ParsedFile, node: ts.Node, changed: dict[str, str]) -> None:
    """`T& r = x;` or `T*& r = x;` (not a const reference): x may change through r."""
    declarator = node.child_by_field_name("declarator")
    value = node.child_by_field_name("value")
    if declarator is None or value is None:
        return
    written = _text(parsed, declarator)
    if "&" not in written or "&&" in written:
        return
    before = written.split("&", 1)[0]
    declaration = node.parent
    head = _text(parsed, declaration)[:max(0, declarator.start_byte - declaration.start_byte)] \
        if declaration is not None else ""
    if "*" in before:
        if re.search(r"\bconst\s*$", before.rsplit("*", 1)[1]):
            return          # T* const& r = x: x cannot change through r
    elif re.search(r"\bconst\b", head + before):
        return              # const T& r = x
    bound = re.sub(r"\s+", "", _text(parsed, value))
    name = re.sub(r"[\s&*]+|\bconst\b", "", written)
    if bound.isidentifier():
        changed.setdefault(bound, f"'{bound}' is bound to the reference '{name}', through which it may change")


_UPPER_CALL = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*\(")


def _hidden(parsed: ParsedFile, body: ts.Node | None, names: set[str]) -> dict[str, str]:
    """Names a macro of the file mentions (its expansion may read them), and under "" a
    call of the function that looks like a macro the file does not define (its body is not
    known: it may read any local)."""
    out: dict[str, str] = {}
    table = macro_table(parsed)
    defined = table.names
    for macro, found in table.every.items():
        for definition in found:
            words = set(re.findall(r"[A-Za-z_]\w*", definition.body)) - set(definition.params or ())
            for name in sorted(words & names):
                out.setdefault(name, f"the macro {macro}{definition.where} names '{name}': its uses through the "
                                     "macro are not seen")
    if body is not None:
        text = _text(parsed, body)
        for call in _UPPER_CALL.finditer(text):
            if call.group(1) not in defined and not call.group(1).startswith(("CUDA_", "HIP_")):
                out.setdefault("", f"{call.group(1)}(...) may be a macro this file does not define, whose "
                                   "expansion may read any local")
                break
    return out


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
