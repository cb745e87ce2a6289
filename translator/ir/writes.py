"""Write accounting: whether a use of a host variable may change it, and how.

A local's value is known only when every write to it is accounted for. A use of the
name `x` (or of a member of it, `b.x`, or an element, `a[0]`) may write it when it is:

* the left side of an assignment or a compound assignment (`x = ...`, `b.x *= 2`);
* the operand of `++` or `--`;
* taken by address (`&x`, `&b.x`): it may be written through the pointer;
* bound to a reference that is not const (`int& r = x;`, `auto&& r = x;`,
  `for (auto& v : x)`);
* an argument of a call whose parameter there is a non-const reference or a pointer,
  of a call to a function with no visible declaration (a library's, another file's, a
  member function's), or of a function-like macro whose body may write it (`memcpy`,
  `memset` and `std::swap` write their first arguments);
* the right operand of `>>` whose left operand is not a number (`std::cin >> x`: an
  extraction from a stream).

Reads are everything else: an operand of arithmetic, a comparison, `sizeof`, an argument
of a parameter passed by value or by const reference, of the runtime's C API (which
takes integers by value), of `printf`, of the math functions, and of `dim3(...)`.

`write_of` answers with a reason ("passed to parse, whose parameter 1 is a non-const
reference") or None for a read; `Callees` is the file's table of functions and macros
that the answer depends on.
"""

from __future__ import annotations

import re

import tree_sitter as ts

# Through these, the name's storage is still what is used (`(x)`, `b.x`, `a[0]`, `*p`
# is not: it is the pointee).
_LVALUE_WRAPPERS = frozenset({"parenthesized_expression", "field_expression", "subscript_expression"})
# Calls that read their arguments (by value or through const pointers), whatever the file declares.
_READS = frozenset({"dim3", "uint3", "min", "max", "std::min", "std::max", "abs", "std::abs", "fabs", "sqrt",
                    "ceil", "floor", "log2", "pow", "exp", "log", "printf", "fprintf", "std::printf", "puts",
                    "assert", "exit", "static_cast", "int", "unsigned", "size_t", "float", "double", "sizeof",
                    "malloc", "calloc", "free", "std::to_string", "make_int2", "make_float2", "make_uint3"})
_RUNTIME = re.compile(r"(?:::)?(?:cuda|hip|cu|nvrtc|curand|cublas|cufft)[A-Z]\w*\Z")
_WRITES_FIRST = frozenset({"memcpy", "std::memcpy", "memset", "std::memset", "memmove", "std::memmove",
                           "bzero", "std::swap", "swap", "std::exchange"})
_ASSIGNING = re.compile(r"(?<![=!<>])=(?!=)|\+\+|--|(?<![&])&(?![&=])|>>")


def body_may_write(body: str) -> bool:
    """Whether a macro's body holds an assignment, `++`/`--`, `&` or `>>`: a use of it may
    write what it names."""
    return bool(_ASSIGNING.search(body))


