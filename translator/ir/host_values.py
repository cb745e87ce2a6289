"""Host-side values: what a launch's block (or grid) expression is, where the
translation unit determines it.

Known: integer literals; `const`/`constexpr` variables (local, global, static members,
namespace members) and locals initialized once and never written (no assignment, `++`
or `&x` anywhere in their scope); enumerators; object-like macros; template
arguments of the launching function template, over every instantiation the file holds
(each call `f<...>(...)`, qualified or not, an explicit instantiation, a default where a
call gives none, a template argument of a calling template followed to its own calls:
`instantiations`), unknown when one may be unseen (its name is used another way: its
address, a member call, a macro; an argument deduced, but for a type from a `T *`
parameter's argument); for a template in a header or a file another includes, a value
parameter's values are those every file of the project that sees it gives
(translator.universe.template_index, gathered from each file's `template_uses`), and
unknown where the run did not gather them (a header translated alone); `dim3(x, y, z)` and
`dim3 b(x, y)` (the number of threads: the product); a local dim3 written member by member
(`dim3 block; block.x = 256;`, `dim3 b(1, 1, 1); b.x = T;`, HeCBench's shape: `_members`),
not static, each write of it a plain assignment (=) of a member, of a known value: each
member is its last such write before the launch (or its declaration's value, 1 where it
gives none) where that write is a statement of a block around the launch with no case
label between them, no goto in the function and no loop around the launch inside that
block that writes the member, and `b.x` reads it (`grid.x = (n + block.x - 1) /
block.x`); arithmetic, casts, `?:`, `min`/`max` and `sizeof` of the common types.
Anything else is unknown, with the reason: a parameter (its value comes from the
caller), a variable written in the function, a call, a name the file does not declare.

Several values at run time, each known: a macro with several definitions under `#if`
branches that cover every path, each a constant (`_alternatives`: whichever branch the
build compiles, it is one of them); a local of an integer type or `dim3`, not static,
whose every write in its scope is an assignment (=) of a constant (`int threads = 256; if
(n < 1000) threads = 128;`: 128 or 256); the counter of a `for` loop that only the loop's
update changes, in the loop's body (`for (int bs = 64; bs <= 1024; bs *= 2)`: 64 to 1024,
the loop followed step by step); a member of a dim3 written member by member where a
path to the launch may skip or repeat its writes (in a branch, a loop, after a case
label or a goto): each of the values its declaration and its assignments give
(`dim3 b; if (n) b.x = 512;`: 1 or 512). Such a value carries a note (`Value.note`)
that says how its values were found. Its address taken, a non-const reference, a capture
by reference, a compound assignment, `++`, or an assignment of anything but a constant
keeps it unknown (for a dim3 written member by member, also an assignment of the whole
dim3).

A value is a tuple of the integers it may take (one per instantiation of the launching
template, or one of the several above, else one); the block size of a launch is the
largest. A pass that needs the one value (rebalancing) acts only where there is one.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.facts import Known, Unknown
from translator.frontend import ParsedFile, parse_file, words_of
from translator.ir.model import LaunchSite
from translator.ir.ancestry import ancestry
from translator.ir.macros import MacroTable, included_headers, table_of
from translator.ir.macros import tokens as macro_tokens
from translator.ir.nodes import descendants
from translator.ir.scopes import Scopes
from translator.ir.writes import Callees, body_may_write, captured_by_reference, write_of
from translator.source import HEADER_SUFFIXES

SIZES = {"char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "short": 2, "unsigned short": 2,
         "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "long": 8, "unsigned long": 8, "long long": 8,
         "unsigned long long": 8, "double": 8, "size_t": 8, "int8_t": 1, "uint8_t": 1, "int16_t": 2,
         "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "half": 2, "__half": 2,
         "half2": 4, "__half2": 4, "__nv_bfloat16": 2, "float2": 8, "float3": 12, "float4": 16, "int2": 8,
         "int4": 16, "double2": 16, "uint4": 16}
_INT = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)([uUlL]*)\Z")
_POSITION = re.compile(r"\d+:\d+")    # the line:col of a "path:line:col" place
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_MAX_DEPTH = 32


@dataclass(frozen=True)
class Value:
    values: tuple[int, ...]       # empty when unknown
    reason: str = ""              # why unknown
    # Unknown because it is exactly a macro the compile line may redefine (its `#define`
    # under `#ifndef NAME`): that name, which a bound may be written in terms of.
    symbol: str = ""
    # Known, and one of several values at run time, not per instantiation: how they were
    # found (a macro's definitions under #if branches, a local's assignments), for the
    # note of a pass that takes the largest.
    note: str = ""

    @property
    def known(self) -> bool:
        return bool(self.values)


def unknown(reason: str, symbol: str = "") -> Value:
    return Value((), reason, symbol)


def _plain(value: Value) -> Value:
    """The value without its symbol: an expression of an overridable macro is no longer it."""
    return Value(value.values, value.reason, note=value.note) if value.symbol else value


def _noted(values: tuple[int, ...], *sources: Value) -> Value:
    """A value computed from `sources`, with their notes (translator.ir.host_values.Value.note)."""
    notes = [v.note for v in sources if v.note]
    return Value(values, note="; ".join(dict.fromkeys(notes)))


class LocalHeaders:
    """The local headers a file includes (`#include "config.h"`), found by their path
    relative to the including file among `headers` (real path -> bytes, what the command
    read of the project), each parsed once: their macros and constants are the file's too."""

    def __init__(self, path: str, headers: dict[str, bytes]):
        self.path, self.headers = path, headers
        self._chain: list[HostValues] | None = None

    def chain(self, data: bytes) -> list[HostValues]:
        """The evaluators of the headers `data` (the file's text) includes, directly or
        through others, in the order the preprocessor reads them."""
        if self._chain is None:
            self._chain = [HostValues(parsed_header(text))
                           for _, text in included_headers(self.path, data, self.headers)]
        return self._chain


_HEADER_PARSES: dict[bytes, ParsedFile] = {}


def parsed_header(data: bytes) -> ParsedFile:
    found = _HEADER_PARSES.get(data)
    if found is None:
        if len(_HEADER_PARSES) > 256:
            _HEADER_PARSES.clear()
        found = _HEADER_PARSES[data] = parse_file(data)
    return found


def evaluator(parsed: ParsedFile, path: str, options, table: MacroTable | None = None) -> HostValues:
    """The evaluator of a file of a run: its local headers are the run's (`options.local_headers`)."""
    headers = getattr(options, "local_headers", ())
    return HostValues(parsed, headers=LocalHeaders(path, dict(headers)) if headers else None, table=table, path=path,
                      templates=getattr(options, "template_index", None))


_BY_KEY: list = [None, {}]      # the last template index, and its entries by (defining file, template)


def _templates_by_key(index) -> dict:
    """The template index (translator.universe.template_index) as a mapping
    (defining file, template) -> each parameter's values, or why they are not known
    (None: a type parameter); made once per index."""
    if not index:
        return {}
    if _BY_KEY[0] is not index:
        _BY_KEY[1] = {(home, name): params for home, name, params in index}
        _BY_KEY[0] = index
    return _BY_KEY[1]


def _text(parsed: ParsedFile, node: ts.Node) -> str:
    return parsed.data[node.start_byte:node.end_byte].decode("utf-8", "replace")


