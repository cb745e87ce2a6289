"""The type of an expression, where the file's declarations say it (else unknown).

A `Type` is a base type's name, spelled as C++ normalises it (`unsigned long`,
`long long`, `half2`, `S`), and how many pointer or array levels are above it. The type
of a name comes from the declaration in scope before its use: a local of an enclosing
block or `for`, a parameter of the enclosing function or lambda, a field of the class
whose member function it is in, or a declaration of the file's namespace scope. Typedefs
and `using` aliases of the file are followed. From names, `expression_type` derives the
type of subscripts (the element type), members (`s.f`, `p->f`: a field of a struct the
file defines), dereferences, casts, literals (by suffix and value), `sizeof`, unary
operators (the promoted operand), binary arithmetic (C++'s usual arithmetic conversions
on LP64, where `long` and `long long` are both 64-bit), shifts, conditionals and
assignments.

Unknown (None) wherever a fact is missing: a name the file does not declare, a template
parameter's type, `auto` or `decltype`, a call, a macro, a declaration after the use,
a shadowing the walk cannot see through (a name declared in a macro), a tree deeper
than the walk goes. Consumers refuse on None.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

import tree_sitter as ts

_DEPTH = 400            # ancestors a lookup walks up before it gives up (unknown)


@dataclass(frozen=True)
class Type:
    base: str           # "unsigned long", "half2", "S"
    levels: int = 0     # pointer or array levels above the base

    @property
    def integer(self) -> "Integer | None":
        return INTEGERS.get(self.base) if self.levels == 0 else None


@dataclass(frozen=True)
class Integer:
    spelling: str       # the canonical spelling: "unsigned long long"
    rank: int           # C++'s conversion rank: bool 0, char 1, short 2, int 3, long 4, long long 5
    signed: bool
    bits: int


def _integers() -> dict[str, Integer]:
    table: dict[str, Integer] = {}

    def add(spelling: str, rank: int, signed: bool, bits: int, *aliases: str) -> None:
        for name in (spelling, *aliases):
            table[name] = Integer(spelling, rank, signed, bits)
    add("bool", 0, False, 1)
    add("char", 1, True, 8, "signed char", "int8_t", "std::int8_t")
    add("unsigned char", 1, False, 8, "uint8_t", "std::uint8_t")
    add("short", 2, True, 16, "short int", "signed short", "signed short int", "int16_t", "std::int16_t")
    add("unsigned short", 2, False, 16, "unsigned short int", "uint16_t", "std::uint16_t")
    add("int", 3, True, 32, "signed", "signed int", "int32_t", "std::int32_t")
    add("unsigned int", 3, False, 32, "unsigned", "uint32_t", "std::uint32_t")
    # LP64 (Linux, the device compilers): int64_t, ptrdiff_t and friends are `long`.
    add("long", 4, True, 64, "long int", "signed long", "signed long int", "int64_t", "std::int64_t",
        "ptrdiff_t", "std::ptrdiff_t", "intptr_t", "std::intptr_t", "ssize_t")
    add("unsigned long", 4, False, 64, "unsigned long int", "uint64_t", "std::uint64_t", "size_t", "std::size_t",
        "uintptr_t", "std::uintptr_t")
    add("long long", 5, True, 64, "long long int", "signed long long", "signed long long int")
    add("unsigned long long", 5, False, 64, "unsigned long long int")
    return table


INTEGERS = _integers()
# Types of the language and of CUDA's and HIP's headers a file names without defining.
_LANGUAGE_TYPES = frozenset({"float", "double", "long double", "void", "__half", "half", "__half2", "half2",
                             "nv_bfloat16", "__nv_bfloat16", "nv_bfloat162", "__nv_bfloat162", "__hip_bfloat16",
                             "__hip_bfloat162", "dim3"})
_VECTOR = re.compile(r"(?:u?(?:char|short|int|long|longlong)|float|double)[1-4]\Z")
INT = Type("int")
_QUALIFIERS = re.compile(r"\b(?:const|volatile|__restrict__|__restrict|restrict|struct|class|union|typename)\b")


def normal(text: str) -> str:
    """A type's text without qualifiers or extra spaces (`const unsigned  long` -> `unsigned long`)."""
    text = _QUALIFIERS.sub(" ", text)
    text = re.sub(r"\s*::\s*", "::", text)
    return " ".join(text.split())


def promoted(t: Type) -> Type:
    """The integral promotion: types of a rank below int become int."""
    i = t.integer
    return INT if i is not None and i.rank < 3 else t