class Callees:
    """The functions and function-like macros a file declares: for a call by name, what
    each parameter does with its argument."""

    def __init__(self, data: bytes, root: ts.Node, macros: dict[str, str | None] | None = None,
                 macro_bodies: dict[str, str] | None = None):
        self.data = data
        self.functions: dict[str, list[list[str]]] = {}     # name -> a parameter list per declaration
        self.macro_bodies = macro_bodies or {}
        stack = list(root.named_children)
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("namespace_definition", "declaration_list", "linkage_specification", "template_declaration",
                        "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "class_specifier",
                        "struct_specifier", "field_declaration_list"):
                stack.extend(node.named_children)
            elif kind in ("function_definition", "declaration", "field_declaration"):
                for d in _function_declarators(node):
                    name = d.child_by_field_name("declarator")
                    params = d.child_by_field_name("parameters")
                    if name is not None and params is not None:
                        key = _text(data, name).rsplit("::", 1)[-1]
                        self.functions.setdefault(key, []).append(_parameter_kinds(data, params))

    def effect(self, name: str, position: int, count: int) -> str | None:
        """What a call `name(...)` of `count` arguments may do to its argument at
        `position` (0-based): None for a read, else the reason it may write it."""
        short = name.rsplit("::", 1)[-1]
        if name in _WRITES_FIRST or short in ("memcpy", "memset", "memmove"):
            return f"passed to {name}, which writes its first argument" if position == 0 or "swap" in name else None
        if name in self.macro_bodies:
            body = self.macro_bodies[name]
            return f"passed to the macro {name}, whose body may write it" if body_may_write(body) else None
        declared = self.functions.get(short)
        if declared:
            fitting = [p for p in declared if len(p) == count or (p and p[-1] == "variadic" and len(p) - 1 <= count)
                       or count < len(p)]
            for params in fitting or declared:
                kind = params[position] if position < len(params) else (params[-1] if params else "value")
                if kind in ("ref", "pointer", "forward"):
                    what = {"ref": "a non-const reference", "pointer": "a pointer",
                            "forward": "a forwarding reference"}[kind]
                    return f"passed to {name}, whose parameter {position + 1} is {what}"
            return None
        if name in _READS or short in _READS or _RUNTIME.match(name) or name.startswith(("static_cast<", "std::min<",
                                                                                         "std::max<")):
            return None
        return f"passed to {name}, which this file does not declare (it may take a reference)"


def _function_declarators(node: ts.Node):
    for d in node.children_by_field_name("declarator"):
        while d is not None and d.type in ("pointer_declarator", "reference_declarator", "init_declarator"):
            d = d.child_by_field_name("declarator") or next((c for c in d.named_children
                                                             if c.type.endswith("declarator")), None)
        if d is not None and d.type == "function_declarator":
            yield d


def _parameter_kinds(data: bytes, params: ts.Node) -> list[str]:
    """Per parameter: value, const (a const reference or pointer to const), ref, pointer,
    forward (`T&&`), or variadic."""
    out = []
    for p in params.named_children:
        if p.type == "variadic_parameter":
            out.append("variadic")
            continue
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            if p.type != "comment":
                out.append("ref")       # a shape not read: assume the worst
            continue
        text = _text(data, p).split("=")[0]
        const = bool(re.search(r"\bconst\b", text.split("&")[0].split("*")[0]))
        if "&&" in text:
            out.append("forward")
        elif "&" in text:
            out.append("const" if const else "ref")
        elif "*" in text or "[" in text:
            # A pointer can point to the argument only when `&x` (counted itself) or an array is passed.
            out.append("const" if const else "pointer")
        else:
            out.append("value")
    if not out and _text(data, params).replace(" ", "") in ("()", "(void)"):
        return []
    return out


def _text(data: bytes, node: ts.Node) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "replace")