class HostValues:
    """The evaluator of one file (its file-scope facts are gathered once)."""

    def __init__(self, parsed: ParsedFile, file: HostValues | None = None, headers: LocalHeaders | None = None,
                 table: MacroTable | None = None, path: str = "", templates=None):
        """`file`: for a macro's body (`parsed` holds its text alone), the evaluator of the
        file whose names it may use; `headers`: the local headers the file includes;
        `table`: the round's macro table (else the file's own `#define`s are read); `path`:
        the file's (when `headers` does not give it), which says whether it is a header;
        `templates`: the run's template index (translator.universe.template_index: the
        arguments the project's files give the function templates of headers and of
        included files)."""
        self.parsed = parsed
        self.path = file.path if file else path
        self.templates = file.templates if file else _templates_by_key(templates)
        self._table = file.table if file else table
        self.headers = file.headers if file else headers
        self._overridable: set[str] = file._overridable if file else set()
        self._defined_at: dict[str, int] = file._defined_at if file else {}
        self.root = parsed.main.root
        self._globals: dict[str, list[ts.Node]] | None = file.globals if file else None
        self._macros: dict[str, str | None] | None = file.macros if file else None
        self._locals: dict[tuple[int, str], tuple[list[ts.Node], str | None]] = {}   # see _name_in
        self._scopes: dict[tuple[int, str], tuple] = {}        # see _visible
        self._instantiated: dict[int, list | str] = {}          # see instantiations
        self._callees: Callees | None = None
        self._macro_bodies: dict[str, str] = file._macro_bodies if file else {}
        self._variables: set[str] = file._variables if file else set()   # globals that are not const
        self._binding: dict[tuple[int, str], int] = {}     # a loop counter's value, while _loop follows it
        self._assigning: set[int] = set()                  # the declarations whose writes are being read
        self._writers: dict[str, list[str]] = {}           # see _macro_write
        self._writing: list[tuple[str, set[str]]] | None = None
        self._tree = ancestry(parsed.main)

    @property
    def table(self) -> MacroTable:
        """The round's macro table (else the file's own `#define`s)."""
        if self._table is None:
            self._table = table_of(self.parsed.data)
        return self._table

    # ---- file-scope facts
    def _collect(self) -> None:
        self._globals, self._macros, self._macro_bodies, self._variables = {}, {}, {}, set()
        self._overridable, self._defined_at = set(), {}
        stack = list(self.root.named_children)
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("namespace_definition", "declaration_list", "linkage_specification", "field_declaration_list",
                        "class_specifier", "struct_specifier", "template_declaration"):
                stack.extend(node.named_children)
            elif kind in ("declaration", "field_declaration"):
                stack.extend(c for c in node.named_children if c.type in ("struct_specifier", "class_specifier",
                                                                          "enum_specifier"))
                self._global_declaration(node)
            elif kind == "enum_specifier":
                self._enum(node)
            elif kind.startswith("preproc_"):
                stack.extend(node.named_children)
        # The macros are the round's table's (the file's and its local headers'): an
        # object-like one by its text, anything else (function-like, several
        # definitions, #undef'd) None, a function-like one's body for Callees.
        table = self.table
        for name, macro in table.known().items():
            if macro.object_like:
                self._macros[name] = macro.body
                self._defined_at[name] = macro.offset
                if macro.overridable:
                    self._overridable.add(name)
            else:
                self._macros[name] = None
                self._macro_bodies[name] = macro.body
        for name in table.names - table.known().keys():
            self._macros[name] = None

    def _global_declaration(self, node: ts.Node) -> None:
        words = _text(self.parsed, node).split("=")[0].split()
        if "const" not in words and "constexpr" not in words:
            for d in node.children_by_field_name("declarator"):
                target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                if target is not None and target.type == "identifier":
                    self._variables.add(_text(self.parsed, target))
            return
        for d in node.children_by_field_name("declarator"):
            target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            value = d.child_by_field_name("value") if d.type == "init_declarator" else node.child_by_field_name("default_value")
            if target is not None and value is not None and target.type in ("identifier", "field_identifier"):
                self._globals.setdefault(_text(self.parsed, target), []).append(value)

    def _enum(self, node: ts.Node) -> None:
        body = node.child_by_field_name("body")
        previous = -1
        for e in (body.named_children if body is not None else ()):
            if e.type != "enumerator":
                continue
            name, value = e.child_by_field_name("name"), e.child_by_field_name("value")
            if value is not None:
                v = self.value(value, None, 0)
                previous = v.values[0] if v.known and len(v.values) == 1 else None
            elif previous is not None:
                previous += 1
            if name is not None and previous is not None:
                self._globals.setdefault(_text(self.parsed, name), []).append(previous)

    @property
    def globals(self) -> dict:
        if self._globals is None:
            self._collect()
        return self._globals

    @property
    def macros(self) -> dict:
        if self._macros is None:
            self._collect()
        return self._macros

    # ---- evaluation
    def block_size(self, site: LaunchSite) -> Value:
        """The number of threads per block of a launch (each instantiation's)."""
        return self.at(site.block.span)

    def at(self, span: tuple[int, int]) -> Value:
        """The value of the expression at `span`."""
        node = self._tree.node_at(*span)
        return self.evaluate(node) if node is not None else unknown("the expression was not found in the file's parse")

    def evaluate(self, node: ts.Node) -> Value:
        """The value of an expression of the file, in the function around it."""
        if node.type == "number_literal":
            return _literal(_text(self.parsed, node))       # the common case: no function to look up
        return self.value(node, self._tree.function_of(node), node.start_byte)

    def function_of(self, node: ts.Node) -> ts.Node | None:
        """The function definition around a node of the file."""
        return self._tree.function_of(node)

    def value(self, node: ts.Node, function: ts.Node | None, before: int, depth: int = 0) -> Value:
        if depth > _MAX_DEPTH:
            return unknown("too deep")
        kind = node.type
        text = _text(self.parsed, node)
        again = lambda n: self.value(n, function, before, depth + 1)   # noqa: E731
        if kind == "number_literal":
            return _literal(text)
        if kind in ("parenthesized_expression", "condition_clause"):
            inner = [c for c in node.named_children if c.type != "comment"]
            return again(inner[0]) if len(inner) == 1 else unknown(f"'{text}' is not a number")
        if kind == "cast_expression":
            return again(node.child_by_field_name("value"))
        if kind == "unary_expression":
            op, arg = node.child_by_field_name("operator"), node.child_by_field_name("argument")
            return _combine(_text(self.parsed, op), again(arg), None) if op is not None and arg is not None else \
                unknown(f"'{text}'")
        if kind == "binary_expression":
            op = node.child_by_field_name("operator")
            return _combine(_text(self.parsed, op), again(node.child_by_field_name("left")),
                            again(node.child_by_field_name("right")))
        if kind == "conditional_expression":
            cond = again(node.child_by_field_name("condition"))
            if not cond.known or len(cond.values) != 1:
                return cond if not cond.known else unknown(f"the condition of '{text}' has several values")
            return again(node.child_by_field_name("consequence" if cond.values[0] else "alternative"))
        if kind == "sizeof_expression":
            inner = node.child_by_field_name("type") or node.child_by_field_name("value")
            name = " ".join(_text(self.parsed, inner).strip("() ").split()) if inner is not None else ""
            return Value((SIZES[name],)) if name in SIZES else unknown(f"the size of '{name}' is not known here")
        if kind == "call_expression":
            return self._call(node, function, before, depth)
        if kind in ("identifier", "qualified_identifier", "type_identifier"):
            return self._name(text, node, function, before, depth)
        if kind == "type_descriptor" and node.named_child_count == 1 and node.named_children[0].type in (
                "type_identifier", "qualified_identifier"):
            return again(node.named_children[0])       # `f<float, N>()`: N read as a type, a name either way
        if kind == "parameter_declaration" and argument_parameter(node):
            inner, declarator = node.child_by_field_name("type"), node.child_by_field_name("declarator")
            if declarator is None:                          # `dim3 b(T)`: T is an argument
                return again(inner)
            if declarator.type == "pointer_declarator":     # `dim3 b(X*Y)`: the product X * Y
                return _combine("*", again(inner), again(declarator.child_by_field_name("declarator")))
            # `dim3 b(v[0])`: a subscript, as `v[0]` written anywhere else
        if kind == "field_expression":
            return self._component(node, text, again, depth)
        return unknown(f"'{text}' is not a constant expression cu2hip can evaluate")

    def _component(self, node: ts.Node, text: str, again, depth: int) -> Value:
        """`b.x` of a local `dim3 b(x, y, z)` (or `= dim3(...)`) the function never writes,
        or of a local dim3 written member by member (_members)."""
        argument, field = node.child_by_field_name("argument"), node.child_by_field_name("field")
        axis = "xyz".find(_text(self.parsed, field)) if field is not None else -1
        operator = node.child_by_field_name("operator")
        if argument is not None and argument.type == "identifier" and axis >= 0 and operator is not None \
                and _text(self.parsed, operator) == ".":
            members = self._members_at(argument, depth)
            if members is not None:
                return members if isinstance(members, Value) else members[axis]
        init = self.initializer(argument) if argument is not None and axis >= 0 else None
        if init is not None and init.type == "call_expression" and _text(self.parsed, init.child_by_field_name(
                "function")) == "dim3":
            init = init.child_by_field_name("arguments")
        if init is None or init.type not in ("argument_list", "initializer_list", "parameter_list"):
            return unknown(f"'{text}' is a member of a run-time value")
        parts = [a for a in init.named_children if a.type != "comment"]
        return again(parts[axis]) if axis < len(parts) else Value((1,))

    def _call(self, node: ts.Node, function, before: int, depth: int) -> Value:
        callee = node.child_by_field_name("function")
        name = _text(self.parsed, callee) if callee is not None else ""
        arguments = node.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        values = [self.value(a, function, before, depth + 1) for a in args]
        bad = next((v for v in values if not v.known), None)
        if name in ("dim3", "uint3"):
            if bad is not None or not 1 <= len(values) <= 3:
                return _dim3_unknown(values, bad) if bad is not None else unknown("dim3() of no argument")
            return _product(values)
        if name in ("min", "max", "std::min", "std::max") and len(values) == 2:
            if bad is not None:
                return _plain(bad)
            pick = min if name.endswith("min") else max
            return _noted(tuple(sorted({pick(a, b) for a in values[0].values for b in values[1].values})), *values)
        if name.startswith(("static_cast<", "int", "unsigned")) and len(values) == 1:
            return values[0]
        return unknown(f"'{_text(self.parsed, node)}' is a call: its value is known at run time")

    def _name(self, name: str, node: ts.Node, function, before: int, depth: int) -> Value:
        if function is not None:
            local = self._local(name, function, before, depth)
            if local is not None:
                return local
        short = name.rsplit("::", 1)[-1]
        found = self.globals.get(name if "::" not in name else short)
        if found:
            values = [v if isinstance(v, int) else self.value(v, None, 0, depth + 1) for v in found]
            ints = [v for v in values if isinstance(v, int)]
            vals = [v for v in values if not isinstance(v, int)]
            bad = next((v for v in vals if not v.known), None)
            if bad is not None:
                return bad
            every = set(ints) | {x for v in vals for x in v.values}
            if len(every) == 1:
                return Value(tuple(every))
            return unknown(f"'{name}' is declared with different values")
        if name in self._variables:
            return unknown(f"'{name}' is a global variable that is not const: any function may change it")
        macro = self.macros.get(name, ...)
        if macro is None:
            return self._alternatives(name, depth)
        if macro is not ...:
            if name in self._overridable:
                return unknown(f"'{name}' may be redefined on the compile line (-D{name}=...): its #define is "
                               f"under #ifndef {name}", symbol=name)
            return self._macro(name, macro, depth)
        for header in (self.headers.chain(self.parsed.data) if self.headers is not None else ()):
            found = header._name(name, node, None, before, depth + 1)
            if found.known or not found.reason.endswith("is not declared in this file"):
                return found
        return unknown(f"'{name}' is not declared in this file")

    def macro_visible(self, name: str, offset: int) -> bool:
        """Whether the object-like macro `name` is defined at `offset` of the file: in the
        file before it, or in a local header the file includes."""
        if self.macros.get(name) is not None and self._defined_at.get(name, offset) < offset:
            return True
        return any(h.macros.get(name) is not None
                   for h in (self.headers.chain(self.parsed.data) if self.headers is not None else ()))

    def _alternatives(self, name: str, depth: int) -> Value:
        """The values of a macro with several definitions that are alternatives (one of
        them holds wherever it is used: translator.ir.macros.MacroTable.alternatives), each
        a constant: it is one of them, whichever `#if` branch the build compiles."""
        found = self.table.alternatives(name)
        if not isinstance(found, Known):
            why = f" ({found.reason})" if isinstance(found, Unknown) else ""
            return unknown(f"'{name}' is a macro with several or no definitions{why}")
        values, shown = set(), []
        for macro in found.value:
            value = self._macro(name, macro.body, depth)
            where = f"{os.path.basename(macro.header)}:{self.table.line_of(macro)}" if macro.header else \
                f"line {self.table.line_of(macro)}"
            if not value.known:
                return unknown(f"'{name}' is a macro with several definitions, and its #define at {where} "
                               f"('{macro.body}') is not a constant: {value.reason}")
            values |= set(value.values)
            shown.append(f"{macro.body} at {where}")
        return Value(tuple(sorted(values)), note=f"{name} is one of its #define's under #if branches "
                                                 f"({', '.join(shown)}), whichever the build compiles")

    def _macro(self, name: str, text: str, depth: int) -> Value:
        snippet = parse_file(b"int __cu2hip_value = " + text.encode() + b";\n")
        found = next((n for n in descendants(snippet.main.root) if n.type == "init_declarator"), None)
        value = found.child_by_field_name("value") if found is not None else None
        if snippet.main.root.has_error or value is None:
            return unknown(f"the macro '{name}' is not an expression")
        return HostValues(snippet, file=self).value(value, None, 0, depth + 1)

    def _local(self, name: str, function: ts.Node, before: int, depth: int) -> Value | None:
        """The value of a local or parameter of `function`, None when it declares no `name`."""
        bound = self._binding.get((function.id, name))
        if bound is not None:
            return Value((bound,))          # a loop counter's value, while its loop is followed (_loop)
        declarator = function.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        for p in (params.named_children if params is not None else ()):
            target = p.child_by_field_name("declarator")
            while target is not None and target.type not in ("identifier",):
                target = target.child_by_field_name("declarator")
            if target is not None and _text(self.parsed, target) == name:
                return unknown(f"'{name}' is a parameter of {_name_of(self.parsed, function)}: its value comes "
                               "from the caller")
        template = function.parent if function.parent is not None and \
            function.parent.type == "template_declaration" else None
        if template is not None:
            found = self._template_argument(name, template, function, depth)
            if found is not None:
                return found
        written = self._name_in(function, name)[1]
        declaration = self._visible(function, name, before)
        if declaration is None:
            return None
        if declaration.type in _COMPOUND_DECLARATORS:
            return unknown(f"'{name}' is a local {_COMPOUND_DECLARATORS[declaration.type]}: its value is not "
                           "followed")
        statement = declaration if declaration.type == "declaration" else declaration.parent
        words = _text(self.parsed, statement).split("=")[0].replace("(", " ").split()
        constant = "const" in words or "constexpr" in words
        if written and not constant:
            members = self._members(name, function, declaration, statement, before, depth) \
                if _declares_dim3(self.parsed, statement) else None
            if members is not None:
                return members if isinstance(members, Value) else _dim3_of(members)
            assigned = self._assigned(name, function, declaration, statement, before, depth, written)
            if assigned is not None:
                return assigned
        return self._initial(name, function, declaration, before, depth)

    def _initial(self, name: str, function: ts.Node, declaration: ts.Node, before: int, depth: int) -> Value:
        """The value a local's declaration gives it."""
        if declaration.type not in ("init_declarator", "function_declarator"):
            return unknown(f"'{name}' has no initializer")
        value = declaration.child_by_field_name("value" if declaration.type == "init_declarator" else "parameters")
        if value is None:
            return unknown(f"'{name}' has no initializer")
        if value.type in ("argument_list", "initializer_list", "parameter_list"):   # dim3 b(16, 16); b{16, 16}; b(T)
            args = [self.value(a, function, before, depth + 1) for a in value.named_children if a.type != "comment"]
            bad = next((v for v in args if not v.known), None)
            if bad is not None:
                return _dim3_unknown(args, bad)
            return _product(args) if args else unknown(f"'{name}' has no initializer")
        found = self.value(value, function, before, depth + 1)
        if not found.known and not found.reason.startswith(f"'{name}'"):
            return unknown(f"'{name}' depends on a value known at run time ({found.reason})", found.symbol)
        return found

    def _assigned(self, name: str, function: ts.Node, declaration: ts.Node, statement: ts.Node, before: int,
                  depth: int, written: str) -> Value | None:
        """The values a local that is written may hold at `before`: where it is not static,
        of an integer type or dim3, initialized, and every use of it in its scope is a read
        or an assignment (=) of a constant (`int threads = 256; if (n < 1000) threads = 128;`),
        each of those; where it is a `for` loop's counter that only the loop's update
        changes, and `before` is in the loop's body, the values the loop gives it (_loop).
        Else why not (its address taken, bound to a non-const reference, captured by
        reference, compound-assigned, incremented, assigned a value known at run time);
        None where no use in its scope writes it (a namesake in another scope is what
        `written` saw): its initializer is its value."""
        where = _name_of(self.parsed, function)
        refused = unknown(f"'{name}' may be written at run time in {where}: {written}")
        kind = statement.child_by_field_name("type") if statement.type == "declaration" else None
        words = _text(self.parsed, statement).split("=")[0].replace("(", " ").split() if kind is not None else []
        bare = declaration.type == "declaration"        # `int n;`, `int a, n;`: no value given
        if declaration.type != "init_declarator" and not bare or kind is None or "static" in words \
                or "extern" in words or " ".join(_text(self.parsed, kind).split()) not in _COUNTABLE \
                or (declaration.id, name) in self._assigning:
            return refused
        scope = self._scope(declaration)
        if scope is None:
            return refused
        parent = self._tree.parent(statement)
        loop = parent if parent is not None and parent.type == "for_statement" and \
            parent.child_by_field_name("initializer") == statement else None
        if bare:
            # Its value is its first write's, which must be an assignment of a constant, a
            # statement of the declaration's own block (not in a branch or a loop of it) before
            # `before`: every path from the declaration to `before` runs it. A block of a
            # switch (a case label may enter after the assignment) or a function with a goto
            # (so may a label) is refused.
            if loop is not None or parent is None or parent != scope or scope.type != "compound_statement" or \
                    self._tree.parent(scope) is not None and self._tree.parent(scope).type == "switch_statement":
                return unknown(f"'{name}' may be written at run time in {where}: it is declared with no value "
                               "where its first assignment cannot be placed on every path")
            if re.search(rb"\bgoto\b", self.parsed.cleaned[function.start_byte:function.end_byte]):
                return unknown(f"'{name}' may be written at run time in {where}: it is declared with no value in "
                               "a function with a goto, which may pass its first assignment")
        update = loop.child_by_field_name("update") if loop is not None else None
        hidden = self._macro_write(function, name)
        if hidden is not None:
            return unknown(f"'{name}' may be written at run time in {where}: {hidden}")
        values, lines, writes = [], [], 0
        pattern = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
        self._assigning.add((declaration.id, name))
        try:
            for match in pattern.finditer(self.parsed.cleaned, declaration.end_byte, scope.end_byte):
                n = self._tree.node_at(match.start(), match.end())
                if n is None or n.type != "identifier" or self._visible(function, name, n.start_byte) != declaration:
                    continue
                line = self.parsed.data.count(b"\n", 0, match.start()) + 1
                if captured_by_reference(self.parsed.data, n, self._tree.parent, function) is not None:
                    return unknown(f"'{name}' may be written at run time in {where}: it is captured by reference by "
                                   f"the lambda at line {line}")
                why = write_of(self.parsed.data, n, self._tree.parent, self.callees)
                if why is None:
                    continue
                writes += 1
                if update is not None and update.start_byte <= n.start_byte < update.end_byte:
                    continue        # the loop's own step (_loop)
                assignment = self._tree.parent(n)
                if loop is not None or assignment is None or assignment.type != "assignment_expression" or \
                        assignment.child_by_field_name("left") != n or \
                        _text(self.parsed, assignment.child_by_field_name("operator")) != "=":
                    return unknown(f"'{name}' may be written at run time in {where}: {why} at line {line}")
                right = assignment.child_by_field_name("right")
                if any(t.type == "identifier" and _text(self.parsed, t) == name for t in descendants(right)):
                    return unknown(f"'{name}' may be written at run time in {where}: it is assigned a value "
                                   f"computed from itself at line {line}")
                if bare and not values:
                    # The first write: the statement of the declaration's block that gives the
                    # value, before `before`.
                    holder = self._tree.parent(assignment)
                    if holder is None or holder.type != "expression_statement" or \
                            self._tree.parent(holder) != scope:
                        return unknown(f"'{name}' may be written at run time in {where}: it is declared with no "
                                       f"value and first assigned at line {line} in a branch, a loop or an "
                                       "expression, which not every path runs")
                    if before < holder.end_byte:
                        return unknown(f"'{name}' is declared with no value and read before its first assignment "
                                       f"(line {line})")
                value = self.value(right, function, right.start_byte, depth + 1)
                if not value.known:
                    return unknown(f"'{name}' may be written at run time in {where}: it is assigned "
                                   f"'{_text(self.parsed, right)}' at line {line}, a value known at run time "
                                   f"({value.reason})")
                values.append(value)
                lines.append(line)
            if not writes:
                return None
            if bare:        # the first assignment gives the value an initializer would
                initial, values = values[0], values[1:]
            else:
                initial = self._initial(name, function, declaration, before, depth)
            if not initial.known:
                return _plain(initial)
            if loop is not None:
                return self._loop(name, function, loop, declaration, initial, before, depth) or refused
        finally:
            self._assigning.discard((declaration.id, name))
        every = sorted({v for found in (initial, *values) for v in found.values})
        shown = ", ".join(map(str, lines))
        return _noted(tuple(every), initial, *values) if len(every) == 1 else Value(tuple(every), note="; ".join(
            [f"'{name}' is {' or '.join(map(str, every))} ({'' if bare else 'its initializer and '}its assignment"
             f"{'s' if len(lines) > 1 else ''} at line{'s' if len(lines) > 1 else ''} {shown})",
             *dict.fromkeys(v.note for v in (initial, *values) if v.note)]))

    def members(self, node: ts.Node) -> list[Value] | Value | None:
        """The values of x, y and z at `node`, an identifier naming a local dim3 of its
        function written member by member (`dim3 b; b.x = 256;`: _members), or why they
        are not known; None where `node` names no such dim3."""
        return self._members_at(node, 0) if node.type == "identifier" else None

    def _members_at(self, node: ts.Node, depth: int) -> list[Value] | Value | None:
        function = self._tree.function_of(node)
        if function is None:
            return None
        name = _text(self.parsed, node)
        if self._binding.get((function.id, name)) is not None or not self._name_in(function, name)[1]:
            return None
        declaration = self._visible(function, name, node.start_byte)
        if declaration is None or declaration.type in _COMPOUND_DECLARATORS:
            return None
        statement = declaration if declaration.type == "declaration" else declaration.parent
        if not _declares_dim3(self.parsed, statement):
            return None
        return self._members(name, function, declaration, statement, node.start_byte, depth)

    def _members(self, name: str, function: ts.Node, declaration: ts.Node, statement: ts.Node, before: int,
                 depth: int) -> list[Value] | Value | None:
        """The values of x, y and z at `before` of the local dim3 `name`, where its
        declaration's scope writes a member of it (`dim3 block; block.x = 256;`); None
        where no use writes a member (`_assigned` reads the dim3 whole). Known where the
        dim3 is declared `dim3 b;` (each member 1), `dim3 b(x, y)`, `dim3 b{x, y}` or `dim3
        b = dim3(x, y)`, not static, and every write of it in its scope is a plain
        assignment (=) of a member, of a known value not computed from the dim3 itself
        (no address taken, reference bound, capture by reference, call that may write it,
        compound assignment, `++`, whole assignment or macro that names it). Then each
        member is (_member_at) the value of its last assignment before `before` (or its
        declaration's) where that write is a statement of a block around `before` that
        every path to `before` runs after every other write of the member; else each of
        the values its declaration and its assignments give (the several-values rule)."""
        where = _name_of(self.parsed, function)
        scope = self._scope(declaration)
        if scope is None:
            return None
        writes, refused = [], None
        pattern = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
        for match in pattern.finditer(self.parsed.cleaned, declaration.end_byte, scope.end_byte):
            n = self._tree.node_at(match.start(), match.end())
            if n is None or n.type != "identifier" or self._visible(function, name, n.start_byte) != declaration:
                continue
            line = self.parsed.data.count(b"\n", 0, match.start()) + 1
            if captured_by_reference(self.parsed.data, n, self._tree.parent, function) is not None:
                refused = refused or f"it is captured by reference by the lambda at line {line}"
                continue
            why = write_of(self.parsed.data, n, self._tree.parent, self.callees)
            if why is None:
                continue
            member, assignment = self._tree.parent(n), None
            if member is not None and member.type == "field_expression" and \
                    member.child_by_field_name("argument") == n:
                operator, field = member.child_by_field_name("operator"), member.child_by_field_name("field")
                assignment = self._tree.parent(member)
                if operator is None or _text(self.parsed, operator) != "." or field is None or \
                        _text(self.parsed, field) not in ("x", "y", "z") or assignment is None or \
                        assignment.type != "assignment_expression" or \
                        assignment.child_by_field_name("left") != member or \
                        _text(self.parsed, assignment.child_by_field_name("operator")) != "=":
                    assignment = None
            if assignment is None:
                refused = refused or f"{why} at line {line}"
                continue
            writes.append(("xyz".index(_text(self.parsed, field)), assignment, line))
        if not writes:
            return None
        refusal = lambda why: unknown(f"'{name}' may be written at run time in {where}: {why}")   # noqa: E731
        if refused:
            return refusal(refused)
        kind = statement.child_by_field_name("type") if statement.type == "declaration" else None
        words = _text(self.parsed, statement).split("=")[0].replace("(", " ").split() if kind is not None else []
        if kind is None or any(w in words for w in _NOT_PLAIN):
            return refusal("it is a static, extern or const dim3, not a plain local, whose members are assigned")
        if (declaration.id, name) in self._assigning:
            return unknown(f"'{name}' is read in the assignment of a member of a dim3 that its own members' "
                           "values depend on")
        hidden = self._macro_write(function, name)
        if hidden is not None:
            return refusal(hidden)
        initial = self._declared_members(name, function, declaration, depth)
        if isinstance(initial, Value):
            return initial
        found = []
        self._assigning.add((declaration.id, name))
        try:
            for axis, assignment, line in writes:
                right = assignment.child_by_field_name("right")
                if any(t.type == "identifier" and _text(self.parsed, t) == name for t in descendants(right)):
                    return refusal(f"it is assigned a value computed from itself at line {line}")
                value = self.value(right, function, right.start_byte, depth + 1)
                if not value.known:
                    return refusal(f"it is assigned '{_text(self.parsed, right)}' at line {line}, a value known at "
                                   f"run time ({value.reason})")
                found.append((axis, assignment, line, value))
        finally:
            self._assigning.discard((declaration.id, name))
        at = self.root.descendant_for_byte_range(before, before + 1)
        return [self._member_at(name, function, statement, axis, initial[axis],
                                [w for w in found if w[0] == axis], at) for axis in range(3)]

    def _declared_members(self, name: str, function: ts.Node, declaration: ts.Node,
                          depth: int) -> list[Value] | Value:
        """x, y and z as the declaration of the dim3 `name` gives them (1 where it gives
        none), or why they are not read (an initializer other than `(x, y, z)`, `{x, y,
        z}` or `= dim3(x, y, z)`). A member of an unknown value is that unknown: it
        matters only where no assignment replaces it."""
        if declaration.type == "declaration":
            return [Value((1,))] * 3
        value = declaration.child_by_field_name("value" if declaration.type == "init_declarator" else "parameters")
        if value is not None and value.type == "call_expression" and \
                _text(self.parsed, value.child_by_field_name("function")) == "dim3":
            value = value.child_by_field_name("arguments")
        if value is None or value.type not in ("argument_list", "initializer_list", "parameter_list"):
            return unknown(f"'{name}' is a dim3 whose members are assigned, initialized other than with "
                           "(x, y, z), {x, y, z} or dim3(x, y, z)")
        parts = [a for a in value.named_children if a.type != "comment"]
        if len(parts) > 3:
            return unknown(f"'{name}' is initialized with more than three values")
        values = [self.value(a, function, a.start_byte, depth + 1) for a in parts]
        return [_plain(v) for v in values] + [Value((1,))] * (3 - len(values))

    def _member_at(self, name: str, function: ts.Node, statement: ts.Node, axis: int, initial: Value,
                   writes: list, at: ts.Node | None) -> Value:
        """The value of the member `axis` of the dim3 `name` at the node `at`: its last
        write before `at` (else its declaration `statement`) where that is a statement of
        a block around `at`, with between them no case label (a switch may enter after
        it), no lambda's body around `at`, no goto in the function, and no loop around
        `at` inside that block that writes the member (the loop's next pass reaches `at`
        without it); else each of the values of `initial` and `writes`, noted."""
        member = f"{name}.{'xyz'[axis]}"
        before = at.start_byte if at is not None else -1
        last = next((w for w in reversed(writes) if w[1].start_byte < before), None)
        anchor = statement
        if last is not None:
            anchor = self._tree.parent(last[1])
            if anchor is not None and anchor.type != "expression_statement":
                anchor = None
        block = self._tree.parent(anchor) if anchor is not None else None
        exact = at is not None and block is not None and block.type == "compound_statement" and \
            block.start_byte < before < block.end_byte and \
            not _LABEL.search(self.parsed.cleaned, anchor.end_byte, before) and \
            not re.search(rb"(?<![\w$])goto(?![\w$])", self.parsed.cleaned[function.start_byte:function.end_byte])
        node = at
        while exact and node is not None and node != block:
            if node.type == "lambda_expression" or node.type in _LOOPS and any(
                    node.start_byte <= w[1].start_byte < node.end_byte for w in writes):
                exact = False
            node = self._tree.parent(node)
        if exact and node == block:
            return last[3] if last is not None else initial
        if not initial.known:
            return unknown(f"'{member}' may keep its declaration's value, which is not known: {initial.reason}")
        every = sorted({v for found in (initial, *(w[3] for w in writes)) for v in found.values})
        if len(every) == 1:
            return _noted(tuple(every), initial, *(w[3] for w in writes))
        lines = [w[2] for w in writes]
        shown = ", ".join(map(str, lines))
        return Value(tuple(every), note="; ".join(
            [f"'{member}' is {' or '.join(map(str, every))} (its declaration and its assignment"
             f"{'s' if len(lines) > 1 else ''} at line{'s' if len(lines) > 1 else ''} {shown}, one of which a path "
             "to the launch may skip or repeat)",
             *dict.fromkeys(v.note for v in (initial, *(w[3] for w in writes)) if v.note)]))

    def _loop(self, name: str, function: ts.Node, loop: ts.Node, declaration: ts.Node, initial: Value, before: int,
              depth: int) -> Value | None:
        """The values the counter `name` of the `for` loop takes in its body, where `before`
        is: from its initial values, while its condition holds, each step its update (an
        assignment, compound assignment, `++` or `--` of it alone), the condition and the
        update constants but for it: `for (int bs = 64; bs <= 1024; bs *= 2)` gives 64, 128,
        256, 512 and 1024. An unknown with the reason where the loop is not followed (the
        condition or the step is not known, the loop runs over _MAX_STEPS steps or out of
        int's range), None where this is no such loop."""
        body, condition, update = (loop.child_by_field_name(f) for f in ("body", "condition", "update"))
        if body is None or condition is None or update is None or not body.start_byte <= before < body.end_byte:
            return None
        step = self._step(name, update)
        if step is None:
            return None
        key, taken = (function.id, name), set()
        line = self.parsed.data.count(b"\n", 0, loop.start_byte) + 1
        header = self.parsed.data[loop.start_byte:body.start_byte].decode("utf-8", "replace").strip()
        try:
            for start in initial.values:
                current, steps = start, 0
                while current not in taken or steps == 0:
                    if not 0 <= current < 2 ** 31 or steps > _MAX_STEPS:
                        return unknown(f"'{name}' is the counter of the loop at line {line}, which runs over "
                                       f"{_MAX_STEPS} steps or leaves int's range")
                    self._binding[key] = current
                    holds = self.value(condition, function, condition.start_byte, depth + 1)
                    if not holds.known or len(holds.values) != 1:
                        return unknown(f"'{name}' is the counter of the loop at line {line}, whose condition is not "
                                       f"known: {holds.reason or 'it has several values'}")
                    if not holds.values[0]:
                        break
                    taken.add(current)
                    op, right = step
                    change = self.value(right, function, right.start_byte, depth + 1) if right is not None else \
                        Value((1,))
                    following = _combine(op, Value((current,)), change) if op != "=" else change
                    if not following.known or len(following.values) != 1:
                        return unknown(f"'{name}' is the counter of the loop at line {line}, whose step is not "
                                       f"known: {following.reason or 'it has several values'}")
                    current, steps = following.values[0], steps + 1
        finally:
            self._binding.pop(key, None)
        if not taken:
            return unknown(f"'{name}' is the counter of the loop at line {line}, whose body never runs")
        every = sorted(taken)
        shown = ", ".join(map(str, every)) if len(every) <= 6 else \
            f"{', '.join(map(str, every[:3]))}, ..., {every[-1]}"
        return Value(tuple(every), note=f"'{name}' is {shown} in the loop '{header}' at line {line}")

    def _step(self, name: str, update: ts.Node) -> tuple[str, ts.Node | None] | None:
        """(operator, operand) of a loop's update that writes `name` alone: `= e`, `op= e`,
        `++`/`--` (operand None); None for any other update."""
        if update.type == "update_expression":
            argument, operator = update.child_by_field_name("argument"), update.child_by_field_name("operator")
            if argument is not None and argument.type == "identifier" and _text(self.parsed, argument) == name \
                    and operator is not None:
                return ("+" if _text(self.parsed, operator) == "++" else "-"), None
            return None
        if update.type != "assignment_expression":
            return None
        left, right = update.child_by_field_name("left"), update.child_by_field_name("right")
        operator = _text(self.parsed, update.child_by_field_name("operator"))
        if left is None or left.type != "identifier" or _text(self.parsed, left) != name or right is None:
            return None
        if operator == "=":
            return "=", right
        return (operator[:-1], right) if operator[:-1] in _OPS else None

    def initializer(self, node: ts.Node) -> ts.Node | None:
        """What the local `node` (an identifier) names was initialized with, when it is
        declared in the enclosing function before `node` and that function never writes
        it: the expression, or the argument list of `dim3 g(x, y)` / `dim3 g{x, y}`; else None."""
        function = self._tree.function_of(node)
        if function is None or node.type != "identifier":
            return None
        written = self._name_in(function, _text(self.parsed, node))[1]
        declaration = self._visible(function, _text(self.parsed, node), node.start_byte)
        if declaration is None or written:
            return None
        if declaration.type == "function_declarator":       # dim3 b(T): a variable
            return declaration.child_by_field_name("parameters")
        return declaration.child_by_field_name("value") if declaration.type == "init_declarator" else None

    def _visible(self, function: ts.Node, name: str, at: int) -> ts.Node | None:
        """The declaration of the local `name` of `function` that byte `at` sees: the last
        one before it whose scope (its block, or the `for`, `if`, `while` or `switch` whose
        header holds it) still holds `at`; a local of a block that has ended is not the
        name there. Each declaration links to the last one before it whose scope holds it
        (a stack over the declarations, once per name), so a lookup follows the enclosing
        scopes only, not every closed block before it."""
        key = (function.id, name)
        held = self._scopes.get(key)
        if held is None:
            declarations = self._name_in(function, name)[0]
            starts, ends, up, open_ = [], [], [], []
            for i, d in enumerate(declarations):
                node = self._scope(d)
                end = node.end_byte if node is not None else -1
                while open_ and ends[open_[-1]] <= d.start_byte:
                    open_.pop()
                starts.append(d.start_byte)
                ends.append(end)
                up.append(open_[-1] if open_ else -1)
                open_.append(i)
            held = self._scopes[key] = (declarations, starts, ends, up)
        declarations, starts, ends, up = held
        i = bisect.bisect_left(starts, at) - 1
        while i >= 0 and ends[i] <= at:
            i = up[i]
        return declarations[i] if i >= 0 else None

    def _scope(self, declaration: ts.Node) -> ts.Node | None:
        """What a declaration of a function's body is local to (its block, or the `for`,
        `if`, `while` or `switch` whose header holds it)."""
        node = self._tree.parent(declaration)
        while node is not None and node.type not in _SCOPES:
            node = self._tree.parent(node)
        return node

    def written(self, name: str, at: ts.Node) -> bool:
        """Whether the function around `at` may write `name` anywhere (translator.ir.writes)."""
        return self.write_of(name, at) is not None

    def write_of(self, name: str, at: ts.Node) -> str | None:
        """Why the function around `at` may write `name` (the first such use), or None."""
        function = self._tree.function_of(at)
        return self._name_in(function, name)[1] if function is not None else None

    @property
    def callees(self) -> Callees:
        """The file's functions and function-like macros (what a call does to its arguments)."""
        if self._callees is None:
            self.macros    # noqa: B018 (collects the macro bodies)
            self._callees = Callees(self.parsed.data, self.root, macro_bodies=self._macro_bodies)
        return self._callees

    def _name_in(self, function: ts.Node, name: str) -> tuple[list[ts.Node], str | None]:
        """The declarations of `name` in the function's body (init_declarator, declaration
        (translator.ir.host_values.declaration_of: any declarator of `int a, b;`), the
        pointer, array or reference declarator of `float *a, *b;`, `int v[4];`, `int& r = n;`
        or, for `dim3 b(T);`, function_declarator nodes, in order) and the first use that
        may write it (translator.ir.writes: its reason and line), None when every use reads
        it: its tokens found by a regex over the body's bytes, each confirmed on the tree
        (as the IR finds things)."""
        key = (function.id, name)
        found = self._locals.get(key)
        if found is None:
            body = function.child_by_field_name("body")
            declarations, write = [], None
            if body is not None:
                pattern = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
                for match in pattern.finditer(self.parsed.cleaned, body.start_byte, body.end_byte):
                    n = self._tree.node_at(match.start(), match.end())
                    if n is None or n.type != "identifier":
                        continue
                    parent = self._tree.parent(n)
                    declared = declaration_of(n, self._tree.parent)
                    if declared is not None:
                        declarations.append(declared)
                    elif parent is not None and object_declaration(self.parsed.data, parent, n):
                        declarations.append(parent)
                    elif write is None:
                        why = write_of(self.parsed.data, n, self._tree.parent, self.callees)
                        if why is not None:
                            line = self.parsed.data.count(b"\n", 0, match.start()) + 1
                            write = f"{why} at line {line}"
            if write is None and body is not None:
                write = self._macro_write(function, name)
            found = self._locals[key] = (declarations, write)
        return found

    def _macro_write(self, function: ts.Node, name: str) -> str | None:
        """Why a macro the function uses may write its local `name` where no token of the
        function's text names it: a definition of the macro names it, its macros expanded,
        and may assign (`#define WIDEN threads = 1024` ... `WIDEN;`), with its line."""
        if self._writing is None:       # each macro that may assign, with the names its definitions hold
            self._writing = []
            for macro, found in self.table.every.items():
                names: set[str] = set()
                for definition in found:
                    body = self.table.expand(definition.body)
                    text = body.value if isinstance(body, Known) else definition.body
                    if body_may_write(text):
                        names.update(macro_tokens(text), macro_tokens(definition.body))
                if names:
                    self._writing.append((macro, names))
        writers = self._writers.get(name)
        if writers is None:
            writers = self._writers[name] = [macro for macro, names in self._writing if name in names]
        body = function.child_by_field_name("body")
        if not writers or body is None:
            return None
        pattern = re.compile(rb"(?<![\w$])(?:" + b"|".join(re.escape(w.encode()) for w in writers) + rb")(?![\w$])")
        for match in pattern.finditer(self.parsed.cleaned, body.start_byte, body.end_byte):
            n = self._tree.node_at(match.start(), match.end())
            if n is not None and n.child_count == 0:
                line = self.parsed.data.count(b"\n", 0, match.start()) + 1
                return f"the macro {match.group().decode()} names '{name}' and may write it at line {line}"
        return None

    def _template_argument(self, name: str, template: ts.Node, function: ts.Node, depth: int) -> Value | None:
        """The values the template parameter `name` of the function template `function`
        takes over every instantiation the file holds (translator.ir.host_values
        `instantiations`), None when it is no parameter of it."""
        params = template_parameters(self.parsed, template)
        names = [p[0] for p in params]
        if name not in names:
            return None
        position = names.index(name)
        callee = _name_of(self.parsed, function)
        across = self._across(callee)
        if across is not None:
            # A template of a header, or of a file another includes: the arguments every
            # file of the project that sees it gives (translator.universe.template_index).
            given = across if isinstance(across, str) else across[position] if position < len(across) \
                else "its parameters are not the index's"
            if isinstance(given, str) or given is None:
                why = given if given is not None else "it is a type parameter"
                return unknown(f"'{name}' is a template parameter of {callee}, whose instantiations are not all "
                               f"known: {why}")
            return Value(tuple(given))
        found = self.instantiations(function)
        if isinstance(found, str):
            return unknown(f"'{name}' is a template parameter of {callee}, whose instantiations are not all known: "
                           f"{found}")
        values = set()
        for given, at in found:
            argument = given[position]
            if argument is None or isinstance(argument, str):     # (a str: a type deduced)
                return unknown(self._not_given(name, callee, at))
            v = self.value(argument, self._tree.function_of(at), at.start_byte, depth + 1)
            if not v.known:
                return unknown(f"'{name}', a template argument of {callee}, is not known at a call: {v.reason}")
            values |= set(v.values)
        return Value(tuple(sorted(values)))

    def type_arguments(self, name: str, span: tuple[int, int]) -> tuple[str, ...] | str | None:
        """The types (as written, white space folded) the type template parameter `name` of
        the function template around the expression at `span` is given by every
        instantiation the file holds, a type parameter of a calling template followed to its
        own calls; the reason when they are not all known; None when `name` is no type
        parameter of that function."""
        node = self._tree.node_at(*span)
        return self._type_arguments(name, node, 0) if node is not None else None

    def _type_arguments(self, name: str, at: ts.Node, depth: int) -> tuple[str, ...] | str | None:
        function = self._tree.function_of(at)
        template = function.parent if function is not None and function.parent is not None and \
            function.parent.type == "template_declaration" else None
        if template is None or depth > _MAX_DEPTH:
            return None if template is None else "too deep"
        params = template_parameters(self.parsed, template)
        position = next((i for i, p in enumerate(params) if p[0] == name), None)
        if position is None or not params[position][1]:
            return None
        callee = _name_of(self.parsed, function)
        found = self.instantiations(function)
        if isinstance(found, str):
            return f"'{name}' is a template parameter of {callee}, whose instantiations are not all known: {found}"
        out: list[str] = []
        for given, call in found:
            argument = given[position]
            if argument is None:
                return self._not_given(name, callee, call)
            written = argument if isinstance(argument, str) else " ".join(_text(self.parsed, argument).split())
            outer = self._type_arguments(written, call, depth + 1)
            if isinstance(outer, str):
                return outer
            out += [t for t in (outer if outer is not None else (written,)) if t not in out]
        return tuple(out)

    def _deduced(self, parameters: ts.Node, at: ts.Node) -> dict[str, str]:
        """The type names the call at `at` deduces for the template's type parameters from
        its arguments (translator.ir.elementwise.pointer_deduction: a `T *` parameter's)."""
        from translator.ir.elementwise import pointer_deduction
        call = self._tree.parent(at)
        while call is not None and call.type in ("template_function", "qualified_identifier"):
            call = self._tree.parent(call)
        arguments = call.child_by_field_name("arguments") if call is not None and call.type == "call_expression" \
            else None
        if arguments is None:
            return {}
        params = [_text(self.parsed, p) for p in parameters.named_children if p.type != "comment"]
        args = [(_text(self.parsed, a), a.start_byte) for a in arguments.named_children if a.type != "comment"]
        return pointer_deduction(self.parsed, params, args)

    def _not_given(self, name: str, callee: str, at: ts.Node) -> str:
        line = self.parsed.data.count(b"\n", 0, at.start_byte) + 1
        return f"'{name}' is a template parameter of {callee}, whose instantiations are not all known: the call of " \
               f"{callee} at line {line} does not write it (its arguments deduce it, or it has no default)"

    def cross_file(self) -> bool:
        """Whether the file is a header, or a file another includes: its function
        templates' instantiations are its includers' too."""
        path = self.headers.path if self.headers is not None else self.path
        return bool(path) and (os.path.splitext(path)[1].lower() in HEADER_SUFFIXES or
                               self.headers is not None and os.path.realpath(path) in self.headers.headers)

    def _across(self, callee: str) -> tuple | None:
        """The template index's entry of this file's function template `callee` (each
        parameter's values or why they are unknown), where the file is a header or another
        includes it and the run gathered its includers' calls; else None."""
        if not self.templates or not self.cross_file():
            return None
        path = self.headers.path if self.headers is not None else self.path
        return self.templates.get((path, callee))

    def instantiations(self, function: ts.Node) -> list[tuple[list, ts.Node]] | str:
        """Every instantiation of the function template `function` that the file holds:
        for each call `f<...>(...)` (plain, qualified, or with no argument list) and each
        explicit instantiation `template void f<...>(...);`, the argument node of each
        template parameter (a default where the call gives none and the function's
        parameters cannot deduce it; a type parameter's deduced type name, as text, where a
        `T *` parameter's argument gives it: `_deduced`; None otherwise) and the node it is written
        at. The reason they are not all known instead: the function is in a header, or in
        a file another includes (their includers may call it with other arguments: the
        template index, `_across`, gives a value parameter's values there), or its name is
        used another way (its address taken, a member call, a macro's body)."""
        found = self._instantiated.get(function.id)
        if found is None:
            found = self._instantiated[function.id] = self._instantiations(function)
        return found

    def _instantiations(self, function: ts.Node) -> list[tuple[list, ts.Node]] | str:
        callee = _name_of(self.parsed, function)
        path = self.headers.path if self.headers is not None else self.path
        if path and os.path.splitext(path)[1].lower() in HEADER_SUFFIXES:
            return f"{callee} is defined in a header ({os.path.basename(path)}), which files cu2hip does not " \
                   "see may include and call it with other arguments"
        if path and self.headers is not None and os.path.realpath(path) in self.headers.headers:
            return f"{callee} is defined in {os.path.basename(path)}, which another file includes: its calls " \
                   "there may give other arguments"
        params = template_parameters(self.parsed, function.parent)
        declarator = function.child_by_field_name("declarator")
        parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
        deducible = set(re.findall(r"[A-Za-z_]\w*", _text(self.parsed, parameters))) if parameters is not None else set()
        found = self.calls(callee, params, [p[2] for p in params], deducible, function,
                           lambda at: self._deduced(parameters, at))
        return found or f"this file never calls {callee}"

    def calls(self, callee: str, params: list, defaults: list, deducible: set[str], function: ts.Node | None,
              deduce=None) -> list[tuple[list, object]] | str:
        """The instantiations this file makes of the function template `callee` (its
        template parameters `params`: (name, is a type, default); `defaults`: each one's
        default, a node of this file or whatever the caller gives, or None; `deducible`: the
        names its function parameters' text holds), as `instantiations` says; `function`:
        its definition where it is in this file (None: another file's template, which this
        one includes); `deduce(at)`: the type names a call at `at` deduces (None: a
        deducible type parameter is left None); empty when it calls it nowhere. The reason
        they are not all known instead:
        a macro names it, or its name is used another way."""
        short = callee.rsplit("::", 1)[-1]
        word = re.compile(rb"(?<![\w$])" + re.escape(short.encode()) + rb"(?![\w$])")
        for macro_name, definitions in self.table.every.items():
            if any(word.search(m.body.encode()) for m in definitions):
                return f"the macro {macro_name} names {short}: what its uses instantiate is not read"
        if any(not name for name, _, _ in params):
            return f"{callee} has a parameter pack or a template template parameter"
        defaults = list(defaults)
        out = []
        for match in word.finditer(self.parsed.cleaned):
            node = self._tree.node_at(match.start(), match.end())
            if node is None or node.type in _NOT_CODE:
                continue
            line = self.parsed.data.count(b"\n", 0, match.start()) + 1
            parent = self._tree.parent(node)
            up = self._tree.parent(parent) if parent is not None else None
            if node.type == "identifier" and parent is not None and parent.type == "function_declarator":
                holder = self._tree.parent(parent)
                if parent.child_by_field_name("declarator") == node and holder is not None and (
                        holder == function or holder.type == "declaration" and holder.parent is not None
                        and holder.parent.type == "template_declaration"):
                    for i, p in enumerate(template_parameters(self.parsed, holder.parent)
                                          if holder != function else ()):
                        if i < len(defaults) and defaults[i] is None:
                            defaults[i] = p[2]      # a default written on a forward declaration
                    continue            # the definition, or a forward declaration of it
            if node.type == "identifier" and parent is not None and parent.type == "template_function" \
                    and parent.child_by_field_name("name") == node:
                site = up
                if site is not None and site.type == "qualified_identifier":
                    site = self._tree.parent(site)
                written = parent.child_by_field_name("arguments")
                given = [a for a in written.named_children if a.type != "comment"] if written is not None else []
                instantiated = site is not None and (
                    site.type == "call_expression" or site.type == "function_declarator"
                    and site.parent is not None and site.parent.type == "template_instantiation")
                if instantiated and len(given) <= len(params):
                    out.append((given, parent))
                    continue
            elif node.type == "identifier" and parent is not None and parent.type == "call_expression" \
                    and parent.child_by_field_name("function") == node:
                out.append(([], node))
                continue
            return f"{short} is named at line {line} other than in a call or explicit instantiation cu2hip reads " \
                   f"('{' '.join(_text(self.parsed, up or parent or node).split())[:60]}'): an instantiation " \
                   "there is not seen"
        complete = []
        for given, at in out:
            arguments = list(given) + [None] * (len(params) - len(given))
            found = None
            for i, (name, is_type, _) in enumerate(params):
                if arguments[i] is not None:
                    continue
                if name not in deducible:
                    arguments[i] = defaults[i]
                elif is_type and deduce is not None:    # deduced from a `T *` parameter's argument, or None: not known
                    found = deduce(at) if found is None else found
                    arguments[i] = found.get(name)
            complete.append((arguments, at))
        return complete


