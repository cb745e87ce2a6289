"""Device code and its call graph: the file's kernels and `__device__` functions, and who calls whom.

Two analyses, each computed once per round (the fact "call-graph", translator.facts.call_graph):

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

Every other call of a device function's body is a known call of the device library
(`sqrtf`, `atomicAdd`, `std::min`: the mapping tables' device functions), a
cooperative-groups call (`cg::this_grid()`, read by the analyses that look for block
queries), a conversion (`static_cast<float>(x)`, `float(x)`, `Real_t(x)` where `Real_t` is
a typedef or `using` of an arithmetic type: a value cast calls nothing; `reinterpret_cast`
and `const_cast` of any type, which run no code of a class), or an *unknown
edge* (`Function.unknown`: the callee as written
and why it cannot be followed): a call through a function pointer (a parameter, a local,
a global, `(*fp)(x)`), through a table of them (`ops[k](x)`), of a functor (a parameter or
local of a template parameter's type or of a class, `F()(x)`), a member call (virtual or
not, `p->f(x)`), a constructor of one of the file's classes, and a function the file
declares but does not define (`extern __device__`) or does not declare at all (it lives
in another file), `T(x)` of a template parameter `T` and `static_cast` to a type that
is not arithmetic (either may run a class's constructor). A macro used in a body
(translator.ir.macros, the round's table) is seen through: the calls of its expansion
are the body's calls, and a macro that cannot be expanded is an unknown edge. An analysis that must see every callee treats a function with an
unknown edge as one that may do anything; `CallGraph.first_unknown` finds the first one a
function reaches through known edges.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from functools import cached_property

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Span
from translator.ir.macros import macros
from translator.ir.nodes import calls_between, hits, parent_of
from translator.ir.types import INTEGERS, Types, normal

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
    unknown: tuple[tuple[str, str], ...] = ()   # (callee as written, why it cannot be followed), first first

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

    def reached(self, name: str) -> list[str]:
        """The device functions `name` calls through known edges, directly or through
        others (itself excluded), nearest first."""
        seen: list[str] = []
        known: set[str] = {name}
        todo = sorted(self.callees(name), reverse=True)
        while todo:
            callee = todo.pop()
            if callee not in known:
                seen.append(callee)
                known.add(callee)
                todo += sorted(self.callees(callee) - known, reverse=True)
        return seen

    def first_unknown(self, name: str, known: frozenset[str] = frozenset()) -> tuple[str, str, str] | None:
        """(function, callee, why) of the first unknown edge of `name` or of a function it
        reaches through known edges; None when every call it can make is known. `known`:
        types `name` itself may construct or cast to (`T(x)`, `static_cast<T>(x)` in a
        template kernel whose every launch that counts makes T an arithmetic type)."""
        for function in [name, *self.reached(name)]:
            for f in self.by_name.get(function, ()):
                edges = [e for e in f.unknown if function != name or _cast_target(e[0]) not in known]
                if edges:
                    return (function, *edges[0])
        return None

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
    """The device functions of the file and their calls (the fact "call-graph": computed
    once per round)."""
    from translator.facts import provide
    return provide(parsed, "call-graph")


def build_call_graph(parsed: ParsedFile) -> CallGraph:
    """The device functions of the file and their calls, computed."""
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
    if not found:
        return CallGraph(())
    names = {name for name, *_ in found}
    scope = _FileScope(parsed, names)
    table = macros(parsed)
    conversions = _Conversions(parsed)
    functions = []
    for name, node, body, kernel in found:
        calls: list[str] = []
        unknown: list[tuple[str, str]] = []
        call_nodes = calls_between(parsed, parsed.main, *parsed.main.span(body))
        local = _Locals(parsed, node, body) if call_nodes else None
        for n in call_nodes:
            function = n.child_by_field_name("function")
            if function is None:
                continue
            if function.type == "identifier" and parsed.main.text(data, function) in table:
                continue        # a macro: its expansion's calls are read below
            callee, why = _classify(parsed, function, names, local, scope, conversions)
            if callee is not None and callee not in calls:
                calls.append(callee)
            elif why is not None:
                written = " ".join(parsed.main.text(data, function).split())
                if all(w != written for w, _ in unknown):
                    unknown.append((written, why))
        for callee, edge in _macro_calls(parsed, table, body, names, scope, conversions):
            if callee is not None and callee not in calls:
                calls.append(callee)
            elif edge is not None and all(w != edge[0] for w, _ in unknown):
                unknown.append(edge)
        functions.append(Function(name, parsed.main.span(node), parsed.main.span(body), kernel, tuple(calls),
                                  tuple(unknown)))
    return CallGraph(tuple(functions))


# Cooperative groups' namespaces and free functions: calls the block analyses read.
COOPERATIVE_GROUPS = frozenset({"cooperative_groups", "cg"})
_CG_FUNCTIONS = frozenset({"this_thread_block", "this_grid", "this_multi_grid", "tiled_partition",
                           "coalesced_threads", "this_cluster", "sync", "binary_partition", "labeled_partition"})
# Names C and C++ give device code besides CUDA's device library.
_LIBRARY_EXTRA = frozenset({"printf", "assert", "malloc", "free", "memcpy", "memset", "sizeof", "alignof",
                            "__builtin_expect", "__builtin_assume", "__assume", "__trap", "__brkpt", "static_assert",
                            "__syncthreads", "__threadfence", "__threadfence_block", "__threadfence_system",
                            "__syncwarp", "__nanosleep", "clock", "clock64", "__prof_trigger"})
_LIBRARY_NAMESPACES = frozenset({"std", "cuda", "thrust", "cub", "hip", "__gnu_cxx"})
# The vector types' constructors (vector_functions.h, the same names in HIP, so the
# renaming tables leave them out): `make_float4(x, y, z, w)` builds a value, calls nothing.
_VECTOR_MAKERS = frozenset(f"make_{base}{n}" for base in ("char", "uchar", "short", "ushort", "int", "uint", "long",
                                                          "ulong", "longlong", "ulonglong", "float", "double")
                           for n in (1, 2, 3, 4))


@functools.cache
def library_functions() -> frozenset[str]:
    """The device library's function names (the mapping tables' device functions, CUDA's
    spelling and HIP's), the vector types' `make_float4` and the others, and the C and C++
    names device code calls."""
    from translator.mapping import _data_lines, TSV_HEADER
    # The warp builtins are the device library's too, in CUDA's and HIP's spellings (the
    # tables leave out some, __activemask among them: a kernel calling it had a call
    # "cu2hip cannot follow" until the hipify pass rewrote the call, which then changed
    # what the fusion pass decided: found by the sources campaign, seed 1705).
    out = set(_LIBRARY_EXTRA) | _VECTOR_MAKERS | WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS
    for line in _data_lines("mappings/device.tsv", TSV_HEADER, 19):
        fields = line.split("\t")
        if fields[1] == "device_function":
            out.add(fields[0])
            if fields[7]:
                out.add(fields[7])
    return frozenset(out)


class _FileScope:
    """What the file's top level names: functions declared without a definition, variables
    (function pointers and tables of them), and classes with member functions."""

    def __init__(self, parsed: ParsedFile, defined: set[str]):
        self.declared: set[str] = set()
        self.variables: set[str] = set()
        self.classes: set[str] = set()
        stack = list(parsed.main.root.named_children)
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in _CONTAINERS or kind in ("template_declaration", "preproc_if", "preproc_ifdef",
                                               "preproc_else", "preproc_elif"):
                body = node.child_by_field_name("body") if kind in ("namespace_definition",
                                                                    "linkage_specification") else None
                stack.extend((body or node).named_children)
            elif kind == "declaration":
                for d in node.children_by_field_name("declarator"):
                    target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                    inner = target
                    while inner is not None and inner.type in ("pointer_declarator", "reference_declarator"):
                        inner = inner.child_by_field_name("declarator")
                    if inner is not None and inner.type == "function_declarator":
                        callee = inner.child_by_field_name("declarator")
                        if callee is not None and callee.type == "identifier":
                            self.declared.add(parsed.main.text(parsed.data, callee))
                        elif callee is not None and callee.type == "parenthesized_declarator":
                            self.variables |= _identifiers(parsed, callee)    # (*fp)(int)
                    elif inner is not None:
                        self.variables |= _identifiers(parsed, inner)
            elif kind in ("struct_specifier", "class_specifier"):
                name = node.child_by_field_name("name")
                body = node.child_by_field_name("body")
                if name is not None and body is not None and any(
                        c.type in ("function_definition", "declaration", "field_declaration")
                        and b"(" in parsed.data[c.start_byte:c.end_byte] for c in body.named_children):
                    self.classes.add(parsed.main.text(parsed.data, name))
        self.declared -= defined


def _identifiers(parsed: ParsedFile, node: ts.Node) -> set[str]:
    out = set()
    while node is not None:
        if node.type == "identifier":
            out.add(parsed.main.text(parsed.data, node))
            break
        node = node.child_by_field_name("declarator") or (node.named_children[0] if node.named_children else None)
    return out


@functools.lru_cache(maxsize=4096)
def _word(name: str) -> re.Pattern:
    return re.compile(re.escape(name.encode()) + rb"\b")


class _Locals:
    """The parameters and locals of a function definition, with their types as written,
    and the type parameters of its template. A local is looked up by name when a call
    asks (the occurrences of the name in the body that declare it), not by a walk of the
    body; the last declaration in the body wins, then a parameter."""

    def __init__(self, parsed: ParsedFile, node: ts.Node, body: ts.Node) -> None:
        self.parsed, self.body = parsed, body
        self.template_types: set[str] = set()
        self.params: dict[str, str] = {}
        self._held: dict[str, str | None] = {}
        text = lambda n: parsed.main.text(parsed.data, n)    # noqa: E731
        parent = node.parent
        if parent is not None and parent.type == "template_declaration":
            params = parent.child_by_field_name("parameters")
            for p in params.named_children if params is not None else ():
                if p.type in ("type_parameter_declaration", "optional_type_parameter_declaration",
                              "variadic_type_parameter_declaration"):
                    self.template_types |= {text(c) for c in p.named_children if c.type == "type_identifier"}
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        for holder in params.named_children if params is not None else ():
            for name, written in _declared(parsed, holder):
                self.params[name] = written

    def type_of(self, name: str) -> str | None:
        """The type the function declares `name` with (a local's or a parameter's), or None."""
        if name not in self._held:
            frag, written = self.parsed.main, None
            lo, hi = frag.span(self.body)
            for _, found in hits(self.parsed, frag, _word(name), lo, hi):
                if found.type == "identifier":
                    holder = _declaration_of(frag, found)
                    if holder is not None:
                        written = dict(_declared(self.parsed, holder)).get(name, written)
            self._held[name] = written if written is not None else self.params.get(name)
        return self._held[name]


def _declared(parsed: ParsedFile, holder: ts.Node) -> list[tuple[str, str]]:
    """(name, type as written) for each declarator of a declaration or parameter
    (`auto g = this_thread_block()`: the type is the value's)."""
    kind = holder.child_by_field_name("type")
    type_text = parsed.main.text(parsed.data, kind) if kind is not None else ""
    out = []
    for d in holder.children_by_field_name("declarator"):
        written = type_text
        if d.type == "init_declarator" and type_text == "auto":
            value = d.child_by_field_name("value")
            written = f"auto = {parsed.main.text(parsed.data, value)}" if value is not None else type_text
        for name in _identifiers(parsed, d.child_by_field_name("declarator") if d.type == "init_declarator" else d):
            out.append((name, written))
    return out


def _declaration_of(frag, identifier: ts.Node) -> ts.Node | None:
    """The declaration whose declarator names `identifier` (what _identifiers reads down
    from it: the `declarator` field, else the first named child), or None."""
    node = identifier
    while True:
        parent = parent_of(frag, node)
        if parent is None:
            return None
        if parent.type == "declaration":
            return parent if any(d == node for d in parent.children_by_field_name("declarator")) else None
        below = parent.child_by_field_name("declarator")
        if below is None:
            kids = parent.named_children
            below = kids[0] if kids else None
        if below != node or parent.type in ("compound_statement", "parameter_declaration", "function_definition"):
            return None
        node = parent


def _macro_calls(parsed: ParsedFile, table, body: ts.Node, names: set[str], scope: _FileScope,
                 conversions: _Conversions):
    """(callee, None) for each of the file's device functions that a macro used in `body`
    calls in its expansion, and (None, (macro, why)) for each call there that is not
    known, or for a macro that cannot be expanded."""
    from translator.ir.macros import called_names, expansion_of_use, uses
    for name, node in uses(table, parsed.main, parsed.data, body):
        expansion = expansion_of_use(table, parsed.main, parsed.data, node)
        if not expansion.known:
            yield None, (name, expansion.reason)
            continue
        for called in called_names(expansion.value):
            cast = re.fullmatch(r"(\w+)<(.*)>", called)
            if cast is not None:
                if _calls_nothing(cast.group(1), cast.group(2), conversions):
                    continue
                yield None, (name, f"{called} (in the expansion of the macro {name}) converts to a type that may be "
                                   "a class (its conversion is not analysed)")
                continue
            if called in names:
                yield called, None
            elif called in scope.declared:
                yield None, (name, f"{called} (in the expansion of the macro {name}) is declared but not defined "
                                   "in this file (extern): its body is not known")
            elif not (called in library_functions() or called in _CG_FUNCTIONS or called in _CONVERSION_WORDS
                      or conversions.arithmetic(called)):
                yield None, (name, f"{called} (in the expansion of the macro {name}) is not a function cu2hip can "
                                   "follow: its body is not known")


# Value casts and the words of a functional cast to a built-in type (`unsigned(x)`).
_CASTS = frozenset({"static_cast"})
# Casts that reinterpret or drop a qualifier: whatever the type, they run no code of a
# class (no constructor, no conversion operator), so they call nothing.
_POINTER_CASTS = frozenset({"reinterpret_cast", "const_cast"})


def _cast_target(callee: str) -> str:
    """`T` for the callee written `T` or `static_cast<T>` (any of the casts); else the callee."""
    found = re.fullmatch(r"(\w+)\s*<\s*(\w+)\s*>", callee)
    return found.group(2) if found and found.group(1) in _CASTS else callee
_CONVERSION_WORDS = frozenset({"float", "double", "int", "unsigned", "signed", "long", "short", "char", "bool",
                               "sizeof", "alignof", "decltype"})


class _Conversions:
    """Which types of the file are arithmetic (built in, or a typedef or `using` of one):
    `Real_t(x)` and `static_cast<float>(x)` convert a value, they call nothing."""

    def __init__(self, parsed: ParsedFile):
        self.parsed = parsed
        self._types: Types | None = None

    def arithmetic(self, name: str) -> bool:
        """Whether a type as written (`const float`, `Real_t`, `unsigned int`) is arithmetic."""
        written = normal(" ".join(w for w in name.split() if w not in ("const", "volatile")))
        if written in INTEGERS or written in _FLOATS:
            return True
        if self._types is None:
            self._types = Types(self.parsed.main, self.parsed.data)
        base = self._types.resolve(written)
        return base != written and (base in INTEGERS or base in _FLOATS)


_FLOATS = frozenset({"float", "double", "long double"})


def _calls_nothing(cast: str, target: str, conversions: _Conversions) -> bool:
    """Whether `cast<target>(x)` runs no code of a class: reinterpret_cast and const_cast
    never do; static_cast does not to an arithmetic type or a pointer."""
    return cast in _POINTER_CASTS or cast in _CASTS and (conversions.arithmetic(target)
                                                         or target.replace(" ", "").endswith("*"))


def _classify(parsed: ParsedFile, function: ts.Node, names: set[str], local: _Locals, scope: _FileScope,
              conversions: _Conversions) -> tuple[str | None, str | None]:
    """(the file's device function called, None), or (None, why the edge is unknown), or
    (None, None) for a known call of the library, cooperative groups or a conversion."""
    text = lambda n: parsed.main.text(parsed.data, n)    # noqa: E731
    kind = function.type
    if kind == "template_function":
        inner = function.child_by_field_name("name")
        if inner is not None and text(inner) in _CASTS | _POINTER_CASTS:
            arguments = function.child_by_field_name("arguments")
            written = text(arguments)[1:-1] if arguments is not None else ""
            if _calls_nothing(text(inner), written, conversions):
                return None, None          # static_cast<float>(x), reinterpret_cast<unsigned *>(p)
            return None, f"{text(function)} converts to a type that may be a class (its conversion is not analysed)"
        return _classify(parsed, inner, names, local, scope, conversions) if inner is not None else (None, None)
    if kind == "qualified_identifier":
        scope_node = function.child_by_field_name("scope")
        outer = text(scope_node) if scope_node is not None else ""
        name = text(function).replace(" ", "").rsplit("::", 1)[-1].split("<", 1)[0]
        if outer in COOPERATIVE_GROUPS or name in _CG_FUNCTIONS and outer in COOPERATIVE_GROUPS:
            return None, None
        if outer.split("::", 1)[0] in _LIBRARY_NAMESPACES or name in library_functions():
            return None, None
        if name in names:
            return name, None
        return None, f"{text(function)} is not defined in this file"
    if kind == "identifier":
        name = text(function)
        of = local.type_of(name)
        if of is not None:
            if of in local.template_types:
                return None, f"{name} is a functor of the template parameter type {of}: what it calls is not known"
            return None, f"{name} is called through a variable (a function pointer or a functor): its target is " \
                         "not known"
        if name in names:
            return name, None
        if name in scope.variables:
            return None, f"{name} is a function pointer (or a table of them): its target is not known"
        if name in scope.declared:
            return None, f"{name} is declared but not defined in this file (extern): its body is not known"
        if name in library_functions() or name in _CG_FUNCTIONS:
            return None, None
        if name in local.template_types:
            return None, f"{name}(...) constructs a value of the template parameter type {name}, which may be a " \
                         "class whose constructor is not analysed"
        if conversions.arithmetic(name):
            return None, None                                  # Real_t(x): a conversion to an arithmetic type
        return None, f"{name} is not defined in this file: its body is not known"
    if kind == "field_expression":
        receiver = function.child_by_field_name("argument")
        if receiver is not None and _cooperative(parsed, receiver, local):
            return None, None
        return None, f"{text(function)} is a member call (virtual or not): the method is not analysed"
    if kind == "subscript_expression":
        return None, f"{text(function)} is called through a table of function pointers: its target is not known"
    if kind in ("pointer_expression", "parenthesized_expression"):
        return None, f"{text(function)} is called through a function pointer: its target is not known"
    if kind == "call_expression":
        return None, f"{text(function)} makes a functor whose call operator is not analysed"
    if kind == "type_identifier" and text(function) in scope.classes:
        return None, f"{text(function)} constructs a class whose constructor is not analysed"
    if kind == "type_identifier" and text(function) in local.template_types:
        return None, f"{text(function)}(...) constructs a value of the template parameter type " \
                     f"{text(function)}, which may be a class whose constructor is not analysed"
    return None, None


_CG_TYPES = re.compile(r"\b(thread_block|grid_group|multi_grid_group|thread_block_tile|coalesced_group|"
                       r"thread_group|cluster_group|this_thread_block|this_grid|this_multi_grid|tiled_partition|"
                       r"coalesced_threads|this_cluster)\b")


def _cooperative(parsed: ParsedFile, receiver: ts.Node, local: _Locals) -> bool:
    """Is the receiver of a member call a cooperative group (`cg::this_grid()`, a local or
    parameter of a group type, `auto g = this_thread_block()`)?"""
    text = parsed.main.text(parsed.data, receiver)
    if _CG_TYPES.search(text):
        return True
    return receiver.type == "identifier" and bool(_CG_TYPES.search(local.type_of(text) or ""))