def write_of(data: bytes, node: ts.Node, parent_of, callees: Callees | None, array: bool = False) -> str | None:
    """Why the use `node` (an identifier) may write the variable it names, or None when
    it only reads it. `parent_of(n)`: n's parent. `array`: the variable is an array or a
    pointer, so that passing it passes its storage."""
    child, parent = node, parent_of(node)
    while parent is not None and parent.type in _LVALUE_WRAPPERS:
        if parent.type == "field_expression":
            operator = parent.child_by_field_name("operator")
            if parent.child_by_field_name("argument") != child or (operator is not None and
                                                                    _text(data, operator) == "->"):
                return None
        elif parent.type == "subscript_expression":
            if parent.child_by_field_name("argument") != child:
                return None         # an index: read
            array = True
        child, parent = parent, parent_of(parent)
    if parent is None:
        return None
    member = child is not node and child.type != "parenthesized_expression"
    shown = _text(data, child) if member else _text(data, node)
    kind = parent.type
    if kind == "update_expression":
        return f"'{shown}' is incremented or decremented"
    if kind == "assignment_expression" and parent.child_by_field_name("left") == child:
        op = parent.child_by_field_name("operator")
        return f"'{shown}' is assigned ({_text(data, op) if op is not None else '='})"
    if kind == "pointer_expression" and data[parent.start_byte:child.start_byte].strip() == b"&":
        return f"the address of '{shown}' is taken: it may be written through it"
    if kind == "binary_expression" and parent.child_by_field_name("right") == child:
        op = parent.child_by_field_name("operator")
        if op is not None and _text(data, op) == ">>":
            left = parent.child_by_field_name("left")
            while left is not None and left.type == "binary_expression" and \
                    _text(data, left.child_by_field_name("operator")) == ">>":
                left = left.child_by_field_name("left")
            if left is None or left.type not in ("number_literal", "sizeof_expression"):
                return f"'{shown}' is read into by `>>` (an extraction from a stream)"
        return None
    if kind in ("init_declarator", "for_range_loop"):
        value = parent.child_by_field_name("value") if kind == "init_declarator" else \
            parent.child_by_field_name("right")
        if value != child:
            return None
        target = parent.child_by_field_name("declarator")
        statement = parent.parent if kind == "init_declarator" else parent
        if _binds_reference(data, target, statement):
            return f"'{shown}' is bound to a reference that is not const"
        return None
    if kind == "argument_list":
        call = parent_of(parent)
        if call is None or call.type != "call_expression":
            return None
        function = call.child_by_field_name("function")
        args = [a for a in parent.named_children if a.type != "comment"]
        position = next((i for i, a in enumerate(args) if a == child), 0)
        if function is None:
            return "passed to a call cu2hip cannot read"
        if function.type == "field_expression":
            return f"passed to the member function {_text(data, function)}, which may take a reference"
        name = _text(data, function)
        if function.type not in ("identifier", "qualified_identifier", "template_function"):
            return f"passed to {name}, a call through an expression (its parameters are not visible)"
        if function.type == "template_function":
            base = function.child_by_field_name("name")
            name = _text(data, base) if base is not None else name
        effect = callees.effect(name, position, len(args)) if callees is not None else \
            f"passed to {name}, which may take a reference"
        if effect is not None and effect.endswith("is a pointer") and not array:
            return None     # an integer cannot bind to a pointer: only `&x` (counted) could
        return f"'{shown}' is {effect}" if effect is not None else None
    return None


def captured_by_reference(data: bytes, node: ts.Node, parent_of, stop: ts.Node | None = None):
    """How the use `node` of a name is captured by reference, or None: ("explicit", the
    capture's name) where it is a capture `[&name]`; ("default", the lambda) where it sits
    in a lambda (below `stop`, the function around it) that captures by reference by
    default (`[&]`) and does not name it among its captures. A call of that lambda may
    write the name, under a name a reader of its writes does not see."""
    parent = parent_of(node)
    if parent is not None and parent.type == "lambda_capture_specifier":
        before = node.prev_sibling
        return ("explicit", node) if before is not None and _text(data, before) == "&" else None
    name = _text(data, node)
    while parent is not None and parent != stop:
        if parent.type == "lambda_expression":
            captures = parent.child_by_field_name("captures")
            listed = captures.named_children if captures is not None else ()
            default = next((c for c in listed if c.type == "lambda_default_capture"), None)
            if default is not None and _text(data, default) == "&" and \
                    name not in (_text(data, c) for c in listed if c.type == "identifier"):
                return "default", parent
        parent = parent_of(parent)
    return None


def _binds_reference(data: bytes, target: ts.Node | None, statement: ts.Node | None) -> bool:
    """Whether a declarator binds a reference that is not to const."""
    while target is not None and target.type in ("pointer_declarator", "init_declarator"):
        target = target.child_by_field_name("declarator")
    if target is None or target.type != "reference_declarator":
        return False
    if statement is None:
        return True
    head = _text(data, statement)
    type_node = statement.child_by_field_name("type")
    before = _text(data, type_node) if type_node is not None else head.split("&")[0]
    qualifiers = head[:target.start_byte - statement.start_byte]
    return "&&" in _text(data, target)[:3] or not re.search(r"\bconst\b", before + " " + qualifiers)