def function_templates(parsed: ParsedFile) -> list[ts.Node]:
    """The function templates a file defines at namespace scope (not a class's member
    templates), in order: each `template <...>` declaration's function definition."""
    out, stack = [], list(reversed(parsed.main.root.named_children))
    while stack:
        node = stack.pop()
        if node.type in ("namespace_definition", "declaration_list", "linkage_specification") or \
                node.type.startswith("preproc_"):
            stack.extend(reversed(node.named_children))
        elif node.type == "template_declaration":
            out += [c for c in node.named_children if c.type == "function_definition"]
    return out


def value_templates(parsed: ParsedFile) -> list[tuple[ts.Node, str, list]]:
    """(definition, name, template parameters) of each function template the file defines
    at namespace scope with a non-type parameter (`function_templates`)."""
    found = _VALUE_TEMPLATES.get(id(parsed))
    if found is not None and found[0] is parsed:
        return found[1]
    out = []
    for function in function_templates(parsed):
        params = template_parameters(parsed, function.parent)
        if not all(is_type for _, is_type, _ in params):
            out.append((function, _name_of(parsed, function), params))
    if len(_VALUE_TEMPLATES) > 256:
        _VALUE_TEMPLATES.clear()
    _VALUE_TEMPLATES[id(parsed)] = (parsed, out)    # (the parse held: its id stays its own)
    return out


