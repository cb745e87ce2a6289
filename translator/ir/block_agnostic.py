"""Block-size agnostic kernels: those whose result cannot depend on the block size they
are launched with, so that a launch may move to another block size.

A kernel is agnostic when each thread's work is a function of its global thread id
alone: its body is one of the elementwise shapes (translator.ir.elementwise.shape: an
index from `blockIdx.x * blockDim.x + threadIdx.x` under a guard against a bound, or a
grid-stride loop), and nothing else in it, or in the `__device__` functions it calls,
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
(each thread's work is the same whichever block holds it).

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
from translator.ir.nodes import descendants

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
    and the bound its threads must cover."""
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
    types = type_parameter_names(kernel)      # T(x), static_cast<T>(x): casts where the launch that
    unknown = graph.first_unknown(kernel.name, types)    # moves makes T arithmetic (`instantiation`)
    if unknown is not None:
        where, callee, why = unknown
        via = "" if where == kernel.name else f" (through {where})"
        return refuse(f"it makes a call cu2hip cannot follow{via}: {why}, so its result may depend on the block "
                      "size")
    for helper in graph.reached(kernel.name):
        for function in graph.by_name.get(helper, ()):
            seen = _SEES_THE_BLOCK.search(parsed.data[function.body_span[0]:function.body_span[1]].decode(
                "utf-8", "replace"))
            if seen is not None:
                return refuse(f"it calls {helper}, which uses {seen.group(1)}")
            node = function.node(parsed)
            hidden = _seen_through_macros(parsed, table, node, []) if node is not None else None
            if hidden is not None:
                return refuse(f"it calls {helper}, where {hidden.removeprefix('it ')}")
    return Agnostic(kernel.name, form, frag.text(parsed.data, bound), tuple(bound_params), tuple(bound_names))


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


def _index_spans(frag, body: ts.Node, form: str) -> list[Span]:
    """Where the thread indices may appear: the index's declaration, and for a
    grid-stride loop its update (the stride)."""
    statements = [c for c in body.named_children if c.type != "comment"]
    if form == "guard":
        return [frag.span(statements[0])]
    loop = statements[0]
    return [frag.span(n) for n in (loop.child_by_field_name("initializer"), loop.child_by_field_name("update"))
            if n is not None]


