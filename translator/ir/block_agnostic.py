"""Block-size agnostic kernels: those whose result cannot depend on the block size they
are launched with, so that a launch may move to another block size.

A kernel is agnostic when each thread's work is a function of its global thread id
alone: its body is one of the elementwise shapes (translator.ir.elementwise.shape: an
index from `blockIdx.x * blockDim.x + threadIdx.x` under a guard against a bound, or a
grid-stride loop, which may start from a local holding the global id and step by a local
holding the stride), and nothing else in it, or in the `__device__` functions it calls,
sees the block: no `threadIdx`, `blockIdx`, `blockDim`, `gridDim` or `warpSize` outside
the index and the loop's stride, no shared memory, no barriers, no warp operations, no
cooperative-groups block or grid query (`this_thread_block().thread_rank()`, `.size()`,
`this_grid().size()`, `num_blocks()`, `group_dim()`: each is block dependence). Calls are
followed through the call graph's known edges only: a call it cannot follow (a function
pointer, a table of them, a functor of a template parameter's type, a virtual or member
call, a function declared but not defined here; translator.ir.calls) may do anything, so
the kernel is taken as block-dependent, with that call as the reason; in a template kernel
`T(x)` and `static_cast<T>(x)` of its own type parameter T are casts, on the condition,
checked at each launch that moves (translator.ir.elementwise.instantiation), that the
launch writes T out as an arithmetic type (a class's constructor or operators could see
the block). Macros
(translator.ir.macros) are seen through: the index may be a macro's expansion
(`#define IDX (blockIdx.x * blockDim.x + threadIdx.x)`), and any other macro used in the
kernel or a helper it reaches whose expansion sees the block (`#define TID threadIdx.x`),
or that cannot be expanded (several definitions, `#undef`), makes it block-dependent,
with the macro's name as the reason. What
the threads do with their index is free: neighbour reads, atomics, loops, early returns
(each thread's work is the same whichever block holds it). A grid-stride loop's passes
must also be independent of each other, since how many passes a thread makes (and which
elements they visit) is what the grid and block decide: the loop may not change a kernel
parameter (`in += i`, `pass++`), its index outside its update, take the address of
either, pass either to a function of the file that takes it by non-const reference, or
use a macro whose expansion changes either. Names the loop's body declares are fresh
each pass and free.

For a guarded kernel the launch must still cover the guard's bound (the number of
threads at least the bound): the pass checks that on the launch's grid. A grid-stride
kernel covers its bound with any grid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at
from translator.ir.calls import call_graph
from translator.ir.elementwise import not_analysable, shape, squeeze, type_parameter_names
from translator.ir.macros import expansion_of_use, macros, uses
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Kernel, Span
from translator.ir.nodes import assigned, descendants

# What a __device__ function may not hold for a kernel calling it to be agnostic.
_SEES_THE_BLOCK = re.compile(r"\b(threadIdx|blockIdx|blockDim|gridDim|warpSize|__shared__|__syncthreads\w*|"
                             r"this_thread_block|tiled_partition|asm|this_grid|this_multi_grid|coalesced_threads|"
                             r"this_cluster|thread_block|grid_group|thread_block_tile|num_blocks|num_threads|"
                             r"group_dim|dim_blocks|dim_threads|block_rank|block_index|group_index|thread_index|"
                             r"thread_rank|meta_group_rank|meta_group_size|"
                             + "|".join(sorted(WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS)) + r")\b")


# Cooperative groups in a kernel's own body: a group, its rank or size, the grid's.
_GROUP_QUERY = re.compile(r"\b(this_thread_block|this_grid|this_multi_grid|tiled_partition|coalesced_threads|"
                          r"this_cluster|thread_block|grid_group|thread_block_tile|coalesced_group)\b")


@dataclass(frozen=True)
class Agnostic:
    kernel: str
    form: str                  # "guard" or "grid-stride"
    bound: str                 # the guard's bound as written (the kernel's scalar parameters)
    bound_params: tuple[int, ...]   # the positions of the parameters the bound names, in order of use
    bound_names: tuple[str, ...]


@dataclass(frozen=True)
class NotAgnostic:
    kernel: str
    reason: str


def analyse(parsed: ParsedFile, kernel: Kernel) -> Agnostic | NotAgnostic:
    """Whether the kernel's result is independent of its block size, and if so its form
    and the bound its threads must cover. (What no call names, a class's operators and
    constructors, is checked once per file: translator.ir.implicit.)"""
    def refuse(reason: str) -> NotAgnostic:
        return NotAgnostic(kernel.name, reason)
    unusable = not_analysable(kernel)
    if unusable:
        return refuse(unusable)
    if kernel.shared:
        decl = kernel.shared[0]
        by_block = decl.is_extern or "blockDim" in (decl.size or "")
        return refuse(f"it uses shared memory ({decl.name}{', sized by the block' if by_block else ''}): "
                      "its threads cooperate within a block")
    if kernel.barriers:
        return refuse(f"it synchronizes its block ({kernel.barriers[0].text.splitlines()[0]})")
    if kernel.warp_ops:
        return refuse(f"it uses a warp operation ({kernel.warp_ops[0].text.splitlines()[0]}), whose lanes depend "
                      "on the block's shape")
    body_text = parsed.data[kernel.body_span[0]:kernel.body_span[1]].decode("utf-8", "replace")
    group = _GROUP_QUERY.search(body_text)
    if group is not None:
        return refuse(f"it queries a cooperative group ({group.group(1)}), whose answer depends on the block")
    frag = parsed.main
    body = node_at(frag.root, *kernel.body_span)
    if body is None:
        return refuse("its body was not found in the file's parse")
    found = shape(parsed, frag, body)
    if isinstance(found, str):
        return refuse(found.replace("elementwise shapes", "shapes whose work depends on the global thread id "
                                                          "alone"))
    form, _, _, bound, _ = found
    allowed = _index_spans(frag, body, form)
    stray = next((use for use in kernel.index_uses if not any(lo <= use.span[0] and use.span[1] <= hi
                                                              for lo, hi in allowed)), None)
    if stray is not None:
        what = "two-dimensional indexing" if stray.text.endswith((".y", ".z")) else "the block's geometry"
        return refuse(f"it uses {squeeze(stray.text)} beyond the global thread id ({what})")
    names = [p.name for p in kernel.params]
    bound_params, bound_names = [], []
    for node in descendants(bound):
        if node.type == "identifier":
            name = frag.text(parsed.data, node)
            if name not in names or kernel.params[names.index(name)].is_pointer:
                return refuse(f"its guard's bound '{frag.text(parsed.data, bound)}' uses '{name}', not a scalar "
                              "parameter")
            bound_params.append(names.index(name))
            bound_names.append(name)
    table = macros(parsed)
    hidden = _seen_through_macros(parsed, table, body, allowed)
    if hidden is not None:
        return refuse(hidden)
    graph = call_graph(parsed)
    if form == "grid-stride":
        carried = _carried(parsed, table, graph, body, found[1], names)
        if carried is not None:
            return refuse(f"its grid-stride loop {carried}: what one pass leaves for the next depends on how "
                          "many passes its thread makes, which the grid and block decide")
    types = type_parameter_names(kernel)      # T(x), static_cast<T>(x): casts where the launch that
    unknown = graph.first_unknown(kernel.name, types)    # moves makes T arithmetic (`instantiation`)
    if unknown is not None:
        where, callee, why = unknown
        via = "" if where == kernel.name else f" (through {where})"
        return refuse(f"it makes a call cu2hip cannot follow{via}: {why}, so its result may depend on the block "
                      "size")
    for helper in graph.reached(kernel.name):
        seen = _helper_sees_the_block(parsed, table, graph, helper)
        if seen is not None:
            return refuse(f"it calls {helper}, {seen}")
    return Agnostic(kernel.name, form, frag.text(parsed.data, bound), tuple(bound_params), tuple(bound_names))


def _helper_sees_the_block(parsed: ParsedFile, table, graph, helper: str) -> str | None:
    """How the device function `helper` itself sees the block ("which uses blockDim",
    "where it uses the macro ..."), or None."""
    for function in graph.by_name.get(helper, ()):
        seen = _SEES_THE_BLOCK.search(parsed.data[function.body_span[0]:function.body_span[1]].decode(
            "utf-8", "replace"))
        if seen is not None:
            return f"which uses {seen.group(1)}"
        node = function.node(parsed)
        hidden = _seen_through_macros(parsed, table, node, []) if node is not None else None
        if hidden is not None:
            return f"where {hidden.removeprefix('it ')}"
    return None


def _seen_through_macros(parsed: ParsedFile, table, node: ts.Node, allowed: list[Span]) -> str | None:
    """Why a macro used under `node` (outside the `allowed` spans, where the global id is
    read through its expansion) may see the block: its expansion holds a thread index or
    anything else that sees the block, or cannot be expanded; None when none does."""
    frag = parsed.main
    for name, use in uses(table, frag, parsed.data, node):
        lo, hi = frag.span(use)
        if any(a <= lo and hi <= b for a, b in allowed):
            continue
        expansion = expansion_of_use(table, frag, parsed.data, use)
        if not expansion.known:
            return f"it uses the macro {name}, which cu2hip cannot see through: {expansion.reason}"
        seen = _SEES_THE_BLOCK.search(expansion.value) or _GROUP_QUERY.search(expansion.value)
        if seen is not None:
            macro = table.get(name)
            return f"it uses the macro {name}{macro.where}, which expands to '{macro.body}': {seen.group(1)} " \
                   "beyond the global thread id sees the block"
    return None


def _carried(parsed: ParsedFile, table, graph, body: ts.Node, index: str, params: list[str]) -> str | None:
    """How a grid-stride loop carries state from one pass to the next, or None: it assigns
    a kernel parameter or (outside its update) its index, takes the address of one, passes
    one to a file's function whose parameter is a reference, or uses a macro whose
    expansion does any of these. Names declared in the loop's body are fresh each pass."""
    frag = parsed.main
    loop = [c for c in body.named_children if c.type != "comment"][-1]      # after the locals it starts from
    update = loop.child_by_field_name("update")
    watched = set(params) | {index}
    for node in descendants(loop):
        if node.type != "identifier" or update is not None and update.start_byte <= node.start_byte < update.end_byte:
            continue
        name = frag.text(parsed.data, node)
        if name not in watched or name in _declared_inside(parsed, loop, node):
            continue
        outer = node            # `(x)++`, `&(x)`: the parentheses around the name
        while outer.parent is not None and outer.parent.type == "parenthesized_expression" \
                and outer.parent.named_child_count == 1:
            outer = outer.parent
        parent = outer.parent
        if assigned(parsed.data, outer, parent):
            if parent.type == "pointer_expression":
                return f"takes the address of {name} (&{name}), through which it may change"
            return f"changes {name} ({squeeze(frag.text(parsed.data, parent))})"
        call = parent.parent if parent is not None and parent.type == "argument_list" else None
        callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        if callee is not None and callee.type == "identifier":
            called = frag.text(parsed.data, callee)
            position = [a for a in parent.named_children if a.type != "comment"].index(outer)
            if _by_reference(parsed, graph, called, position):
                return f"passes {name} to {called}, which takes it by reference and may change it"
    for name, use in uses(table, frag, parsed.data, loop):
        expansion = expansion_of_use(table, frag, parsed.data, use)
        if expansion.known:
            for changed in watched:
                if _changing(changed).search(expansion.value):
                    return f"uses the macro {name}, whose expansion '{squeeze(expansion.value)}' changes {changed}"
    return None