_VALUE_TEMPLATES: dict[int, tuple[ParsedFile, list]] = {}     # value_templates of a header's parse


def template_uses(values: HostValues, display: str, templates: list[tuple[str, HostValues]]) -> list:
    """What the file (`values`: its evaluator; `display`: its path) gives the function
    templates of `templates` ((display, evaluator) of each file it includes, itself where
    it is a header or included) with a non-type parameter: [defining file, template,
    instantiations or why they are not known], where an instantiation is one fact per
    template parameter: ["v", [values]] known, ["r", reason] unknown, ["t"] a type
    (not read), or ["p", file, template, position]: exactly the parameter at `position`
    of the function template around the call, one of a header's or included file's, whose
    values the project's files give it (translator.universe.template_index follows it)."""
    out = []
    macro_words = words_of(b" ".join(m.body.encode() for definitions in values.table.every.values()
                                     for m in definitions))
    for home, defining in templates:
        for function, callee, params in value_templates(defining.parsed):
            short = callee.rsplit("::", 1)[-1].encode()
            if defining is not values and short not in values.parsed.words \
                    and short not in macro_words:
                out.append([home, callee, []])      # named nowhere in the file, nor by a macro it reads
                continue
            declarator = function.child_by_field_name("declarator")
            parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
            deducible = set(re.findall(r"[A-Za-z_]\w*", _text(defining.parsed, parameters))) \
                if parameters is not None else set()
            # The definition's defaults, each read where it is written.
            defaults = [defining.value(d, None, d.start_byte) if d is not None else None for _, _, d in params]
            found = values.calls(callee, params, defaults, deducible, function if defining is values else None)
            if isinstance(found, str):
                out.append([home, callee, found])
                continue
            out.append([home, callee, [[_argument_fact(values, display, callee, params, i, a, at)
                                        for i, a in enumerate(given)] for given, at in found]])
    return out


