"""Elementwise kernels: what the fusion pass needs to know of a kernel's body.

A kernel is elementwise when each thread touches memory only at its own index: it
computes the global thread id once, guards it against a bound made of its scalar
parameters, and inside the guard reads and writes its pointer parameters at that index
alone. These shapes are recognised:

    T i = <global id>; if (i < n) { S }                 "guard"
    T i = <global id>; if (i >= n) return; S            "guard"
    for (T i = <global id>; i < n; i += blockDim.x * gridDim.x) { S }   "grid-stride"
    T x = <global id>; T y = <its .y form>; if (x < w && y < h) { S }   "guard-2d"
    T x = <global id>; T y = <its .y form>; if (x >= w || y >= h) return; S   "guard-2d"

A two-dimensional stage (shape_2d; the declarations and the comparisons in either order)
touches its pointers at `y * w + x` alone (the operands of each operator in either
order), `w` the columns' bound and a parameter, so that its elements are one per thread;
the fusion pass checks that the chain's bounds agree.

where <global id> is `blockIdx.x * blockDim.x + threadIdx.x` in any operand order (a
cast to an integer type allowed). A grid-stride loop may follow the declarations of a
local holding the global id, which its index starts from, and of a local holding the
stride, which its update adds (`const size_t g = <global id>; const size_t s = gridDim.x
* blockDim.x; for (size_t i = g; i < n; i += s)`), each of the index's type and named
nowhere else (not in the loop's condition or body, nor in a macro's expansion there): it
is then the canonical loop. The statements S may declare locals, loop and branch,
and call `__device__` helpers that are themselves elementwise (no pointer parameters, no
shared memory, barriers, atomics, warp operations or thread indices) and any function
the file does not define (math functions). Everything else is refused, with the reason:
shared memory, barriers, atomics, warp operations, early exits other than the guard,
thread indices used beyond the global id, a pointer used other than as `p[i]` (a
neighbour read, pointer arithmetic, a pointer passed to a function), memory reached
through anything but a pointer parameter, an assignment to a parameter or to the index,
preprocessor lines inside the body, and kernels in macros. A template kernel is a stage
when its template parameters are all types (`typename T`, `class T`; no default, no
pack): the Stage lists their names and where the statements use them, and each launch
instantiates it (`instantiation`: with arithmetic types written out). A macro used in
the statements (translator.ir.macros) is allowed only when it is a pure value
(numbers, operators, arithmetic casts, math calls, and a function-like macro's own
parameters, whose arguments are the tree's): any other expansion (`#define Y_NEXT
y[(i+1)%n]`, `#define SET(a, v) a = v`) holds accesses the walk does not see, and is
refused with the macro's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile
from translator.ir import body as body_facts
from translator.ir.calls import call_graph
from translator.ir.macros import expansion_of_use, impure, macros, tokens
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Kernel, Span
from translator.ir.nodes import assigned, declares, descendants, initialized

_SPACE = re.compile(r"\s+")
_INT_CAST = re.compile(r"\((?:const)?(?:unsigned|signed)?(?:int|long|longlong|size_t|int64_t|uint64_t|"
                       r"int32_t|uint32_t|ptrdiff_t|unsigned)?\)|static_cast<[\w:]+>")
_GLOBAL_IDS = frozenset({
    "blockIdx.x*blockDim.x+threadIdx.x", "blockDim.x*blockIdx.x+threadIdx.x",
    "threadIdx.x+blockIdx.x*blockDim.x", "threadIdx.x+blockDim.x*blockIdx.x",
})
_ROW_IDS = frozenset(g.replace(".x", ".y") for g in _GLOBAL_IDS)      # the global id in y
_STRIDES = frozenset({"blockDim.x*gridDim.x", "gridDim.x*blockDim.x"})
_BUILTIN_INDICES = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"})
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop", "switch_statement"})
_NEVER = {
    "return_statement": "returns early", "goto_statement": "jumps with goto", "lambda_expression": "holds a lambda",
    "new_expression": "allocates with new", "delete_expression": "frees with delete",
    "gnu_asm_expression": "holds inline assembly", "asm_statement": "holds inline assembly",
    "throw_statement": "throws",
}
_HELPER_HAZARDS = re.compile(r"\b(__shared__|__syncthreads\w*|atomic\w+|threadIdx|blockIdx|blockDim|gridDim|"
                             r"warpSize|asm|" + "|".join(sorted(WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS)) + r")\b")


def squeeze(text: str) -> str:
    """Text with all white space removed: how expressions are compared."""
    return _SPACE.sub("", text)


def substitute(text: bytes, base: int, names, replacement) -> bytes:
    """`text` (whose first byte is at file offset `base`) with each (name, span) of
    `names` replaced by `replacement(name)` (a str); the spans are in source order and
    inside the text."""
    out, last = [], 0
    for name, (start, end) in names:
        out.append(text[last:start - base])
        out.append(replacement(name).encode())
        last = end - base
    out.append(text[last:])
    return b"".join(out)


@dataclass(frozen=True)
class Access:
    """`p[i]` in a stage: the pointer parameter, how it is used, and where."""
    param: str
    mode: str              # "read", "write" or "readwrite"
    span: Span
    plain_store: bool      # `p[i] = e;`, a statement of the stage's own list, e not reading p


@dataclass(frozen=True)
class Stage:
    """What an elementwise kernel brings to a fused kernel."""
    kernel: str
    form: str                              # "guard" or "grid-stride"
    index: str                             # the index variable's name
    index_type: str                        # its declared type, as written
    bound: str                             # the guard's bound, as written (in the kernel's parameters)
    bound_span: Span
    bound_names: tuple[tuple[str, Span], ...]   # the parameter names in the bound, with their spans
    statements: Span                       # the guarded statements' bytes
    accesses: tuple[Access, ...]           # in source order
    names: tuple[tuple[str, Span], ...]    # uses of parameters and of the index, in source order
    locals: frozenset[str]                 # names the statements declare
    helpers: frozenset[str]                # the file's __device__ functions it calls
    type_params: tuple[str, ...] = ()      # a template kernel's type parameters, in order
    type_names: tuple[tuple[str, Span], ...] = ()   # their uses in the statements, in source order
    stored_first: frozenset[str] = frozenset()      # pointers whose element every path stores before reading
    # A two-dimensional stage ("guard-2d"): the row index, the rows' bound, and the element
    # `index_y * bound + index` every access is at (the columns' bound is `bound`).
    index_y: str = ""
    bound_y: str = ""
    bound_y_span: Span = (0, 0)
    bound_y_names: tuple[tuple[str, Span], ...] = ()


@dataclass(frozen=True)
class Refusal:
    kernel: str
    reason: str


@dataclass(frozen=True)
class DeviceFunction:
    name: str
    span: Span
    hazard: str | None                     # why it cannot be called from a fused kernel, or None


def device_functions(parsed: ParsedFile) -> dict[str, DeviceFunction]:
    """The file's `__device__` (not `__global__`) functions (translator.ir.calls), by name,
    each with the first hazard it holds; a name overloaded has the hazard of any of its
    definitions that holds one."""
    out: dict[str, DeviceFunction] = {}
    graph = call_graph(parsed)
    for function in graph.functions:
        if function.kernel or (function.name in out and out[function.name].hazard):
            continue
        body = macros(parsed).expand(parsed.data[function.body_span[0]:function.body_span[1]].decode(
            "utf-8", "replace"))       # its macros seen through
        found = _HELPER_HAZARDS.search(body.value) if body.known else None
        hazard = f"uses {found.group(1)}" if found else None if body.known else \
            f"uses a macro cu2hip cannot see through: {body.reason}"
        node = function.node(parsed)
        declarator = node.child_by_field_name("declarator") if node is not None else None
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        if hazard is None and params is not None and any(
                c.type in ("pointer_declarator", "reference_declarator")
                for p in params.named_children for c in descendants(p)):
            hazard = "takes a pointer or reference"
        if hazard is None and function.unknown:
            hazard = f"makes a call cu2hip cannot follow: {function.unknown[0][1]}"
        out[function.name] = DeviceFunction(function.name, function.span, hazard)
    # Through known calls: a helper that calls one with a hazard has it too.
    own = {name: f.hazard for name, f in out.items()}
    for name, f in out.items():
        if f.hazard is None:
            found = next((g for g in graph.reached(name) if own.get(g)), None)
            if found is not None:
                out[name] = DeviceFunction(name, f.span, f"calls {found}, which {own[found]}")
    return out


def unknown_call(parsed: ParsedFile, name: str, known: frozenset[str] = frozenset()) -> str | None:
    """Why a function makes a call that cannot be followed (itself or through the device
    functions it reaches: translator.ir.calls), or None; `known`: its own callees that are
    known (CallGraph.first_unknown)."""
    found = call_graph(parsed).first_unknown(name, known)
    if found is None:
        return None
    where, _, why = found
    return f"it makes a call cu2hip cannot follow{'' if where == name else f' (through {where})'}: {why}"


def not_analysable(kernel: Kernel) -> str | None:
    """Why the kernel's body cannot be analysed here, or None."""
    if kernel.body_span is None:
        return "only its prototype is in this file"
    if kernel.in_macro or not kernel.clean:
        return "it is defined in a macro or in code the parser cannot read"
    return None