def _changing(name: str) -> re.Pattern:
    n = re.escape(name)
    return re.compile(rf"(?<![\w.>])\b{n}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|(?:\+\+|--)\s*{n}\b|"
                      rf"(?<![\w.>])\b{n}\s*(?:\+\+|--)|&\s*{n}\b(?!\s*[\[(.])")


def _declared_inside(parsed: ParsedFile, loop: ts.Node, node: ts.Node) -> set[str]:
    """The names declared in the loop's body, before `node`, in the blocks that enclose it
    (they shadow a parameter of the same name)."""
    frag = parsed.main
    names: set[str] = set()
    body = loop.child_by_field_name("body")
    scope = node.parent
    while scope is not None and body is not None and scope.start_byte >= body.start_byte \
            and scope.end_byte <= body.end_byte:
        for child in scope.named_children:
            if child.type == "declaration" and child.start_byte < node.start_byte:
                for d in child.children_by_field_name("declarator"):
                    while d is not None and d.type not in ("identifier",):
                        d = d.child_by_field_name("declarator")
                    if d is not None:
                        names.add(frag.text(parsed.data, d))
        if scope.id == body.id:
            break
        scope = scope.parent
    return names


def _by_reference(parsed: ParsedFile, graph, name: str, position: int) -> bool:
    """Whether a function of the file named `name` takes its argument at `position` by
    (non-const) reference, in any of its definitions."""
    frag = parsed.main
    for function in graph.by_name.get(name, ()):
        node = function.node(parsed)
        declarator = node.child_by_field_name("declarator") if node is not None else None
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        if params is None:
            return True
        listed = [p for p in params.named_children if p.type != "comment"]
        if position >= len(listed):
            return any(p.type == "variadic_parameter_declaration" for p in listed)
        written = frag.text(parsed.data, listed[position])
        if "&" in written and not re.match(r"\s*const\b", written):
            return True
    return False


def _index_spans(frag, body: ts.Node, form: str) -> list[Span]:
    """Where the thread indices may appear: the index's declaration, and for a
    grid-stride loop its update (the stride) and the locals of the global id and the
    stride that it starts from and adds."""
    statements = [c for c in body.named_children if c.type != "comment"]
    if form == "guard":
        return [frag.span(statements[0])]
    *prefix, loop = statements       # the locals of the global id and the stride, then the loop
    return [frag.span(n) for n in prefix] + [frag.span(n) for n in (loop.child_by_field_name("initializer"),
                                                                   loop.child_by_field_name("update")) if n is not None]