def _argument_fact(values: HostValues, display: str, callee: str, params: list, position: int, argument,
                   at: ts.Node) -> list:
    """The fact (template_uses) of one template argument of a call at `at`."""
    name, is_type, _ = params[position]
    if is_type:
        return ["t"]
    if argument is None:
        line = values.parsed.data.count(b"\n", 0, at.start_byte) + 1
        return ["r", f"the call of {callee} at line {line} does not write '{name}' (its arguments deduce it, "
                     "or it has no default)"]
    if isinstance(argument, Value):         # the definition's default
        return ["v", list(argument.values)] if argument.known else ["r", f"its default: {argument.reason}"]
    function = values.function_of(at)
    written = _text(values.parsed, argument).strip()
    if _IDENTIFIER.fullmatch(written) and function is not None and function.parent is not None \
            and function.parent.type == "template_declaration" and values.cross_file():
        # (`f<N>`: tree-sitter reads a bare name there as a type)
        outer = template_parameters(values.parsed, function.parent)
        for i, (p, p_type, _) in enumerate(outer):
            if p == written and not p_type:
                return ["p", display, _name_of(values.parsed, function), i]
    v = values.value(argument, function, at.start_byte)
    return ["v", list(v.values)] if v.known else ["r", v.reason]


def template_parameters(parsed: ParsedFile, template: ts.Node) -> list[tuple[str, bool, ts.Node | None]]:
    """(name, whether it is a type parameter, its default or None) of each parameter of a
    template declaration; a pack or template template parameter is named "" (nothing is
    known of what it is given)."""
    params = template.child_by_field_name("parameters")
    out = []
    for p in (params.named_children if params is not None else ()):
        kind = p.type
        if kind in ("type_parameter_declaration", "optional_type_parameter_declaration"):
            name = p.child_by_field_name("name") or next((c for c in p.named_children if c.type == "type_identifier"),
                                                         None)
            out.append((_text(parsed, name) if name is not None else "", True, p.child_by_field_name("default_type")))
        elif kind in ("parameter_declaration", "optional_parameter_declaration"):
            d = p.child_by_field_name("declarator")
            out.append((_text(parsed, d) if d is not None and d.type == "identifier" else "", False,
                        p.child_by_field_name("default_value")))
        elif kind != "comment":
            out.append(("", False, None))
    return out