def analyse(parsed: ParsedFile, kernel: Kernel, helpers: dict[str, DeviceFunction]) -> Stage | Refusal:
    """The kernel as a Stage of a fused kernel, or why it cannot be one."""
    def refuse(reason: str) -> Refusal:
        return Refusal(kernel.name, reason)
    unusable = not_analysable(kernel)
    if unusable:
        return refuse(unusable)
    type_params = type_parameters(kernel.template_params)
    if type_params is None:
        return refuse(f"it is a template whose parameters are not all types ({', '.join(kernel.template_params)})")
    if kernel.shared:
        return refuse(f"it uses shared memory ({kernel.shared[0].name})")
    for facts, what in ((kernel.barriers, "a barrier"), (kernel.atomics, "an atomic"),
                        (kernel.warp_ops, "a warp operation")):
        if facts:
            return refuse(f"it uses {what} ({facts[0].text.splitlines()[0]})")
    frag = parsed.main
    from translator.frontend import node_at
    body = node_at(frag.root, *kernel.body_span)
    if body is None:
        return refuse("its body was not found in the file's parse")
    found = shape(parsed, frag, body)
    if isinstance(found, str):
        found = shape_2d(parsed, frag, body) or found
    if isinstance(found, str):
        return refuse(found)
    form, index, index_type, bound, statements = found
    index_y, bound_y = (index[1], bound[1]) if form == "guard-2d" else ("", None)
    index, bound = (index[0], bound[0]) if form == "guard-2d" else (index, bound)
    if not statements:
        return refuse("its guarded body is empty")
    if set(_WORD.findall(index_type)) & set(type_params):
        return refuse(f"its index's type '{index_type}' is a template parameter's")
    pointers = {p.name for p in kernel.params if p.is_pointer and p.name}
    scalars = {p.name for p in kernel.params if not p.is_pointer and p.name}
    bounds = []
    for guard in filter(None, (bound, bound_y)):
        bounds.append([])
        for node in descendants(guard):
            if node.type == "identifier":
                name = frag.text(parsed.data, node)
                if name not in scalars:
                    return refuse(f"its guard's bound '{frag.text(parsed.data, guard)}' uses '{name}', not a "
                                  "scalar parameter")
                bounds[-1].append((name, frag.span(node)))
    bound_names = bounds[0]
    elements = frozenset({index})
    if form == "guard-2d":
        width = frag.text(parsed.data, bound)
        if width not in scalars:
            return refuse(f"its columns' bound '{width}' is not a parameter: its elements `y * width + x` are "
                          "not known to be one per thread")
        elements = frozenset({f"{index_y}*{width}+{index}", f"{index}+{index_y}*{width}",
                              f"{width}*{index_y}+{index}", f"{index}+{width}*{index_y}"})
    walk = _StageWalk(parsed, frag, body, index, pointers, scalars, helpers, statements, elements, index_y)
    if walk.reason:
        return refuse(walk.reason)
    unknown = unknown_call(parsed, kernel.name, frozenset(type_params))   # T(x): T is arithmetic
    if unknown:
        return refuse(unknown)
    type_names = tuple((frag.text(parsed.data, n), frag.span(n)) for s in statements for n in descendants(s)
                       if n.type in ("identifier", "type_identifier") and frag.text(parsed.data, n) in type_params)
    stored = frozenset(p for p in pointers if _stored_first(parsed, frag, statements, p, elements) == "stored")
    rows = dict(index_y=index_y, bound_y=frag.text(parsed.data, bound_y), bound_y_span=frag.span(bound_y),
                bound_y_names=tuple(bounds[1])) if bound_y is not None else {}
    return Stage(kernel.name, form, index, index_type, frag.text(parsed.data, bound), frag.span(bound),
                 tuple(bound_names),
                 (frag.span(statements[0])[0], frag.span(statements[-1])[1]), tuple(walk.accesses),
                 tuple(walk.names), frozenset(walk.locals), frozenset(walk.helpers), type_params, type_names,
                 stored, **rows)


