"""Where a ballot or `__activemask()` goes in a function: the data-flow the warp-size pass
reads before it widens a 32-bit mask to 64 bits.

HIP's ballots and `__activemask()` have a bit per lane of the 64-lane wavefront; code
written for CUDA keeps them in an `unsigned` and computes with them: counts (`__popc`,
`__ffs`), lane bits (`m & ((1 << lane) - 1)`, `m &= m - 1`), tests and comparisons,
copies into other locals, masks of `*_sync` calls. follow() starts at a mask-valued
expression (a variable's uses, or a ballot call) and follows every value computed from
it through the function's locals, to a fixed point:

- counts: `__popc`/`__ffs` of a mask value, to become `__popcll`/`__ffsll`;
- variables: the locals that hold a mask value (or lane bits combined with one), with
  the declaration type to make `unsigned long long` where it is 32-bit;
- literals: the `1` of `1 << lane` (and `1u`) combined with a mask value, to become `1ull`
  (`1 << 40` is undefined in 32 bits);
- calls: a mask value passed to a device function of the file whose parameter there is
  32-bit (`__device__ int leader(unsigned m)`): followed into it by translator.ir.warp,
  which widens the parameter with the caller's locals where every call of it passes a
  mask and the function uses it only as one, and makes the call an escape otherwise;
- escapes: where a mask value leaves what can be followed, with why and the exact fix:
  stored to memory or a member, passed to a function that is not a count or a `*_sync`
  mask, returned from a function of a 32-bit type, cast to 32 bits, combined or compared
  with a literal of 32 lanes (`m == 0xffffffff`, `m & 0xffff`) or a 32-bit parameter.

A mask value stays 64-bit through `&`, `|`, `^`, `~`, shifts of it, `+`/`-` of a
constant, the branches of `?:` and copies into locals of 64-bit or 32-bit type (the
latter widened); it stops, as a number or a truth value, at a count, a test (`if (m)`,
`!m`, `m && ...`, `m == 0`) and a comparison with another mask value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter as ts

from translator.ir.model import Span

_COUNTS = {"__popc": "__popcll", "__ffs": "__ffsll"}
_WIDE_COUNTS = frozenset({"__popcll", "__ffsll"})
_WIDE_TYPES = frozenset({"unsignedlonglong", "unsignedlonglongint", "longlong", "longlongint", "uint64_t",
                         "int64_t", "unsignedlong", "unsignedlongint", "size_t", "auto", "uintptr_t"})
_NARROW = frozenset({"unsigned", "unsignedint", "uint32_t", "int", "int32_t", "uint", "signed", "signedint"})
_ONE = re.compile(r"1[uU]?\Z")


def _type_key(text: str) -> str:
    return re.sub(r"\s+|\bconst\b|\bvolatile\b|\bconstexpr\b", "", text)


def wide_type(text: str) -> bool:
    return _type_key(text) in _WIDE_TYPES


@dataclass(frozen=True)
class Escape:
    span: Span
    text: str           # the expression where the mask leaves
    why: str            # "is stored to memory", "is passed to 'f'" ...
    fix: str            # what to write


@dataclass(frozen=True)
class MaskFlow:
    variables: tuple[tuple[str, Span | None, str], ...]   # (name, its type's span, the type) of each mask local
    counts: tuple[tuple[Span, str], ...]                   # a `__popc`/`__ffs` name and its 64-bit name
    literals: tuple[tuple[Span, str], ...]                 # a `1` shifted by a lane, and `1ull`
    escapes: tuple[Escape, ...]
    kinds: frozenset[str] = field(default_factory=frozenset)   # "mask", "count", "test", "bits", "copy", "call"
    # (helper, argument position, the call's span): passed to a device function of the file
    # whose parameter there is 32-bit: widened with it where every call passes a mask
    # (translator.ir.warp resolves them; an unresolved one becomes an escape)
    calls: tuple[tuple[str, int, Span], ...] = ()

    def widened(self) -> tuple[tuple[str, Span], ...]:
        """The locals declared 32-bit, to be declared `unsigned long long`."""
        return tuple((name, span) for name, span, typ in self.variables
                     if span is not None and _type_key(typ) in _NARROW)


class _Flow:
    def __init__(self, walk, masked: frozenset[str], parameter: str | None = None):
        self.w = walk
        self.masked = masked
        self.parameter = parameter      # the 32-bit parameter the flow starts at, widened with it
        self.calls: dict[tuple[str, int, Span], None] = {}
        self.vars: dict[str, tuple[Span | None, str]] = {}
        self.queue: list[str] = []
        self.counts: dict[Span, str] = {}
        self.literals: dict[Span, str] = {}
        self.escapes: list[Escape] = []
        self.kinds: set[str] = set()
        self.seen: set[int] = set()
        self.declarations: dict[str, list[tuple[ts.Node, ts.Node]]] = {}
        for n, up in walk.nodes:
            if n.type == "init_declarator" and up is not None and up.type == "declaration":
                target = n.child_by_field_name("declarator")
                if target is not None and target.type == "identifier":
                    self.declarations.setdefault(walk.text(target), []).append((n, up))
            elif n.type == "declaration" and up is not None:
                for d in n.children_by_field_name("declarator"):
                    if d.type == "identifier":      # `unsigned m;` assigned later
                        self.declarations.setdefault(walk.text(d), []).append((d, n))

    # -- helpers -------------------------------------------------------------------------

    def text(self, node: ts.Node) -> str:
        return self.w.text(node)

    def up(self, node: ts.Node) -> tuple[ts.Node, ts.Node | None]:
        """The node, widened over parentheses, and its parent."""
        up = self.w.parent.get(node.id)
        while up is not None and up.type == "parenthesized_expression":
            node, up = up, self.w.parent.get(up.id)
        return node, up

    def escape(self, node: ts.Node, why: str, fix: str) -> None:
        span = self.w.span(node)
        if all(e.span != span or e.why != why for e in self.escapes):
            self.escapes.append(Escape(span, self.text(node), why, fix))

    def function_type(self) -> str:
        node = self.w.function.node(self.w.parsed)
        typ = node.child_by_field_name("type") if node is not None else None
        return self.text(typ) if typ is not None else ""

    # -- the walk ------------------------------------------------------------------------

    def join(self, name: str, at: ts.Node) -> None:
        """`name` holds a mask value: follow its uses; a 32-bit local is widened."""
        if name in self.vars:
            return
        if name in self.w.params:
            typ = self.w.param_types.get(name, "")
            if name == self.parameter and _type_key(typ) in _NARROW and name in self.w.param_type_spans:
                self.vars[name] = (self.w.param_type_spans[name], typ)
                self.queue.append(name)
                return
            if not wide_type(typ):
                self.escape(at, f"meets the 32-bit parameter '{name}' ({typ or 'a pointer'})",
                            f"declare '{name}' unsigned long long")
                return
            self.vars[name] = (None, typ)
            self.queue.append(name)
            return
        found = self.declarations.get(name, [])
        if len(found) != 1:
            self.escape(at, f"reaches '{name}', declared {'twice' if found else 'outside the function'}",
                        f"keep the mask in a local of its own declared unsigned long long")
            return
        declarator, declaration = found[0]
        typ = declaration.child_by_field_name("type")
        type_text = self.text(typ) if typ is not None else ""
        if len(declaration.children_by_field_name("declarator")) != 1:
            self.escape(at, f"reaches '{name}', declared with other variables in '{self.text(declaration)}'",
                        f"declare '{name}' alone, as unsigned long long")
            return
        key = _type_key(type_text)
        if key not in _NARROW and key not in _WIDE_TYPES:
            self.escape(at, f"reaches '{name}' of type '{type_text}'", f"declare '{name}' unsigned long long")
            return
        self.vars[name] = (self.w.span(typ), type_text)
        self.queue.append(name)
        value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
        if value is not None:
            self.operand(value)

    def run(self) -> None:
        while self.queue:
            name = self.queue.pop(0)
            for n, up in self.w.nodes:
                if n.type != "identifier" or self.text(n) != name or up is None or n.id in self.seen:
                    continue
                if up.type == "init_declarator" and up.child_by_field_name("declarator") == n:
                    continue
                if up.type in ("declaration", "parameter_declaration"):
                    continue
                if up.type == "call_expression" and up.child_by_field_name("function") == n:
                    continue
                self.seen.add(n.id)
                self.value(n)

    def value(self, node: ts.Node) -> None:
        """`node` is a mask value: what its context makes of it."""
        node, up = self.up(node)
        if up is None:
            return
        t = up.type
        if t == "argument_list":
            call = self.w.parent.get(up.id)
            function = call.child_by_field_name("function") if call is not None else None
            name = self.text(function) if function is not None else ""
            args = [a for a in up.named_children if a.type != "comment"]
            if name in _COUNTS and len(args) == 1:
                self.counts[self.w.span(function)] = _COUNTS[name]
                self.kinds.add("count")
            elif name in _WIDE_COUNTS:
                self.kinds.add("count")
            elif name in self.masked and args and args[0] == node:
                self.kinds.add("mask")
            elif name in getattr(self.w, "helpers", {}) and args.index(node) < self.w.helpers[name] and \
                    function.type == "identifier":
                self.calls[(name, args.index(node), self.w.span(call))] = None
                self.kinds.add("call")
            elif name in getattr(self.w, "function_macros", ()):
                self.escape(node, f"is passed to the macro '{name}', whose body does more with it than count it "
                            "with __popc/__ffs", f"expand '{name}' at this use and compute on unsigned long long there")
            else:
                self.escape(node, f"is passed to '{name or self.text(call)}'",
                            f"make that parameter of '{name}' unsigned long long" if name else
                            "pass a value of unsigned long long")
        elif t == "condition_clause":
            self.kinds.add("test")
        elif t == "unary_expression":
            op = self.text(up.child_by_field_name("operator"))
            if op == "!":
                self.kinds.add("test")
            elif op == "~":
                self.kinds.add("bits")
                self.value(up)
            else:
                self.escape(up, f"is negated ('{self.text(up)}')", "compute on unsigned long long")
        elif t == "binary_expression":
            self.binary(node, up)
        elif t == "init_declarator" and up.child_by_field_name("value") == node:
            self.kinds.add("copy")
            self.join(self.text(up.child_by_field_name("declarator")), node)
        elif t == "assignment_expression":
            left, right = up.child_by_field_name("left"), up.child_by_field_name("right")
            op = self.text(up.child_by_field_name("operator"))
            if left == node:
                if op in ("=", "&=", "|=", "^="):
                    self.operand(right)
                elif op in ("<<=", ">>=", "+=", "-=") and self.w.constant(right) is not None:
                    pass
                else:
                    self.escape(up, f"is updated with '{self.text(up)}'", "compute on unsigned long long")
            elif right == node and left is not None and left.type == "identifier" and op in ("=", "&=", "|=", "^="):
                self.kinds.add("copy")
                self.join(self.text(left), node)
            else:
                where = self.text(left) if left is not None else "?"
                array = left.child_by_field_name("argument") if left is not None else None
                if left is not None and left.type == "subscript_expression" and array is not None:
                    fix = f"make the elements of '{self.text(array)}' unsigned long long"
                elif left is not None and left.type == "field_expression":
                    fix = f"declare the member '{self.text(left.child_by_field_name('field'))}' unsigned long long"
                else:
                    fix = f"make '{where}' unsigned long long"
                self.escape(up, "is stored to memory", fix)
        elif t == "conditional_expression":
            if up.child_by_field_name("condition") == node:
                self.kinds.add("test")
            else:
                other = up.child_by_field_name("alternative") if up.child_by_field_name("consequence") == node \
                    else up.child_by_field_name("consequence")
                if other is not None:
                    self.operand(other)
                self.value(up)
        elif t == "return_statement":
            typ = self.function_type()
            if not wide_type(typ):
                name = self.w.function.name
                self.escape(up, f"is returned as '{typ}' by '{name}'", f"declare '{name}' to return unsigned long long")
        elif t == "cast_expression":
            typ = self.text(up.child_by_field_name("type"))
            if wide_type(typ):
                self.value(up)
            elif _type_key(typ) == "bool":
                self.kinds.add("test")
            else:
                self.escape(up, f"is cast to '{typ}'", "cast to unsigned long long, or not at all")
        elif t == "expression_statement":
            pass
        else:
            self.escape(node, f"is used in '{self.text(up)}'", "compute on unsigned long long")

    def binary(self, node: ts.Node, up: ts.Node) -> None:
        op = self.text(up.child_by_field_name("operator"))
        left, right = up.child_by_field_name("left"), up.child_by_field_name("right")
        other = right if left == node else left
        if op in ("&&", "||"):
            self.kinds.add("test")
        elif op in ("&", "|", "^"):
            self.kinds.add("bits")
            self.operand(other)
            self.value(up)
        elif op in ("<<", ">>"):
            if left == node:
                self.kinds.add("bits")
                self.value(up)
            else:
                self.escape(up, f"is a shift count in '{self.text(up)}'", "shift by a lane number, not a mask")
        elif op in ("+", "-"):
            if self.w.constant(other) is None:
                self.operand(other)
            self.kinds.add("bits")
            self.value(up)
        elif op in ("==", "!=", "<", ">", "<=", ">="):
            value = self.w.constant(other)
            if value == 0:
                self.kinds.add("test")
            elif value is not None:
                self.escape(up, f"is compared with '{self.text(other)}', lanes of a 32-lane warp",
                            "compare with a 64-bit mask of the lanes meant (__activemask() for the lanes that "
                            "arrive, ~0ull for a full wavefront)")
            else:
                self.kinds.add("test")
                self.operand(other)
        else:
            self.escape(up, f"is used in '{self.text(up)}'", "compute on unsigned long long")

    def operand(self, node: ts.Node) -> None:
        """`node` is combined with a mask value: it must be 64-bit too."""
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        t = node.type
        if t == "number_literal":
            if self.w.constant(node) != 0:
                self.escape(node, f"is combined with '{self.text(node)}', lanes of a 32-lane warp",
                            "write the lanes as a 64-bit mask (a ull literal of the wavefront's lanes)")
        elif t == "identifier":
            name = self.text(node)
            if self.w.constant(node) == 0:
                return
            if name in self.vars:
                return
            self.join(name, node)
        elif t == "call_expression":
            function = node.child_by_field_name("function")
            name = self.text(function) if function is not None else ""
            if not name.startswith(("__ballot", "__activemask")):
                self.escape(node, f"is combined with the result of '{name}'", f"make '{name}' return unsigned long long")
        elif t == "binary_expression":
            op = self.text(node.child_by_field_name("operator"))
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if op == "<<":
                one = left
                while one.type == "parenthesized_expression" and one.named_child_count == 1:
                    one = one.named_children[0]
                if one.type == "number_literal" and _ONE.match(self.text(one)):
                    self.literals[self.w.span(one)] = "1ull"
                elif not (one.type == "number_literal" and self.w.constant(one) == 1):
                    self.operand(left)
            elif op in ("&", "|", "^"):
                self.operand(left)
                self.operand(right)
            elif op in ("+", "-"):
                if self.w.constant(right) is None:
                    self.operand(right)
                if self.w.constant(left) is None:
                    self.operand(left)
            elif op == ">>":
                self.operand(left)
            else:
                self.escape(node, f"is combined with '{self.text(node)}'", "compute on unsigned long long")
        elif t == "unary_expression" and self.text(node.child_by_field_name("operator")) == "~":
            self.operand(node.child_by_field_name("argument"))
        elif t == "cast_expression" and wide_type(self.text(node.child_by_field_name("type"))):
            pass
        else:
            self.escape(node, f"is combined with '{self.text(node)}'", "compute on unsigned long long")

    def result(self) -> MaskFlow:
        return MaskFlow(tuple((name, span, typ) for name, (span, typ) in self.vars.items()),
                        tuple(sorted(self.counts.items())), tuple(sorted(self.literals.items())),
                        tuple(self.escapes), frozenset(self.kinds), tuple(self.calls))


def follow(walk, masked: frozenset[str], name: str | None = None, node: ts.Node | None = None,
           parameter: bool = False) -> MaskFlow:
    """The flow of the mask that the local (or parameter) `name` holds, or of the mask
    value `node` (a ballot call), through the function that `walk` (translator.ir.warp's
    walk of one function) reads. `masked`: the builtins whose first argument is a mask.
    `parameter`: `name` is a 32-bit parameter that callers pass masks in, widened with its flow."""
    flow = _Flow(walk, masked, name if parameter else None)
    if name is not None:
        flow.join(name, node if node is not None else walk.nodes[0][0])
    elif node is not None:
        flow.value(node)
    flow.run()
    return flow.result()