# Nodes a name's match can fall in that are no use of it.
_NOT_CODE = frozenset({"comment", "string_literal", "raw_string_literal", "char_literal", "system_lib_string",
                       "string_content", "escape_sequence"})

# The types of a local whose constant assignments give its values (_assigned): integers
# and dim3, whose values the evaluator computes as written.
_COUNTABLE = frozenset({"int", "unsigned", "unsigned int", "signed", "signed int", "long", "unsigned long", "long long",
                        "unsigned long long", "size_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "dim3"})
_MAX_STEPS = 4096
# A dim3 written member by member (_members): the words that make its declaration not a
# plain local's, the loops that may repeat a write, and the labels a switch may enter at.
_NOT_PLAIN = frozenset({"static", "extern", "thread_local", "const", "constexpr", "volatile"})
_LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})
_LABEL = re.compile(rb"(?<![\w$])(?:case|default)(?![\w$])")

# What a declaration in a function's body is local to.
_SCOPES = frozenset({"compound_statement", "for_statement", "for_range_loop", "if_statement", "while_statement",
                     "switch_statement", "catch_clause", "lambda_expression", "function_definition"})


def _declares_dim3(parsed, statement: ts.Node | None) -> bool:
    """Whether a declaration statement is of the type dim3 (`dim3 b;`, `static dim3 b(4);`)."""
    kind = statement.child_by_field_name("type") if statement is not None and statement.type == "declaration" \
        else None
    return kind is not None and _text(parsed, kind) == "dim3"