def _stored_first(parsed: ParsedFile, frag: Fragment, statements: list[ts.Node], pointer: str,
                  elements: frozenset[str]) -> str:
    """"stored" when every path through the statements stores `pointer[index] = e` (e not
    reading it) before anything else mentions the pointer, "untouched" when no statement
    mentions it, else "read": the fused kernel then loads the element first, so that a
    path that does not store it leaves the value it had. Branches count when both sides
    of an `if`/`else` store; any other statement that mentions the pointer (a loop, a
    switch, a call, a macro's use) reads it."""
    table = macros(parsed)

    def mentions(node: ts.Node) -> bool:
        return any(n.type in ("identifier", "type_identifier") and (frag.text(parsed.data, n) == pointer
                                                                   or frag.text(parsed.data, n) in table)
                   for n in descendants(node))

    def store(node: ts.Node) -> bool:
        if node.type != "expression_statement" or node.named_child_count != 1:
            return False
        e = node.named_children[0]
        if e.type != "assignment_expression" or frag.text(parsed.data, e.child_by_field_name("operator")) != "=":
            return False
        left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
        return left is not None and left.type == "subscript_expression" \
            and squeeze(frag.text(parsed.data, left)) in {f"{pointer}[{e}]" for e in elements} \
            and right is not None and not mentions(right)

    def one(node: ts.Node) -> str:
        if node.type == "comment" or not mentions(node):
            return "untouched"
        if store(node):
            return "stored"
        if node.type == "compound_statement":
            return many([c for c in node.named_children if c.type != "comment"])
        if node.type == "if_statement":
            other = node.child_by_field_name("alternative")
            if other is None or mentions(node.child_by_field_name("condition")):
                return "read"
            if other.type == "else_clause":
                other = next((c for c in other.named_children if c.type != "comment"), None)
            sides = {one(node.child_by_field_name("consequence")), one(other) if other is not None else "read"}
            return "stored" if sides == {"stored"} else "read"
        return "read"

    def many(nodes: list[ts.Node]) -> str:
        for node in nodes:
            found = one(node)
            if found != "untouched":
                return found
        return "untouched"

    return many(statements)


_WORD = re.compile(r"[A-Za-z_]\w*")
_TYPE_PARAM = re.compile(r"(?:typename|class)\s+([A-Za-z_]\w*)(\s*=.*)?", re.S)
# The types a template kernel's type parameter may take for a rewrite to treat it as
# written out: one word each, so that the body's text with the word in place of the
# parameter (`T(0)`, `T *p`, `static_cast<T>(x)`) is what the instantiation means, and
# its operators, conversions and constructors are the language's, never a class's.
ARITHMETIC = frozenset({
    "bool", "char", "short", "int", "long", "unsigned", "signed", "float", "double", "size_t", "ptrdiff_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
})


