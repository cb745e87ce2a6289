"""Code that runs where no call is written: the operators (a class's or free ones),
constructors, destructors and conversions of the classes of a file and of the local
headers it includes. `a + b`, `T v;`, `out[i] = x` and `int v = w;` run them, and the
call graph (translator.ir.calls) has no edge for any: an analysis that must see what a
kernel runs asks `hazard` instead, once per file.

    hazard(parsed, table, headers, pattern, memory) -> why, or None

A member (or free operator) that device code may run (`__device__`, or `constexpr`)
holds a hazard when it, or a function it calls (free or a
member, followed by name through the definitions of its unit: the file, or the header),
matches `pattern` (what the analysis may not see: `blockDim`, shared memory, a barrier,
an atomic...), names a macro of the file's table whose body (or a macro's it names) does,
or one that cannot be read; or, with `memory`, reaches memory other than its operands'
own fields (a subscript, `*p` or `&x`, `p->f` other than `this->f`): an elementwise
kernel's accesses are its own element's only while the code it runs reads its operands'
fields alone. A call the unit does not define (a function of another file, a call
through an expression) may do anything, and is a hazard too. Calls of the device
library, casts and the class's own constructors are not followed. The answer is for the
whole file: while it holds a member with a hazard, no kernel of it is taken as free of
it (which class a kernel's values have is not read). Not read: headers outside the run's
tree (system and library headers, `-I` folders the run does not translate), whose
classes' operators are taken to see nothing of the block and to touch their operands'
fields alone; a template kernel's class type arguments stay refused at each launch
(translator.ir.elementwise.instantiations), whichever header defines them.
"""

from __future__ import annotations

import functools
import re

import tree_sitter as ts

from translator.ir.macros import CAST_WORDS
from translator.ir.nodes import descendants

_CLASSES = re.compile(rb"\b(?:struct|class|operator)\b")
_NOT_CALLS = frozenset({"if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "defined",
                        "static_assert", "__launch_bounds__", "__attribute__", "__declspec", "catch"})
_TYPE_WORDS = frozenset({"float", "double", "int", "unsigned", "signed", "long", "short", "char", "bool", "void",
                         "size_t"})
_TAIL = ", and a class's operators, constructors and conversions run where no call is written"
_NAME = re.compile(r"[A-Za-z_]\w*")


def hazard(parsed, table, headers: list[tuple[str, bytes]], pattern: re.Pattern, memory: bool = False) -> str | None:
    """Why code that no call names may do what `pattern` matches (or, with `memory`, reach
    memory beyond its operands' fields), in the file or in one of its local `headers`
    (path, bytes), or None: see the module."""
    why, used = _reader(parsed.main, parsed.data, pattern, memory) if _CLASSES.search(parsed.cleaned) \
        else (None, frozenset())
    where = ""
    for path, data in headers:
        if why is not None:
            break
        why, more = _header_reader(data, pattern, memory)
        used, where = used | more, f" (in {path})"
    if why is None:
        # With `memory`, a macro's `[`, `->`, `*` or `&` may be an access of its own.
        test = re.compile(pattern.pattern + r"|(\[|->|\*|&)") if memory else pattern
        macro = next((m for m in sorted(used & table.names) if _macro_matches(table, m, test)), None)
        if macro is None:
            return None
        what = "may reach memory or hold what the analysis cannot see" if memory else "may see the block"
        why, where = f"an operator, constructor or conversion of a class uses the macro {macro}, which {what}", ""
    return why + _TAIL + where


@functools.lru_cache(maxsize=256)
def _header_reader(data: bytes, pattern: re.Pattern, memory: bool) -> tuple[str | None, frozenset[str]]:
    """`_reader` of a local header's text (parsed here; once per text and question)."""
    if not _CLASSES.search(data):
        return None, frozenset()
    from translator.frontend import parse_file
    why, used = _reader(parse_file(data).main, data, pattern, memory)
    return (why.replace("the file's ", "the header's ", 1) if why else None), used


def _reader(frag, data: bytes, pattern: re.Pattern, memory: bool) -> tuple[str | None, frozenset[str]]:
    """(why an implicit member of the unit's classes holds a hazard, or None; the names
    those members and the functions they call use, for the macro table)."""
    from translator.ir.calls import library_functions
    functions: dict[str, list[ts.Node]] = {}
    members = []
    for node in descendants(frag.root):
        if node.type != "function_definition":
            continue
        name = _defined_name(frag, data, node)
        if name is not None:
            functions.setdefault(name, []).append(node)
        what = _implicit_member(frag, data, node)
        if what is not None and _device(frag, data, node):
            members.append((what, node))
    classes = {what.rsplit("::", 1)[0].rsplit("::", 1)[-1] for what, _ in members}
    used: set[str] = set()
    for what, member in members:
        todo, followed = [member], set()
        while todo:
            node = todo.pop()
            if node.id in followed:
                continue
            followed.add(node.id)
            via = "" if node is member else f" (through {_defined_name(frag, data, node)})"
            text = frag.text(data, node)        # a constructor's initializers with its body
            seen = pattern.search(text)
            if seen is not None:
                return f"the file's {what} uses {seen.group(1)}{via}", frozenset(used)
            reached = _memory(frag, data, node) if memory else None
            if reached is not None:
                return f"the file's {what} reaches memory through {reached}{via}", frozenset(used)
            used |= set(_NAME.findall(text))
            for called in _called_in(frag, data, node):
                if called in _NOT_CALLS or called in _TYPE_WORDS or called in classes or called in CAST_WORDS \
                        or called in library_functions():
                    continue
                if called not in functions:
                    return f"the file's {what} calls {called}{via}, which it does not define", frozenset(used)
                todo += functions[called]
    return None, frozenset(used)