def _name_of(parsed, function: ts.Node) -> str:
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("identifier", "qualified_identifier", "field_identifier"):
        declarator = declarator.child_by_field_name("declarator")
    return _text(parsed, declarator) if declarator is not None else "the function"


def _literal(text: str) -> Value:
    match = _INT.match(text.strip())
    if not match:
        return unknown(f"'{text}' is not an integer")
    digits = match.group(1).replace("'", "")
    if digits.lower().startswith("0x"):
        return Value((int(digits, 16),))
    if digits.lower().startswith("0b"):
        return Value((int(digits[2:], 2),))
    return Value((int(digits, 8) if len(digits) > 1 and digits.startswith("0") else int(digits),))


def _dim3_unknown(values: list[Value], bad: Value) -> Value:
    """dim3 of an unknown component: still exactly an overridable macro when it is the
    one unknown and the others are 1 (`dim3(TPB)`, `dim3(TPB, 1, 1)`)."""
    others = [v for v in values if v is not bad]
    if bad.symbol and all(v.values == (1,) for v in others):
        return bad
    return _plain(bad)


def _dim3_of(members: list[Value]) -> Value:
    """The number of threads of a dim3 of these members: their product, or the first
    unknown one."""
    return next((v for v in members if not v.known), None) or _product(members)


def _product(values: list[Value]) -> Value:
    out = {1}
    for v in values:
        out = {a * b for a in out for b in v.values}
    return _noted(tuple(sorted(out)), *values)


_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
        "/": lambda a, b: int(a / b) if b else None, "%": lambda a, b: a - int(a / b) * b if b else None,
        "<<": lambda a, b: a << b if 0 <= b < 64 else None, ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
        "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
        "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b),
        ">=": lambda a, b: int(a >= b), "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
        "&&": lambda a, b: int(bool(a and b)), "||": lambda a, b: int(bool(a or b))}
_UNARY = {"-": lambda a: -a, "+": lambda a: a, "~": lambda a: ~a, "!": lambda a: int(not a)}


def _combine(op: str, left: Value, right: Value | None) -> Value:
    if not left.known:
        return _plain(left)
    if right is None:
        if op not in _UNARY:
            return unknown(f"the operator {op}")
        return _noted(tuple(sorted({_UNARY[op](a) for a in left.values})), left)
    if not right.known:
        return _plain(right)
    if op not in _OPS:
        return unknown(f"the operator {op}")
    out = {_OPS[op](a, b) for a in left.values for b in right.values}
    if None in out:
        return unknown("a division by zero")
    return _noted(tuple(sorted(out)), left, right)


@dataclass(frozen=True)
class LaunchFact:
    """What one place of a file says about a kernel's block sizes: a launch with its
    sizes, or why its size is unknown (a launch whose block is read at run time, a launch
    in a macro, the kernel's name used as a value: passed to cudaLaunchKernel, stored)."""
    kernel: str
    offset: int                  # where, in the file
    values: tuple[int, ...]      # empty when unknown
    reason: str = ""             # why unknown; when known, Value.note (how its several values were found) or ""
    symbol: str = ""             # the overridable macro the block is exactly (Value.symbol)