def arithmetic_word(parsed: ParsedFile, written: str) -> str | None:
    """The one-word arithmetic type (ARITHMETIC) that a type name as written stands for:
    itself, or what the file's typedef or `using` of it, defined once
    (translator.ir.types), resolves to; None for anything else, and for a name the file
    also declares as a class, struct, union, enum or template parameter (which one a use
    sees is a matter of scope)."""
    if written in ARITHMETIC:
        return written
    if not re.fullmatch(r"[A-Za-z_]\w*", written) or re.search(
            rb"\b(?:struct|class|union|enum|typename)\s+" + re.escape(written.encode()) + rb"\b", parsed.data):
        return None
    from translator.ir.types import Types
    base = Types(parsed.main, parsed.data).resolve(written)
    return base if base in ARITHMETIC else None


def type_parameters(written: tuple[str, ...]) -> tuple[str, ...] | None:
    """The names of a template's parameters when each is a plain type parameter
    (`typename T`, `class T`: no default, no pack, no value); () for no template; else None."""
    names = []
    for param in written:
        found = _TYPE_PARAM.fullmatch(" ".join(param.split()))
        if found is None or found.group(2):
            return None
        names.append(found.group(1))
    return tuple(names)


def type_parameter_names(kernel: Kernel) -> frozenset[str]:
    """The names of the kernel's template type parameters (`typename T`, `class T`)."""
    return frozenset(found.group(1) for found in map(_TYPE_PARAM.match, kernel.template_params) if found)


def template_arguments(written: str | None) -> list[str] | None:
    """A launch's template arguments (`<float, 4>`), split at the commas outside brackets,
    white space folded; None when it writes none (they are deduced)."""
    if written is None:
        return None
    text = written.strip()
    text = text[1:-1] if text.startswith("<") and text.endswith(">") else text
    out, depth, current = [], 0, []
    for ch in text:
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        if ch == "," and depth == 0:
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
    out.append("".join(current))
    out = [" ".join(a.split()) for a in out]
    return [] if out == [""] else out


_QUALIFIERS = frozenset({"const", "__restrict__", "__restrict", "restrict"})
_DECLARATIONS = frozenset({"declaration", "parameter_declaration", "optional_parameter_declaration",
                           "field_declaration", "for_range_loop"})


def _declared_pointees(parsed: ParsedFile, name: str, at: int) -> list[tuple[str, bool]] | None:
    """Each declaration of `name` that a use at offset `at` may see: in the function
    around it (any scope: a variable, a parameter, a range-for's) or outside every
    function (a global, a member); (its pointee type as written, whether it is const),
    when every one is a one-level pointer; None when one is anything else (an array, a
    reference, a value, `auto`, a pointer to pointer)."""
    frag, data = parsed.main, parsed.data
    found = []
    stack = [(frag.root, True)]
    while stack:
        node, visible = stack.pop()
        if node.type == "function_definition":
            lo, hi = frag.span(node)
            visible = lo <= at < hi
        stack.extend((c, visible) for c in node.named_children)
        if node.type not in _DECLARATIONS or not visible:
            continue
        type_node = node.child_by_field_name("type")
        for declarator in node.children_by_field_name("declarator"):
            target, depth, const = declarator, 0, False
            while target is not None and target.type not in ("identifier", "field_identifier"):
                if target.type == "pointer_declarator":
                    depth += 1
                elif target.type not in ("init_declarator",):
                    depth = -99              # an array, a reference, a function: not a plain pointer
                const |= any(c.type == "type_qualifier" and frag.text(data, c) == "const" for c in target.children)
                target = target.child_by_field_name("declarator")
            if target is None or frag.text(data, target) != name:
                continue
            words = _WORD.findall(data[frag.span(node)[0]:frag.span(type_node)[1]].decode("utf-8", "replace")) \
                if type_node is not None else []
            const |= "const" in words or "volatile" in words
            words = [w for w in words if w not in ("const", "volatile")]
            if depth != 1 or len(words) != 1:
                return None
            found.append((words[0], const))
    return found


def deduced(parsed: ParsedFile, kernel: Kernel, args: tuple) -> dict[str, str] | None:
    """The arithmetic types a launch that writes no template arguments gives the kernel's
    type parameters (`pointer_deduction`); None when one is not deduced so."""
    names = [found.group(1) for found in map(_TYPE_PARAM.fullmatch, kernel.template_params) if found]
    params = [parsed.data[p.span[0]:p.span[1]].decode("utf-8", "replace") if p.is_pointer else "" for p in kernel.params]
    out = pointer_deduction(parsed, params, [(a.text, a.span[0]) for a in args])
    words = {n: arithmetic_word(parsed, out[n]) for n in names if n in out}
    return words if names and len(words) == len(names) and None not in words.values() else None