def common(a: Type, b: Type) -> Type | None:
    """The usual arithmetic conversions of two integer types (LP64), else None."""
    a, b = promoted(a), promoted(b)
    x, y = a.integer, b.integer
    if x is None or y is None:
        return None
    if x.spelling == y.spelling:
        return Type(x.spelling)
    if x.signed == y.signed:
        return Type((x if x.rank > y.rank else y).spelling)
    unsigned, signed = (x, y) if not x.signed else (y, x)
    if unsigned.rank >= signed.rank:
        return Type(unsigned.spelling)
    if signed.bits > unsigned.bits:
        return Type(signed.spelling)
    return Type("unsigned " + signed.spelling)


_LITERAL = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)([uUlL]*)\Z")


def literal_type(text: str) -> Type | None:
    """The type of an integer literal: by its suffix, and for a value too large for int,
    the first of C++'s candidate types that holds it."""
    match = _LITERAL.match(text)
    if match is None:
        return Type("double") if re.fullmatch(r"[0-9.]+(?:[eE][+-]?[0-9]+)?", text) else \
            Type("float") if re.fullmatch(r"[0-9.]+(?:[eE][+-]?[0-9]+)?[fF]", text) else None
    digits, suffix = match.group(1).replace("'", ""), match.group(2).lower()
    value = int(digits, 0) if not (len(digits) > 1 and digits[0] == "0" and digits[1].isdigit()) else int(digits, 8)
    unsigned, longs = "u" in suffix, suffix.count("l")
    decimal = not digits.startswith(("0x", "0X", "0b", "0B")) and not (len(digits) > 1 and digits[0] == "0")
    candidates = [("int", 31), ("unsigned int", 32), ("long", 63), ("unsigned long", 64),
                  ("long long", 63), ("unsigned long long", 64)]
    rank = {0: 3, 1: 4, 2: 5}[min(longs, 2)]
    for name, bits in candidates:
        i = INTEGERS[name]
        if i.rank < rank or (unsigned and i.signed) or (decimal and not unsigned and not i.signed):
            continue
        if value < (1 << bits):
            return Type(name)
    return None