def _memory(frag, data: bytes, definition: ts.Node) -> str | None:
    """The first access of a definition beyond its operands' fields: a subscript, `*p`,
    `&x`, or `p->f` other than `this->f`; None where it has none."""
    for node in descendants(definition):
        kind = node.type
        if kind in ("subscript_expression", "pointer_expression"):
            return " ".join(frag.text(data, node).split())
        if kind == "field_expression":
            operator = node.child_by_field_name("operator")
            argument = node.child_by_field_name("argument")
            if operator is not None and operator.type == "->" and (argument is None or argument.type != "this"):
                return " ".join(frag.text(data, node).split())
    return None


def _device(frag, data: bytes, definition: ts.Node) -> bool:
    """Whether device code may run the definition: its head says `__device__` (or
    `constexpr`, which `--expt-relaxed-constexpr` lets device code call). A host-only
    operator or constructor cannot run in a kernel."""
    body = definition.child_by_field_name("body")
    head = data[definition.start_byte:body.start_byte if body is not None else definition.end_byte]
    if definition.parent is not None and definition.parent.type == "template_declaration":
        head = data[definition.parent.start_byte:definition.start_byte] + head
    return re.search(rb"\b(?:__device__|constexpr)\b", head) is not None


def _called_in(frag, data: bytes, node: ts.Node) -> list[str]:
    """The bare names a definition calls: `f(x)`, `ns::f(x)`, `f<T>(x)`, `a.f(x)`, `p->f(x)`
    (a call through any other expression is named by its text, which no unit defines)."""
    out = []
    for call in descendants(node):
        if call.type != "call_expression":
            continue
        function = call.child_by_field_name("function")
        if function is not None and function.type == "field_expression":
            function = function.child_by_field_name("field")
        if function is not None and function.type == "template_function":
            function = function.child_by_field_name("name")
        if function is None:
            continue
        name = frag.text(data, function).replace(" ", "").rsplit("::", 1)[-1]
        if name not in out:
            out.append(name)
    return out


def _defined_name(frag, data: bytes, node: ts.Node) -> str | None:
    """The bare name a function definition defines (`f`, `V::f` -> f, `operator+`)."""
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("function_declarator", "operator_cast"):
        declarator = declarator.child_by_field_name("declarator") or (
            declarator.named_children[-1] if declarator.named_children else None)
    if declarator is None:
        return None
    if declarator.type == "operator_cast":
        return " ".join(frag.text(data, declarator).split("(", 1)[0].split())
    name = declarator.child_by_field_name("declarator")
    return " ".join(frag.text(data, name).split()).rsplit("::", 1)[-1] if name is not None else None


def _implicit_member(frag, data: bytes, node: ts.Node) -> str | None:
    """`V::operator+` for a definition of an operator, constructor, destructor or
    conversion of a class (`V`, in its body or `V::`-qualified out of it), `operator+` for
    a free operator; else None."""
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type in ("pointer_declarator", "reference_declarator"):
        declarator = declarator.child_by_field_name("declarator") or (
            declarator.named_children[-1] if declarator.named_children else None)
    if declarator is None:
        return None
    if declarator.type == "operator_cast":
        name = declarator
    elif declarator.type == "function_declarator":
        name = declarator.child_by_field_name("declarator")
    else:
        return None
    if name is None:
        return None
    owner = node.parent
    if owner is not None and owner.type == "template_declaration":
        owner = owner.parent
    if owner is not None and owner.type == "field_declaration_list":
        owner = owner.parent
    written = " ".join(frag.text(data, name).split())
    if name.type == "operator_cast":
        written = written.split("(", 1)[0].strip()          # `operator float`, not its parameters
    if owner is not None and owner.type in ("struct_specifier", "class_specifier", "union_specifier"):
        cls = owner.child_by_field_name("name")
        cls_name = frag.text(data, cls).split("<", 1)[0] if cls is not None else "(anonymous)"
        if name.type in ("operator_name", "operator_cast", "destructor_name") or written == cls_name:
            return f"{cls_name}::{written}"
        return None
    if name.type == "operator_name":
        return written                                      # a free operator: `int2 operator+(int2, int2)`
    if name.type == "qualified_identifier":
        scope, _, member = written.rpartition("::")
        bare = scope.rsplit("::", 1)[-1].split("<", 1)[0]
        if member.startswith(("operator", "~")) or member == bare:
            return written
    return None


def _macro_matches(table, name: str, pattern: re.Pattern, depth: int = 0) -> bool:
    """Whether the macro `name`'s body, or a macro's it names, matches `pattern` (or cannot
    be read: several definitions, too deep)."""
    macro = table.get(name)
    body = getattr(macro, "body", None)
    if body is None or depth > 16:
        return True
    if pattern.search(body):
        return True
    return any(_macro_matches(table, word, pattern, depth + 1)
               for word in set(_NAME.findall(body)) & table.names if word != name)