def pointer_deduction(parsed: ParsedFile, params: list[str], args: list[tuple[str, int]]) -> dict[str, str]:
    """The type names a call deduces for the template type parameters of a function whose
    parameters are declared `params` (their text), from its arguments `args` (text,
    offset), as C++ does from a parameter `T *p` (cv and `__restrict__` allowed) whose
    argument is a name every declaration of which in the file is a pointer to the same
    one-word type (an arithmetic one through the file's typedefs: arithmetic_word; a const
    one only for a `const T *` parameter); a parameter of any other form, or an argument
    that is a macro, deduces nothing."""
    table = macros(parsed)
    out: dict[str, str] = {}
    for param, (arg, at) in zip(params, args):
        declaration = " ".join(param.split())
        words = [w for w in _WORD.findall(declaration) if w not in _QUALIFIERS]
        if declaration.count("*") != 1 or "[" in declaration or "&" in declaration or len(words) != 2:
            continue
        type_name, name = words[0], squeeze(arg)
        if type_name in out or not name.isidentifier() or name in table:
            continue
        pointees = _declared_pointees(parsed, name, at)
        types = {arithmetic_word(parsed, t) or t for t, _ in pointees or ()}     # typedefs resolved
        if not pointees or len(types) != 1:
            continue
        if any(const for _, const in pointees) and "const" not in declaration.split("*")[0].split():
            continue                      # T deduced as const float: not the word alone
        out[type_name] = types.pop()
    return out


def instantiation(kernel: Kernel, written: str | None, parsed: ParsedFile,
                  deduce=None, outer=None) -> dict[str, str] | str:
    """The kernel's type parameters and the arithmetic types a launch that writes
    `written` gives them ({} for a kernel with none), or why the instantiation is not
    known to be its body with arithmetic types written out (`instantiations`); a launch
    in a function template whose instantiations give it several is not one instantiation."""
    found = instantiations(kernel, written, parsed, deduce, outer)
    if isinstance(found, str) or len(found) == 1:
        return found if isinstance(found, str) else found[0]
    shown = "; ".join(", ".join(f"{k} = {v}" for k, v in types.items()) for types in found)
    return f"it is launched from a function template whose instantiations give it several types ({shown}): " \
           "one kernel written out is one of them"


def instantiations(kernel: Kernel, written: str | None, parsed: ParsedFile,
                   deduce=None, outer=None) -> list[dict[str, str]] | str:
    """The kernel's type parameters and the arithmetic types a launch that writes
    `written` gives them, one mapping per instantiation of the launch ([{}] for a kernel
    with none), or why the instantiation is not known to be its body with arithmetic types
    written out: the arguments are deduced or not all written (`deduce()`, when given, says
    what the type parameters are deduced as, or None), one is not an arithmetic type
    (arithmetic_word: the word written there, a typedef's resolved), a parameter is a pack
    or a template, or the file declares an explicit specialization of the kernel (its
    body, wherever it is defined, is not the template's). `outer(name)`, when given, says
    what a type parameter of the function template around the launch is given by each
    instantiation of it (translator.ir.host_values.HostValues.type_arguments: the types,
    or why they are not all known, or None when `name` is none of its parameters)."""
    kinds = []
    for param in kernel.template_params:
        param = " ".join(param.split())
        found = _TYPE_PARAM.fullmatch(param)
        if found is not None:
            kinds.append(found.group(1))
        elif "..." in param or param.startswith(("template", "typename", "class")):
            return f"it is a template with a parameter pack or a template parameter ({param})"
        else:
            kinds.append(None)              # a value: its type is the parameter's, whatever the argument
    if not any(kinds):
        return [{}]
    specialized = re.compile(rb"\btemplate\s*<\s*>[^;{}]*\b" + re.escape(kernel.name.encode()) + rb"\s*<")
    if specialized.search(parsed.data):
        return "it has an explicit specialization: which body a launch runs is not the template's alone"
    args = template_arguments(written)
    if args is None:
        found = deduce() if deduce is not None else None
        if found is not None:
            return [found]
        return f"it is a template whose arguments this launch deduces, and not each from a pointer to an " \
               f"arithmetic type: write them out ({kernel.name}<...>)"
    choices = []
    for name, a in zip(kinds, args):
        given = outer(a) if name and outer is not None else None
        if isinstance(given, str):
            return f"it is launched with <{', '.join(args)}> in a function template: {given}"
        choices.append(given if given is not None else (a,))
    every = [[]]
    for options in choices:
        every = [done + [o] for done in every for o in options]
    out = []
    for chosen in every:
        words = [arithmetic_word(parsed, a) if name else a for name, a in zip(kinds, chosen)]
        if len(args) != len(kinds) or None in words:
            types = ", ".join(name for name in kinds if name)
            shown = f"<{', '.join(args)}>" + ("" if chosen == args else f" (<{', '.join(chosen)}> in an instantiation)")
            return f"it is a template launched with {shown}: only one arithmetic type name per type " \
                   f"parameter ({types}), each written out, is known to be the body's meaning"
        types = {name: word for name, word in zip(kinds, words) if name}
        if types not in out:
            out.append(types)
    return out


def _statements(node: ts.Node) -> list[ts.Node]:
    """A compound statement's statements (comments left out), or the single statement."""
    if node.type == "compound_statement":
        return [c for c in node.named_children if c.type != "comment"]
    return [node]


def _condition(node: ts.Node) -> ts.Node | None:
    cond = node.child_by_field_name("condition")
    if cond is not None and cond.type == "condition_clause":
        cond = cond.child_by_field_name("value") or next(iter(cond.named_children), None)
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    return cond