class Types:
    """Expression types of one parse (a fragment of the file)."""

    def __init__(self, fragment, data: bytes):
        self.fragment = fragment        # translator.frontend.Fragment
        self.root = fragment.root
        self.data = data
        self._aliases: dict[str, str] | None = None
        self._structs: dict[str, dict[str, Type]] | None = None
        self._blocks: dict[tuple, dict[str, list[tuple[int, Type | None]]]] = {}

    def text(self, node: ts.Node) -> str:
        return self.fragment.text(self.data, node)

    # ------------------------------------------------------------------ the file's types

    def resolve(self, base: str) -> str:
        """A base type through the file's typedefs and aliases (a few levels)."""
        aliases = self.aliases()
        for _ in range(8):
            if base not in aliases:
                break
            base = aliases[base]
        return INTEGERS[base].spelling if base in INTEGERS else base

    def aliases(self) -> dict[str, str]:
        """The typedefs and `using` aliases of the file that name a type without
        declarator (`typedef unsigned long u64;`), each defined once; a name defined
        twice differently is left out."""
        if self._aliases is None:
            found: dict[str, set[str]] = {}
            for node in _walk(self.root):
                if node.type == "type_definition":
                    kind = node.child_by_field_name("type")
                    for d in node.children_by_field_name("declarator"):
                        if kind is not None and d.type == "type_identifier":
                            found.setdefault(self.text(d), set()).add(normal(self.text(kind)))
                elif node.type == "alias_declaration":
                    name, kind = node.child_by_field_name("name"), node.child_by_field_name("type")
                    if name is not None and kind is not None and not any(c.type == "abstract_pointer_declarator"
                                                                         for c in kind.named_children):
                        found.setdefault(self.text(name), set()).add(normal(self.text(kind)))
            self._aliases = {k: next(iter(v)) for k, v in found.items() if len(v) == 1 and k not in v}
        return self._aliases

    def structs(self) -> dict[str, dict[str, Type]]:
        """The fields of each struct, class or union the file defines once, by name."""
        if self._structs is None:
            seen: dict[str, list[dict[str, Type]]] = {}
            for node in _walk(self.root):
                if node.type not in ("struct_specifier", "class_specifier", "union_specifier"):
                    continue
                name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
                if name is None or body is None:
                    continue
                fields: dict[str, Type] = {}
                for f in body.named_children:
                    if f.type != "field_declaration":
                        continue
                    kind = f.child_by_field_name("type")
                    for d in f.children_by_field_name("declarator"):
                        named = self._declared(kind, d)
                        if named is not None:
                            fields[named[0]] = named[1]
                seen.setdefault(self.text(name), []).append(fields)
            self._structs = {k: v[0] for k, v in seen.items() if len(v) == 1}
        return self._structs

    def _declared(self, kind: ts.Node | None, declarator: ts.Node | None) -> tuple[str, Type | None] | None:
        """(name, type) of one declarator of a declaration whose type specifier is `kind`;
        the type is None where it is not a plain one (auto, a function declarator...)."""
        if kind is None or declarator is None:
            return None
        levels = 0
        node: ts.Node | None = declarator
        while node is not None and node.type not in ("identifier", "field_identifier"):
            if node.type in ("pointer_declarator", "array_declarator"):
                levels += 1
            elif node.type == "function_declarator":
                levels = -1000          # a function: no value type
            inner = node.child_by_field_name("declarator")
            if inner is None and node.type in ("reference_declarator", "parenthesized_declarator", "init_declarator"):
                inner = next((c for c in node.named_children if c.type != "comment"), None)
            node = inner
        if node is None:
            return None
        base = normal(self.text(kind))
        if levels < 0 or base in ("auto", "") or base.startswith("decltype"):
            return self.text(node), None
        return self.text(node), Type(self.resolve(base), levels)

    def named(self, t: Type) -> bool:
        """Is the base type one the file or the language defines (not a template
        parameter or a type of another file, which may be anything)?"""
        return t.base in INTEGERS or t.base in _LANGUAGE_TYPES or bool(_VECTOR.match(t.base)) \
            or t.base in self.structs()

    # ------------------------------------------------------------------ names in scope

    def name_type(self, name: ts.Node) -> Type | None:
        """The type of the variable an identifier names, from the declaration in scope."""
        word = self.text(name)
        child, node, depth = name, name.parent, 0
        while node is not None and depth < _DEPTH:
            found = self._scope_declares(node, child, word, name.start_byte)
            if found is not _NOTHING:
                return found
            child, node, depth = node, node.parent, depth + 1
        return None

    def _scope_declares(self, scope: ts.Node, child: ts.Node, word: str, at: int):
        """What `scope` declares under `word` before byte `at` (a Type, or None for a name
        it declares with an unknown type); _NOTHING when it declares no such name."""
        kinds = scope.type
        candidates: list[ts.Node] = []
        if kinds == "for_range_loop":
            named = self._declared(scope.child_by_field_name("type"), scope.child_by_field_name("declarator"))
            if named is not None and named[0] == word and child != scope.child_by_field_name("right"):
                return named[1]
            return _NOTHING
        if kinds in _BLOCKS:
            entries = self._block_names(scope).get(word)
            if not entries:
                return _NOTHING
            if kinds == "field_declaration_list":
                return entries[-1][1]
            # The last declaration before the use (in source order: found by bisection, not
            # by a scan of every declaration of the name, which a file-scope name declared
            # in each of N headers concatenated made N * N).
            k = bisect.bisect_left(entries, at, key=lambda e: e[0])
            return entries[k - 1][1] if k else _NOTHING
        if kinds in ("for_statement", "if_statement", "while_statement", "switch_statement",
                       "condition_clause"):
            candidates = [c for c in scope.named_children if c.start_byte < at and c != child]
        elif kinds in ("function_definition", "lambda_expression"):
            declarator = scope.child_by_field_name("declarator")
            while declarator is not None and declarator.type != "function_declarator" \
                    and declarator.type != "abstract_function_declarator":
                declarator = declarator.child_by_field_name("declarator")
            params = declarator.child_by_field_name("parameters") if declarator is not None else None
            candidates = list(params.named_children) if params is not None else []
        elif kinds == "template_declaration":
            params = scope.child_by_field_name("parameters")
            for p in params.named_children if params is not None else ():
                if word in self.text(p).replace("...", " ").split():
                    return None         # a template parameter: no known type
            return _NOTHING
        found = _NOTHING
        for c in candidates:
            result = self._declaration_of(c, word)
            if result is not _NOTHING:
                found = result          # the last declaration before the use wins
        if found is _NOTHING and kinds == "field_declaration_list":
            return _NOTHING
        return found

    def _block_names(self, scope: ts.Node) -> dict[str, list[tuple[int, Type | None]]]:
        """The names a block's declarations introduce, each with where and its type (once
        per block: a block of thousands of statements is read once, not per use)."""
        key = (scope.type, scope.start_byte, scope.end_byte)
        held = self._blocks.get(key)
        if held is None:
            held = {}
            for c in scope.named_children:
                if c.type in ("declaration", "field_declaration"):
                    kind = c.child_by_field_name("type")
                    for d in c.children_by_field_name("declarator"):
                        named = self._declared(kind, d)
                        if named is not None:
                            held.setdefault(named[0], []).append((c.start_byte, named[1]))
            self._blocks[key] = held
        return held

    def _declaration_of(self, node: ts.Node, word: str):
        if node.type in ("declaration", "field_declaration", "parameter_declaration",
                         "optional_parameter_declaration"):
            kind = node.child_by_field_name("type")
            for d in node.children_by_field_name("declarator"):
                named = self._declared(kind, d)
                if named is not None and named[0] == word:
                    return named[1]
            return _NOTHING
        if node.type in ("condition_clause",):
            for c in node.named_children:
                r = self._declaration_of(c, word)
                if r is not _NOTHING:
                    return r
        return _NOTHING

    # ------------------------------------------------------------------ expressions

    def expression_type(self, node: ts.Node | None, depth: int = 0) -> Type | None:
        """The type of an expression, or None where the file does not say it."""
        if node is None or depth > 64:
            return None
        kind = node.type
        if kind == "identifier":
            return self.name_type(node)
        if kind == "number_literal":
            return literal_type(self.text(node).strip())
        if kind == "char_literal":
            return Type("char")
        if kind in ("true", "false"):
            return Type("bool")
        if kind == "parenthesized_expression":
            inner = [c for c in node.named_children if c.type != "comment"]
            return self.expression_type(inner[0], depth + 1) if len(inner) == 1 else None
        if kind == "cast_expression":
            return self._descriptor(node.child_by_field_name("type"))
        if kind == "call_expression":
            function = node.child_by_field_name("function")
            if function is not None and function.type == "template_function":
                name = function.child_by_field_name("name")
                args = function.child_by_field_name("arguments")
                if name is not None and self.text(name) in ("static_cast", "reinterpret_cast", "const_cast") \
                        and args is not None and len(args.named_children) == 1:
                    return self._descriptor(args.named_children[0])
            return None
        if kind == "sizeof_expression":
            return Type("unsigned long")
        if kind == "subscript_expression":
            base = self.expression_type(node.child_by_field_name("argument"), depth + 1)
            return Type(base.base, base.levels - 1) if base is not None and base.levels > 0 else None
        if kind == "pointer_expression":
            operand = self.expression_type(node.child_by_field_name("argument"), depth + 1)
            operator = node.child_by_field_name("operator")
            if operand is None or operator is None:
                return None
            if self.text(operator) == "*":
                return Type(operand.base, operand.levels - 1) if operand.levels > 0 else None
            return Type(operand.base, operand.levels + 1)
        if kind == "field_expression":
            return self._field(node, depth)
        if kind == "unary_expression":
            operator = node.child_by_field_name("operator")
            operand = self.expression_type(node.child_by_field_name("argument"), depth + 1)
            if operator is not None and self.text(operator) == "!":
                return Type("bool")
            return promoted(operand) if operand is not None and operand.integer is not None else None
        if kind == "update_expression":
            return self.expression_type(node.child_by_field_name("argument"), depth + 1)
        if kind == "assignment_expression":
            return self.expression_type(node.child_by_field_name("left"), depth + 1)
        if kind == "conditional_expression":
            a = self.expression_type(node.child_by_field_name("consequence"), depth + 1)
            b = self.expression_type(node.child_by_field_name("alternative"), depth + 1)
            return common(a, b) if a is not None and b is not None else None
        if kind == "binary_expression":
            operator = node.child_by_field_name("operator")
            op = self.text(operator) if operator is not None else ""
            if op in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
                return Type("bool")
            a = self.expression_type(node.child_by_field_name("left"), depth + 1)
            if op in ("<<", ">>"):
                return promoted(a) if a is not None and a.integer is not None else None
            b = self.expression_type(node.child_by_field_name("right"), depth + 1)
            return common(a, b) if a is not None and b is not None else None
        return None

    def _descriptor(self, descriptor: ts.Node | None) -> Type | None:
        if descriptor is None or descriptor.type != "type_descriptor":
            return None
        kind = descriptor.child_by_field_name("type")
        if kind is None:
            return None
        levels = 0
        declarator = descriptor.child_by_field_name("declarator")
        while declarator is not None:
            if declarator.type in ("abstract_pointer_declarator", "abstract_array_declarator"):
                levels += 1
            elif declarator.type != "abstract_reference_declarator":
                return None
            declarator = declarator.child_by_field_name("declarator") or \
                next((c for c in declarator.named_children if c.type.startswith("abstract_")), None)
        base = normal(self.text(kind))
        return None if base in ("auto", "") else Type(self.resolve(base), levels)

    def _field(self, node: ts.Node, depth: int) -> Type | None:
        argument = self.expression_type(node.child_by_field_name("argument"), depth + 1)
        operator = node.child_by_field_name("operator")
        field = node.child_by_field_name("field")
        if argument is None or operator is None or field is None:
            return None
        arrow = self.text(operator) == "->"
        if argument.levels != (1 if arrow else 0):
            return None
        fields = self.structs().get(argument.base)
        return fields.get(self.text(field)) if fields is not None else None


_NOTHING = object()
_BLOCKS = frozenset({"compound_statement", "translation_unit", "declaration_list", "field_declaration_list"})


def _walk(root: ts.Node):
    """Every node of the tree, in document order, without recursion."""
    cursor = root.walk()
    while True:
        yield cursor.node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return