def launch_facts(parsed: ParsedFile, module, kernels: frozenset[str] = frozenset(),
                 evaluator: HostValues | None = None) -> list[LaunchFact]:
    """Every launch of the file with its block sizes, and every other use of a kernel
    defined or launched here, or named in `kernels` (the tree's), which hides launches no
    one can count (not a local or parameter of the same name: translator.ir.scopes).
    `evaluator`: the file's, when it has local headers."""
    evaluator = evaluator or HostValues(parsed)
    out, spans = [], []
    for site in module.launches:
        name = site.kernel.rsplit("::", 1)[-1]
        spans.append(site.kernel_expr.span)
        if site.in_macro:
            out.append(LaunchFact(name, site.span[0], (), "it is launched in a macro's body"))
            continue
        value = evaluator.block_size(site)
        out.append(LaunchFact(name, site.span[0], value.values, value.reason or value.note, value.symbol))
    names = {k.name for k in module.kernels} | {f.kernel for f in out} | set(kernels)
    wanted = {n.encode() for n in names}
    pattern = parsed.word_pattern(wanted)
    if pattern is None:
        return out
    declared = {k.name_span for k in module.kernels}
    spans.sort()
    starts = [lo for lo, _ in spans]
    tree = ancestry(parsed.main)
    scopes = Scopes(parsed.data, tree.parent)
    for match in pattern.finditer(parsed.cleaned):
        if match.group() not in wanted:
            continue        # the pattern of many names matches every identifier
        k = bisect.bisect_right(starts, match.start()) - 1
        if k >= 0 and match.end() <= spans[k][1] or (match.start(), match.end()) in declared:
            continue        # a launch's kernel, or a kernel's own name
        node = tree.node_at(match.start(), match.end())
        if node is None or node.type != "identifier":
            continue
        if scopes.local(node):
            continue        # a local or parameter of the kernel's name: not the kernel
        name = match.group().decode()
        parent = tree.parent(node)
        if parent is not None and parent.type == "template_function" and parent.parent is not None \
                and parent.parent.type == "qualified_identifier":
            continue
        launched = _launch_call(evaluator, tree, node)
        if launched is not None:
            out.append(LaunchFact(name, match.start(), launched.values, launched.reason or launched.note,
                                  launched.symbol))
            continue
        out.append(LaunchFact(name, match.start(), (), f"{name} is used as a value here (passed to a call or "
                                                       "stored): the launches through it cannot be counted"))
    return sorted(out, key=lambda f: f.offset)


# Calls that launch the kernel given as their first argument, and where their block is.
LAUNCH_CALLS = {"hipLaunchKernelGGL": 2, "cudaLaunchKernel": 2, "hipLaunchKernel": 2,
                "cudaLaunchCooperativeKernel": 2, "hipLaunchCooperativeKernel": 2}
_WRAPPERS = frozenset({"cast_expression", "parenthesized_expression", "pointer_expression"})


def _launch_call(evaluator: HostValues, tree, node: ts.Node) -> Value | None:
    """The block size of the launch call whose kernel argument `node` is
    (`hipLaunchKernelGGL(k, grid, block, ...)`, `cudaLaunchKernel((void*)k, grid, block,
    ...)`, through casts, `&` and `HIP_KERNEL_NAME()`), or None when it is no such call."""
    child, parent = node, tree.parent(node)
    while parent is not None and (parent.type in _WRAPPERS or parent.type == "template_function" or (
            parent.type == "argument_list" and _callee(evaluator, tree.parent(parent)) == "HIP_KERNEL_NAME")):
        if parent.type == "argument_list":
            parent = tree.parent(parent)          # HIP_KERNEL_NAME(k<T>)
        child, parent = parent, tree.parent(parent)
    if parent is None or parent.type != "argument_list":
        return None
    call = tree.parent(parent)
    at = LAUNCH_CALLS.get(_callee(evaluator, call))
    args = [a for a in parent.named_children if a.type != "comment"]
    if at is None or not args or args[0] != child or len(args) <= at:
        return None
    block = args[at]
    return evaluator.value(block, tree.function_of(block), block.start_byte)


def _callee(evaluator: HostValues, call: ts.Node | None) -> str:
    if call is None or call.type != "call_expression":
        return ""
    function = call.child_by_field_name("function")
    return _text(evaluator.parsed, function) if function is not None else ""


_BY_HEADER: list = [None, {}]      # the last launch index, and its entries by defining file


def _by_header(index) -> dict:
    """The launch index's facts by their kernel's defining file, in the index's order: grouped
    once per index (each file's KernelLaunches went over the whole project's index: a
    tree of N files cost N times its launches)."""
    if index is None:
        return {}
    held = _BY_HEADER[0]
    if held is not index:
        if held != index:       # (an equal index, unpickled in a worker: the groups stand)
            groups: dict[str, list] = {}
            for _, header, listed in index:
                groups.setdefault(header, []).extend(listed)
            _BY_HEADER[1] = groups
        _BY_HEADER[0] = index
    return _BY_HEADER[1]


class KernelLaunches:
    """Where each kernel of a file is launched, and with which block sizes: for a kernel
    that other files can launch (of a header, or declared by another translation unit),
    the launches across the project (`index`: per kernel and defining file, each launch's
    kernel, "path:line:col", sizes, reason and overridable macro; gathered by the command,
    translator.universe);
    else the file's own."""

    def __init__(self, parsed: ParsedFile, module, source, index=None, values: HostValues | None = None):
        self.parsed, self.module, self.source = parsed, module, source
        self.index = index
        self.values = values
        self._local: dict[str, list[tuple[str, tuple[int, ...], str]]] | None = None
        self._tree: dict[str, list[tuple[str, tuple[int, ...], str]]] = {}
        self._symbols: dict[str, list[str]] = {}        # kernel -> each launch's Value.symbol

    def of(self, kernel: str) -> list[tuple[str, tuple[int, ...], str]]:
        """(where, sizes, reason) of each launch or other use of `kernel`."""
        if self._local is None:
            self._local = {}
            local_symbols: dict[str, list[str]] = {}
            # The index was gathered from the inputs: this file's own launches in it are
            # the input's, which an earlier round may have moved. They are read from the
            # round's text instead (the other files' stay the index's).
            own = self.source.path + ":"
            for name, where, values, reason, symbol in _by_header(self.index).get(self.source.path, ()):
                self._tree.setdefault(name, [])
                if not (where.startswith(own) and _POSITION.fullmatch(where, len(own))):
                    self._tree[name].append((where, tuple(values), reason))
                    self._symbols.setdefault(name, []).append(symbol)
            for fact in launch_facts(self.parsed, self.module, evaluator=self.values):
                line, col = self.source.position(fact.offset)
                self._local.setdefault(fact.kernel, []).append((f"{self.source.path}:{line}:{col}", fact.values,
                                                                fact.reason))
                local_symbols.setdefault(fact.kernel, []).append(fact.symbol)
            for name, found in self._local.items():
                if name in self._tree:
                    self._tree[name] += found
                    self._symbols.setdefault(name, []).extend(local_symbols[name])
            for name, symbols in local_symbols.items():
                self._symbols.setdefault(name, symbols)
        return self._tree[kernel] if kernel in self._tree else self._local.get(kernel, [])

    def symbol(self, kernel: str) -> str:
        """The overridable macro every launch of `kernel` is exactly (`k<<<g, TPB>>>` with
        `#ifndef TPB` around its `#define`), or "" when they are not all that one name."""
        found = self.of(kernel)
        symbols = set(self._symbols.get(kernel, ()))
        return symbols.pop() if found and len(symbols) == 1 and "" not in symbols else ""

    def across_files(self, kernel: str) -> bool:
        """Whether the kernel's launches are the project's (the index's), not the file's own."""
        self.of(kernel)
        return kernel in self._tree


# The declarators of a local that is no integer the evaluator follows, and what it is then.
_COMPOUND_DECLARATORS = {"pointer_declarator": "pointer", "array_declarator": "array",
                         "reference_declarator": "reference"}


def declaration_of(name: ts.Node, parent) -> ts.Node | None:
    """What declares the identifier `name` when it is a declared name (else None): its
    init_declarator (`int n = 1`), its declaration where it is a bare declarator of one
    (`int n;`, any of `int a, b, n;`: each declarator is a `declarator` field of the
    declaration), or, through `*`, `[...]` and `&`, the outermost pointer, array or reference
    declarator (`float *a, *b;`, `int v[4];`, `int& r = n;`). `parent(node)`: its parent."""
    node, up = name, parent(name)
    while up is not None and up.type in _COMPOUND_DECLARATORS and (
            up.child_by_field_name("declarator") == node or up.type == "reference_declarator"):   # (no field there)
        node, up = up, parent(up)
    if up is None:
        return None
    if up.type == "init_declarator" and up.child_by_field_name("declarator") == node or \
            up.type == "declaration" and any(d == node for d in up.children_by_field_name("declarator")):
        return up if node == name else node
    return None


def object_declaration(data: bytes, declarator: ts.Node, name: ts.Node) -> bool:
    """Whether `declarator` (the parent of `name`), in a function's body, is the most
    vexing parse of an object: `dim3 b(T);`, `const dim3 b(T, U);`, `dim3 b(X*Y);`,
    `dim3 b(v[0], v[1]);`: a function declarator of the type dim3 (a local function
    declaration of that type is not written) whose "parameters" are each an expression
    tree-sitter reads as an unnamed or pointer parameter (`argument_parameter`)."""
    if declarator.type != "function_declarator" or declarator.child_by_field_name("declarator") != name:
        return False
    statement = declarator.parent
    if statement is None or statement.type != "declaration" or statement.parent is None \
            or statement.parent.type not in ("compound_statement", "for_statement", "if_statement"):
        return False
    kind = statement.child_by_field_name("type")
    if kind is None or data[kind.start_byte:kind.end_byte] not in (b"dim3", b"uint3"):
        return False
    params = declarator.child_by_field_name("parameters")
    parts = [p for p in params.named_children if p.type != "comment"] if params is not None else []
    return bool(parts) and all(argument_parameter(p) for p in parts)


def argument_parameter(p: ts.Node) -> bool:
    """Whether the parameter declaration `p` may be an argument that tree-sitter took for a
    parameter: a bare name (`T`), a product of names (`X*Y`, a parameter `X *Y`), or a
    subscript (`v[0]`, an array parameter `v [0]`) — a type name and nothing else (no
    qualifier, no second specifier)."""
    kind = p.child_by_field_name("type")
    if p.type != "parameter_declaration" or kind is None or kind.type != "type_identifier" \
            or len([c for c in p.named_children if c.type != "comment"]) > 2:
        return False
    inner = p.child_by_field_name("declarator")
    if inner is None:
        return True
    parts = [c for c in inner.named_children if c.type != "comment"]
    if inner.type == "pointer_declarator":
        return len(parts) == 1 and parts[0].type == "identifier"
    if inner.type == "abstract_array_declarator":
        return len(parts) == 1 and parts[0].type in ("number_literal", "identifier")
    return False