def _compare(parsed: ParsedFile, frag: Fragment, cond: ts.Node | None, index: str,
             less: tuple[str, str]) -> ts.Node | None:
    """The bound of `index < bound` (or `bound > index`) when `less` is ("<", ">"); of
    `index >= bound` (or `bound <= index`) when it is (">=", "<=")."""
    if cond is None or cond.type != "binary_expression":
        return None
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    op = cond.child_by_field_name("operator")
    if left is None or right is None or op is None:
        return None
    op_text = frag.text(parsed.data, op)
    if op_text == less[0] and frag.text(parsed.data, left) == index:
        return right
    if op_text == less[1] and frag.text(parsed.data, right) == index:
        return left
    return None


def _global_id(parsed: ParsedFile, frag: Fragment, node: ts.Node | None, forms: frozenset[str] = _GLOBAL_IDS) -> bool:
    """Whether the expression is the global thread id (through the file's macros:
    `#define IDX (blockIdx.x * blockDim.x + threadIdx.x)`); with `forms` _ROW_IDS, its
    form in y."""
    if node is None:
        return False
    written = macros(parsed).expand(frag.text(parsed.data, node))
    return written.known and _INT_CAST.sub("", squeeze(written.value)).replace("(", "").replace(")", "") in forms


def _index_declaration(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> tuple[str, str] | None:
    """(name, type) of `T i = <global id>;` (one declarator), else None."""
    local = _local(parsed, frag, node)
    if local is None or not _global_id(parsed, frag, local[2]):
        return None
    return local[0], local[1]


def shape(parsed: ParsedFile, frag: Fragment, body: ts.Node):
    """(form, index, index type, bound node, guarded statements) or the reason it is none
    of the elementwise shapes."""
    stmts = _statements(body)
    unknown = "its body is not one of the elementwise shapes (an index from the global thread id, then a guard " \
              "against a bound, or a grid-stride loop)"
    if stmts and stmts[-1].type == "for_statement" and len(stmts) <= 3:
        found = _grid_stride(parsed, frag, stmts)
        if found is not None:
            return found
    declared = _index_declaration(parsed, frag, stmts[0]) if stmts else None
    if declared is None or len(stmts) < 2 or stmts[1].type != "if_statement" \
            or stmts[1].child_by_field_name("alternative") is not None:
        return unknown
    index, index_type = declared
    guard = stmts[1]
    bound = _compare(parsed, frag, _condition(guard), index, ("<", ">"))
    if bound is not None and len(stmts) == 2:
        return "guard", index, index_type, bound, _statements(guard.child_by_field_name("consequence"))
    bound = _compare(parsed, frag, _condition(guard), index, (">=", "<="))
    then = _statements(guard.child_by_field_name("consequence"))
    if bound is not None and len(then) == 1 and then[0].type == "return_statement" \
            and then[0].named_child_count == 0:
        return "guard", index, index_type, bound, stmts[2:]
    return unknown


def shape_2d(parsed: ParsedFile, frag: Fragment, body: ts.Node):
    """("guard-2d", (x, y), index type, (columns' bound, rows' bound) nodes, guarded
    statements) for the two-dimensional guard shape, else None:

        T x = <global id in x>; T y = <global id in y>;      (either order)
        if (x < w && y < h) { S }         or    if (x >= w || y >= h) return; S

    the comparisons in either order and orientation, x and y of one type. (That each
    access is at `y * w + x`, one element per thread, is the walk's to check.)"""
    stmts = _statements(body)
    if len(stmts) < 3:
        return None
    ids = {}
    for statement in stmts[:2]:
        local = _local(parsed, frag, statement)
        if local is None:
            return None
        name, declared, value = local
        dim = "x" if _global_id(parsed, frag, value) else "y" if _global_id(parsed, frag, value, _ROW_IDS) else None
        if dim is None or dim in ids:
            return None
        ids[dim] = (name, _bare(declared), declared)
    (x, x_type, declared), (y, y_type, _) = ids["x"], ids["y"]
    guard = stmts[2]
    if x == y or squeeze(x_type) != squeeze(y_type) or guard.type != "if_statement" \
            or guard.child_by_field_name("alternative") is not None:
        return None
    cond = _condition(guard)
    if cond is None or cond.type != "binary_expression" or cond.child_by_field_name("operator") is None:
        return None
    joint = frag.text(parsed.data, cond.child_by_field_name("operator"))
    less = {"&&": ("<", ">"), "||": (">=", "<=")}.get(joint)
    if less is None:
        return None
    sides = [cond.child_by_field_name("left"), cond.child_by_field_name("right")]
    for first, second in (sides, sides[::-1]):
        while first is not None and first.type == "parenthesized_expression" and first.named_child_count == 1:
            first = first.named_children[0]
        while second is not None and second.type == "parenthesized_expression" and second.named_child_count == 1:
            second = second.named_children[0]
        width, height = _compare(parsed, frag, first, x, less), _compare(parsed, frag, second, y, less)
        if width is not None and height is not None:
            break
    else:
        return None
    then = _statements(guard.child_by_field_name("consequence"))
    if joint == "&&" and len(stmts) == 3:
        return "guard-2d", (x, y), declared, (width, height), then
    if joint == "||" and len(then) == 1 and then[0].type == "return_statement" and then[0].named_child_count == 0:
        return "guard-2d", (x, y), declared, (width, height), stmts[3:]
    return None


def _local(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> tuple[str, str, ts.Node] | None:
    """(name, type as written, value) of `T v = e;` (one declarator, a plain name), else None."""
    found = initialized(node)
    if found is None or found[0].type != "identifier":
        return None
    name, value = found
    type_text = parsed.data[node.start_byte + frag.delta:name.start_byte + frag.delta].decode("utf-8", "replace")
    return frag.text(parsed.data, name), " ".join(type_text.split()), value


def _bare(type_text: str) -> str:
    """A type as written without `const`, as compared."""
    return " ".join(w for w in type_text.split() if w != "const")


def _grid_stride(parsed: ParsedFile, frag: Fragment, stmts: list[ts.Node]):
    """The grid-stride shape, or None (or the reason, for a loop that is almost one):

        for (T i = <global id>; i < n; i += <stride>) { S }

    where <stride> is `blockDim.x * gridDim.x` in either order, and the loop may follow
    the declarations (one each, in either order) of a local holding the global id, which
    the loop's index starts from, and of a local holding the stride, which its update
    adds (`const size_t g = <global id>; const size_t s = gridDim.x * blockDim.x;
    for (size_t i = g; i < n; i += s)`), each of the index's own type (const aside), so
    that the values are the canonical loop's. Those locals may be named nowhere else: not
    in the loop's condition or body, nor in what a macro used there expands to."""
    *prefix, loop = stmts
    table = macros(parsed)
    starts, strides = {}, {}
    for statement in prefix:
        local = _local(parsed, frag, statement)
        if local is None:
            return None
        name, type_text, value = local
        type_text = _bare(type_text)
        if _global_id(parsed, frag, value) and not starts:
            starts[name] = type_text
        else:
            written = table.expand(frag.text(parsed.data, value))
            if not (written.known and squeeze(written.value).replace("(", "").replace(")", "") in _STRIDES) \
                    or strides:
                return None
            strides[name] = type_text
    init = loop.child_by_field_name("initializer")
    local = _local(parsed, frag, init) if init is not None else None
    if local is None:
        return None
    index, declared, value = local
    index_type = _bare(declared)
    start = frag.text(parsed.data, value)
    if not (_global_id(parsed, frag, value) or start in starts) or index in starts or index in strides:
        return None
    bound = _compare(parsed, frag, _condition(loop), index, ("<", ">"))
    update = loop.child_by_field_name("update")
    step = squeeze(frag.text(parsed.data, update)) if update is not None else ""
    stride = step[len(index) + 2:] if step.startswith(index + "+=") else None
    if bound is None or not (stride in _STRIDES or stride in strides):
        return "its loop is not a grid-stride loop (`i < n; i += blockDim.x * gridDim.x`)"
    hidden = set(starts) | set(strides)
    for name, type_text in {**starts, **strides}.items():
        if squeeze(type_text) != squeeze(index_type):
            return f"its grid-stride loop's index is {index_type} and '{name}' is {type_text}: the loop's values " \
                   "may not be the canonical loop's"
    if hidden:
        for part in (loop.child_by_field_name("condition"), loop.child_by_field_name("body")):
            for n in descendants(part) if part is not None else ():
                if n.type not in ("identifier", "type_identifier"):
                    continue
                word = frag.text(parsed.data, n)
                if word in hidden:
                    return f"its grid-stride loop uses '{word}' beyond its start and step"
                if word in table:
                    expansion = expansion_of_use(table, frag, parsed.data, n)
                    if not expansion.known:
                        return f"its grid-stride loop uses the macro {word}, which cu2hip cannot see through: " \
                               f"{expansion.reason}"
                    named = hidden & set(tokens(expansion.value))
                    if named:
                        return f"its grid-stride loop uses the macro {word}, which names '{min(named)}' beyond " \
                               "its start and step"
    return "grid-stride", index, declared, bound, _statements(loop.child_by_field_name("body"))


class _StageWalk:
    """One pass over a stage's statements: the accesses to rename, the names declared,
    the helpers called, and the first reason to refuse (`reason`, else None)."""

    def __init__(self, parsed: ParsedFile, frag: Fragment, body: ts.Node, index: str, pointers: set[str],
                 scalars: set[str], helpers: dict[str, DeviceFunction], statements: list[ts.Node],
                 elements: frozenset[str] = frozenset(), index_y: str = ""):
        self.parsed, self.frag, self.body, self.index = parsed, frag, body, index
        self.elements = elements or frozenset({index})       # the own element's index, as compared
        self.indices = {index, index_y} - {""}
        self.element = index if not index_y else next(e for e in sorted(self.elements) if e.startswith(
            f"{index_y}*") and e.endswith(f"+{index}"))      # y*width+x, as the messages name it
        self.macros = macros(parsed)
        named = next((w for w in sorted(set(_WORD.findall(" ".join(self.elements))) | self.indices)
                      if w in self.macros), None) if self.macros.names else None
        self.pointers, self.scalars, self.helpers_known = pointers, scalars, helpers
        self.macros = macros(parsed)
        self.own = {s.id for s in statements}
        self.accesses: list[Access] = []
        self.names: list[tuple[str, Span]] = []
        self.locals: set[str] = set()
        self.helpers: set[str] = set()
        self.reason: str | None = None
        if named is not None:
            self.reason = f"its index or bound '{named}' is also the name of a macro"
            return
        for statement in statements:
            self._visit(statement, loops=0)
            if self.reason:
                return

    def _text(self, node: ts.Node) -> str:
        return self.frag.text(self.parsed.data, node)

    def _refuse(self, reason: str) -> None:
        self.reason = self.reason or reason

    def _visit(self, node: ts.Node, loops: int) -> None:
        stack = [(node, loops)]
        while stack and not self.reason:
            n, depth = stack.pop()
            kind = n.type
            if kind in _NEVER:
                return self._refuse(f"it {_NEVER[kind]} inside its guard")
            if kind.startswith("preproc"):
                return self._refuse("its body holds preprocessor lines")
            if kind in ("break_statement", "continue_statement") and depth == 0:
                return self._refuse(f"it leaves its guarded body with {kind.split('_')[0]}")
            if kind in ("identifier", "type_identifier") and self._text(n) in self.macros:
                hidden = impure(self.macros, self._text(n), n, self.frag, self.parsed.data)
                if hidden:
                    return self._refuse(hidden)
            elif kind == "identifier":
                self._identifier(n)
            elif kind == "subscript_expression":
                self._subscript(n)
                argument = n.child_by_field_name("argument")
                if argument is not None and self._text(argument) in self.pointers:
                    stack.append((argument, depth))   # p[<own element>]: replaced whole, with the access
                    continue
            elif kind == "pointer_expression" and self._text(n).lstrip().startswith("*"):
                return self._refuse(f"it dereferences a pointer ({self._text(n)})")
            elif kind == "field_expression" and any(c.type == "->" for c in n.children):
                return self._refuse(f"it reaches memory through {self._text(n)}")
            elif kind == "call_expression":
                self._call(n)
            elif kind in ("init_declarator", "declaration", "array_declarator", "pointer_declarator"):
                self._declared(n)
            inner = depth + (kind in _LOOPS)
            stack.extend((c, inner) for c in reversed(n.named_children))

    def _declared(self, node: ts.Node) -> None:
        # Every declarator of a declaration (`int a, b;`), each followed to its name.
        for target in node.children_by_field_name("declarator"):
            while target is not None and target.type != "identifier":
                target = target.child_by_field_name("declarator")
            if target is not None:
                name = self._text(target)
                if name in self.pointers or name in self.scalars or name in self.indices:
                    self._refuse(f"it declares '{name}', the name of a parameter or of the index")
                self.locals.add(name)

    def _is_declared_name(self, node: ts.Node) -> bool:
        parent = node.parent
        return parent is not None and parent.type in ("init_declarator", "array_declarator", "pointer_declarator",
                                                      "declaration") and declares(parent, node)

    def _identifier(self, node: ts.Node) -> None:
        name = self._text(node)
        if name in _BUILTIN_INDICES:
            return self._refuse(f"it uses {name} beyond the global thread id")
        if self._is_declared_name(node):
            return
        parent = node.parent
        if name in self.pointers:
            if parent is None or parent.type != "subscript_expression" or parent.child_by_field_name("argument") != node:
                return self._refuse(f"it uses the pointer '{name}' other than as {name}[{self.element}] "
                                    f"({self._text(parent) if parent is not None else name})")
            indices = parent.child_by_field_name("indices")
            index_text = squeeze(self._text(indices))[1:-1] if indices is not None else ""
            if index_text not in self.elements:
                return self._refuse(f"it reads or writes {name}[{index_text}], not its own element "
                                    f"{name}[{self.element}]")
            mode = body_facts.access_mode(self.parsed, self.frag, parent)
            self.accesses.append(Access(name, mode, self.frag.span(parent), self._plain_store(parent)))
        elif name in self.scalars or name in self.indices:
            if assigned(self.parsed.data, node):
                what = "its index" if name in self.indices else f"its parameter '{name}'"
                return self._refuse(f"it assigns {what}")
            if name == self.index and parent is not None and parent.type == "subscript_argument_list":
                argument = parent.parent.child_by_field_name("argument") if parent.parent is not None else None
                if argument is not None and self._text(argument) in self.pointers:
                    return      # p[i]: replaced whole, with the access
            self.names.append((name, self.frag.span(node)))

    def _plain_store(self, sub: ts.Node) -> bool:
        """`p[i] = e;` where the statement is one of the stage's own and e does not read p."""
        parent = sub.parent
        if parent is None or parent.type != "assignment_expression" or parent.child_by_field_name("left") != sub:
            return False
        op = parent.child_by_field_name("operator")
        statement = parent.parent
        if op is None or self._text(op) != "=" or statement is None or statement.id not in self.own:
            return False
        right = parent.child_by_field_name("right")
        name = self._text(sub.child_by_field_name("argument"))
        return right is None or not any(n.type == "identifier" and self._text(n) == name for n in descendants(right))

    def _subscript(self, node: ts.Node) -> None:
        argument = node.child_by_field_name("argument")
        if argument is not None and argument.type == "identifier":
            name = self._text(argument)
            if name in self.pointers or name in self.locals:
                return
            return self._refuse(f"it reads or writes memory it was not given as a parameter ({self._text(node)})")
        self._refuse(f"it reaches memory through {self._text(node)}")

    def _call(self, node: ts.Node) -> None:
        function = node.child_by_field_name("function")
        name = self._text(function) if function is not None else ""
        helper = self.helpers_known.get(name)
        if helper is not None:
            if helper.hazard:
                return self._refuse(f"it calls {name}, which {helper.hazard}")
            self.helpers.add(name)
