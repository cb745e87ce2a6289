"""W223, W224: `warpSize` as the row width of a two-dimensional block.

What it does:
    A kernel that linearises its thread index as `threadIdx.y * warpSize + threadIdx.x`
    (or `threadIdx.x + warpSize * threadIdx.y`, any order) uses `warpSize` for the width
    of a block row: on CUDA it is 32, and the host launches blocks 32 wide (`dim3(32, 2)`),
    so the expression is the thread's place in its block. On CDNA `warpSize` is 64: the
    same expression skips 32 of every 64 places (threads 0-31 then 64-95 of a 32x2 block)
    and indexes past what the host sized. Where every launch of the kernel in the file has
    a known block whose x width is 32 the `warpSize` becomes `32`, the width it stood for
    (W223); where a launch's block is not known, or is not 32 wide, or the kernel has no
    launch in the file, it is reported with the value to write (W224).
Legal when:
    On CUDA `warpSize` is 32, so writing 32 changes nothing there; the host's blocks are
    32 wide, so on HIP the expression is again each thread's place in its block.
Not handled:
    The same in a `__device__` helper (its blocks are its callers' launches'); `warpSize`
    as the row width in other spellings (`threadIdx.y * warpSize` alone, a local holding
    `warpSize`); launches in other files (reported, not rewritten).
Example:
    int t = threadIdx.y * warpSize + threadIdx.x;  ... k<<<n / 64, dim3(32, 2)>>>(...)
    -> int t = threadIdx.y * 32 + threadIdx.x;
Safety:
    semantic: CUDA's value of the expression is kept; the launches say what it meant.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.facts.host_values import HostValues as HostValuesFact
from translator.frontend import node_at
from translator.ir.grids import components, strip
from translator.ir.nodes import descendants
from translator.ir.warp import clean_at
from translator.passes import Context

ROW = rule(
    "W223", "warpsize-row-width", NOTE, "`warpSize` as the width of a block row becomes the block's width, 32", """
`threadIdx.y * warpSize + threadIdx.x` is a thread's place in its block when the block's
rows are `warpSize` threads wide: on CUDA, where `warpSize` is 32, the host launches
blocks 32 wide (`dim3(32, 2)`). On CDNA `warpSize` is 64 and the blocks stay 32 wide, so
the expression skips half of every 64 places and indexes past the data. Every launch of
the kernel has a block 32 wide, so `warpSize` is written as 32: CUDA's value, and the
width of the launched rows.""",
    edits=True, safe=False, topic="warp-size",
    example="__global__ void k(float *out) {\n"
            "  int t = threadIdx.y * warpSize + threadIdx.x;\n"
            "  out[blockIdx.x * 64 + t] = t;\n}\n"
            "void run(float *out) { k<<<4, dim3(32, 2)>>>(out); }\n",
    translation="__global__ void k(float *out) {\n"
                "  int t = threadIdx.y * 32 + threadIdx.x;\n"
                "  out[blockIdx.x * 64 + t] = t;\n}\n"
                "void run(float *out) { k<<<4, dim3(32, 2)>>>(out); }\n",
    options=("--target", "cuda", "--ignore", "L"))
ROW_UNKNOWN = rule(
    "W224", "warpsize-row-width-unknown", WARNING, "`warpSize` is used as the width of a block row", """
`threadIdx.y * warpSize + threadIdx.x` treats a block row as `warpSize` threads: 32 on
CUDA, 64 on CDNA. Unless the blocks are `warpSize` wide on HIP too, the expression skips
places or overlaps rows there. The launches of the kernel do not say that its blocks are
32 wide (one is not known, not 32 wide, or in another file), so nothing is rewritten:
write the launched width (`32`, CUDA's value, for blocks of 32 columns) or
`blockDim.x` for any width.""",
    topic="warp-size",
    example="__global__ void k(float *out) {\n"
            "  int t = threadIdx.y * warpSize + threadIdx.x;\n"
            "  out[blockIdx.x * 64 + t] = t;\n}\n",
    options=("--target", "cuda", "--ignore", "L"))
RULES = (ROW, ROW_UNKNOWN)

_SPACE = re.compile(r"\s+")


def _strip(node: ts.Node) -> ts.Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _rows(ctx: Context, body: ts.Node):
    """The `warpSize` identifiers of `threadIdx.y * warpSize + threadIdx.x` in a body."""
    data = ctx.parsed.data

    def text(n: ts.Node) -> str:
        return _SPACE.sub("", data[n.start_byte:n.end_byte].decode("utf-8", "replace"))

    for n in descendants(body):
        if n.type != "binary_expression" or text(n.child_by_field_name("operator")) != "+":
            continue
        left, right = _strip(n.child_by_field_name("left")), _strip(n.child_by_field_name("right"))
        for product, other in ((left, right), (right, left)):
            if text(other) != "threadIdx.x" or product.type != "binary_expression" or \
                    text(product.child_by_field_name("operator")) != "*":
                continue
            a, b = _strip(product.child_by_field_name("left")), _strip(product.child_by_field_name("right"))
            for size, y in ((a, b), (b, a)):
                if size.type == "identifier" and text(size) == "warpSize" and text(y) == "threadIdx.y":
                    yield n, size


def _widths(ctx: Context, values, name: str) -> list[int | None]:
    """The x width of each of the file's launches of `name` (None where not known)."""
    widths = []
    for site in ctx.module.launches:
        if site.kernel.rsplit("::", 1)[-1] != name:
            continue
        node = node_at(ctx.parsed.main.root, *site.block.span)
        if node is None or site.in_macro:
            widths.append(None)
            continue
        members = values.members(strip(node))      # `dim3 b; b.x = 32; b.y = 2;`: b.x, not the product
        if members is not None:
            found = members[0].values if isinstance(members, list) else ()
        else:
            parts = components(values, node)
            found = values.evaluate(parts[0]).values if parts else ()
        widths.append(found[0] if len(found) == 1 else None)
    return widths


def run(ctx: Context) -> None:
    if b"threadIdx.y" not in ctx.parsed.data:
        return
    values = None
    for kernel in ctx.module.kernels:
        if kernel.body_span is None:
            continue
        body = node_at(ctx.parsed.main.root, *kernel.body_span)
        if body is None:
            continue
        found = list(_rows(ctx, body))
        if not found:
            continue
        values = values or ctx.facts.get(HostValuesFact)
        widths = _widths(ctx, values, kernel.name)
        for expression, size in found:
            span = (size.start_byte, size.end_byte)
            written = ctx.parsed.data[expression.start_byte:expression.end_byte].decode("utf-8", "replace")
            if widths and all(w == 32 for w in widths) and clean_at(ctx.parsed, span):
                ctx.fix(ROW, Edit(*span, b"32"), f"'{written}' is a thread's place in blocks 32 wide "
                        f"(every launch of {kernel.name}): warpSize there is the row width, 32, not the "
                        "wavefront's 64")
                continue
            if ctx.round > 0:
                continue
            if not widths:
                why = f"{kernel.name} has no launch in this file"
            elif any(w is None for w in widths):
                why = f"a launch of {kernel.name} has a block whose width is not known here"
            else:
                why = f"{kernel.name}'s launches have blocks {', '.join(str(w) for w in sorted(set(widths)))} wide"
            ctx.report(ROW_UNKNOWN, expression.start_byte, f"'{written}' uses warpSize as the width of a block row "
                       f"(32 on CUDA, 64 on CDNA) and {why}: write 32 (CUDA's value) if the blocks are 32 wide, "
                       "or blockDim.x for any width", end=expression.end_byte, subject="warpSize")
