"""L007, L009, L010: launches of block-size agnostic kernels move to the configured block size.

What it does:
    For each launch whose block size is known (translator.ir.host_values) and is not
    `--block-size` T (default 256), asks whether its kernel, defined in the file, is
    block-size agnostic (translator.ir.block_agnostic). If it is, the block becomes T and
    a grid that is a ceiling division of the element count, `(n + B - 1) / B`, becomes
    `(n + T - 1) / T` (L007). A grid-stride kernel's constant grid is sized from the
    device (translator.passes.rebalance.resident_grid, L008); its other grids stay. Any
    other launch of a known size that is not T gets the reason it stays (L009), a
    warning when its block wastes part of a 64-lane wavefront (L010).
Legal when:
    Each thread's work is a function of its global id alone (no shared memory, barriers,
    warp operations or other use of the thread indices, in the kernel or the device
    functions it calls), the block and grid are one-dimensional, and, for a guarded
    kernel, the old grid provably covers the guard's bound (a ceiling division of that
    bound by the block size, or constants whose product is at least it), so that the new
    grid covers the same elements; and the kernel's `__launch_bounds__`, if it has one,
    allows the new block, and so does the bound the other files' launches give a kernel
    that they launch too (translator.universe). A launch wider than 1024 threads, which
    fails, stays. A template kernel's launch moves only when it writes out an arithmetic
    type for each type parameter (in a function template, each instantiation of it does:
    the one launch text moves for all of them, so its block must be one value; so too for
    a template of a header, whose instantiations are its includers': Options.template_index) and the file
    declares no explicit specialization of it (translator.ir.elementwise.instantiations): a
    class's operators could see the block.
Not handled:
    Kernels defined in another file (their launches are left), launches in macros,
    launches through `cudaLaunchKernel` or `hipLaunchKernelGGL`, block sizes read at run
    time, grids computed from values the function changes before the launch, a block or
    grid that is a dim3 written member by member (`dim3 block; block.x = 128;`: its
    bound is known, but its assignments are not rewritten; L009 says so).
Example:
    k<<<(n + 1023) / 1024, 1024>>>(x, n);  ->  k<<<(n + 255) / 256, 256>>>(x, n);
Safety:
    semantic: the same elements are computed by the same code, in blocks of another size.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.frontend import node_at
from translator.facts.block_agnostic import BlockAgnostic
from translator.facts.host_values import HostValues as HostValuesFact
from translator.ir.block_agnostic import Agnostic, NotAgnostic
from translator.ir.elementwise import deduced, instantiations, squeeze
from translator.ir.grids import ceil_division, components, one_dimensional, strip
from translator.facts.kernel_launches import KernelLaunches as KernelLaunchesFact
from translator.ir.host_values import HostValues
from translator.ir.model import LaunchSite
from translator.ir.nodes import balanced, descendants
from translator.passes import Context
from translator.passes.rebalance.resident_grid import RESIDENT_GRID, ResidentGrids

REBALANCED = rule(
    "L007", "rebalance-launch", NOTE, "a launch of a block-size agnostic kernel moves to the configured block size", """
Launch configurations tuned for NVIDIA are often poor on AMD: 32 threads fill half a
64-lane wavefront, and 1024 make HIP-Clang budget registers for 16 waves per block.
When a kernel's result cannot depend on its block size (each thread's work is a
function of its global id alone: no shared memory, barriers, warp operations or other
use of the thread indices) its launch moves to `--block-size` (default 256), and a grid
written as a ceiling division of the element count by the old block size is recomputed
for the new one. `--no-rebalance` turns this off.""",
    edits=True, safe=False, topic="launch-bounds",
    example="__global__ void k(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) x[i] = 0;\n}\nvoid f(float *x, int n) { k<<<(n + 1023) / 1024, 1024>>>(x, n); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(256) k(float *x, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] = 0;\n}\n"
                "void f(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); }\n")
NOT_REBALANCED = rule(
    "L009", "not-rebalanced", NOTE, "a launch keeps its block size, and why", """
The launch's block size is known and is not the configured one, but moving it could
change the kernel's result or the elements it covers: the reason is given (shared
memory or barriers, whose meaning depends on the block; warp operations; thread indices
used beyond the global id, as in two-dimensional indexing; a grid that is not a ceiling
division of the guard's bound by the block size; a `__launch_bounds__` smaller than the
configured block). The launch is left as written.""",
    topic="launch-bounds",
    example="__global__ void reverse(float *x) {\n    __shared__ float t[512];\n    t[threadIdx.x] = x[threadIdx.x];\n"
            "    __syncthreads();\n    x[threadIdx.x] = t[511 - threadIdx.x];\n}\n"
            "void f(float *x) { reverse<<<1, 512>>>(x); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(512) reverse(float *x) {\n"
                "    __shared__ float t[512];\n    t[threadIdx.x] = x[threadIdx.x];\n    __syncthreads();\n"
                "    x[threadIdx.x] = t[511 - threadIdx.x];\n}\nvoid f(float *x) { reverse<<<1, 512>>>(x); }\n")
WASTED_LANES = rule(
    "L010", "wavefront-not-filled", WARNING, "a block smaller than, or not a multiple of, a 64-lane wavefront stays", """
AMD's CDNA GPUs run 64-lane wavefronts: a block of 32 threads leaves half of each
wavefront idle, and a block of 96 a quarter of its second. The launch could not be moved
to the configured block size (the reason is given); choose a block size that is a
multiple of 64 where the kernel allows.""",
    topic="launch-bounds",
    example="__global__ void lanes(int *out) {\n    out[blockIdx.x * 32 + threadIdx.x] = threadIdx.x;\n}\n"
            "void f(int *out, int blocks) { lanes<<<blocks, 32>>>(out); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(32) lanes(int *out) {\n"
                "    out[blockIdx.x * 32 + threadIdx.x] = threadIdx.x;\n}\n"
                "void f(int *out, int blocks) { lanes<<<blocks, 32>>>(out); }\n")

WAVEFRONT = 64
MAX_THREADS = 1024      # threads per block, on CUDA and HIP alike


def _other_files_launches(ctx: Context, index, name: str) -> list:
    """The launches (and other uses) of `name` that the project's index holds in files
    other than this one: the file's own launches are the ones being moved, and bound
    nothing."""
    if not index.across_files(name):
        return []
    own = f"{ctx.source.path}:"
    return [use for use in index.of(name) if not use[0].startswith(own)]


def rebalance(ctx: Context) -> None:
    """Move or refuse each launch of a known block size that is not the configured one."""
    target = ctx.options.block_size
    values = ctx.facts.get(HostValuesFact)
    defined: dict[str, list] = {}
    for kernel in ctx.module.kernels:
        if kernel.body_span is not None:
            defined.setdefault(kernel.name, []).append(kernel)
    verdicts: dict[str, Agnostic | NotAgnostic] = {}
    grids = ResidentGrids(ctx)
    index = ctx.facts.get(KernelLaunchesFact)
    for site in ctx.module.launches:
        if site.in_macro or not site.clean:
            continue
        size = values.block_size(site)
        if len(size.values) != 1:
            continue            # unknown (said by the launch bounds) or several
        block = size.values[0]
        moves = block != target
        name = site.kernel.rsplit("::", 1)[-1]
        if block > MAX_THREADS:
            _refuse(ctx, site, name, block, f"a launch of {block} threads per block fails on CUDA and on HIP (at most "
                    f"{MAX_THREADS}): moving it would make a launch that fails run")
            continue
        if not moves and not (_strides(ctx, defined.get(name)) and _fixed_small_grid(values, site, block, grids)) \
                or block == 1 and _single_block(values, site):
            continue            # already right; or <<<1, 1>>>: one thread, on purpose
        if name not in defined:
            if block < WAVEFRONT or block % WAVEFRONT:
                _refuse(ctx, site, name, block, f"{name} is not defined in this file, so cu2hip cannot tell "
                                                "whether its result depends on the block size")
            continue
        if name not in verdicts:
            if len(defined[name]) > 1:
                verdicts[name] = NotAgnostic(name, "it is overloaded")
            else:
                verdicts[name] = ctx.facts.get(BlockAgnostic).of(defined[name][0])
        verdict = verdicts[name]
        others = _other_files_launches(ctx, index, name) if moves and isinstance(verdict, Agnostic) else []
        if others:
            known = [v for _, values, _ in others for v in values]
            if all(values for _, values, _ in others) and max(known) < target:
                _refuse(ctx, site, name, block, f"it is launched from other files too, and its launches there bound "
                        f"it at {max(known)} threads per block, fewer than {target}")
                continue
        if not moves and (isinstance(verdict, NotAgnostic) or verdict.form != "grid-stride"):
            continue            # its block is right, and its fixed grid is what the kernel needs
        types = instantiations(defined[name][0], site.template_args, ctx.parsed,
                               lambda: deduced(ctx.parsed, defined[name][0], site.args),
                               lambda written: values.type_arguments(written, site.span)) \
            if isinstance(verdict, Agnostic) else {}
        planned = verdict.reason if isinstance(verdict, NotAgnostic) else types if isinstance(types, str) else \
            _plan(values, site, defined[name][0], verdict, block, target, grids)
        if isinstance(planned, str):
            if moves:
                _refuse(ctx, site, name, block, planned)
            continue
        edits, grid_text, how = planned
        if moves:
            reason = (f"{name} moves from {block} to {target} threads per block ({how}): each thread's work is a "
                      "function of its global id alone, so the result does not depend on the block size")
            made = ctx.fix(REBALANCED, edits, reason)
            if made is not None:
                ctx.report(REBALANCED, site.config_span[0], reason, end=site.config_span[1], fix=made,
                           subject=name)
        if grid_text is not None:
            fixed = values.evaluate(_node(values, site.grid.span)).values[0]
            shown = site.grid.text if site.grid.text == str(fixed) else f"{site.grid.text} = {fixed}"
            grid_reason = (f"{name} is a grid-stride kernel launched on a fixed grid of {shown} blocks: its grid "
                           "is sized from the device's compute units at run time")
            made = ctx.fix(RESIDENT_GRID, Edit(site.grid.span[0], site.grid.span[1], grid_text.encode()),
                           grid_reason)
            if made is not None:
                ctx.report(RESIDENT_GRID, site.grid.span[0], grid_reason, end=site.grid.span[1], fix=made,
                           subject=name)
    grids.insert("a grid-stride kernel's grid is sized from the device's compute units at run time: the "
                 "function that asks the runtime for them, once")


def _plan(values: HostValues, site: LaunchSite, kernel, verdict: Agnostic, block: int, target: int,
          grids: ResidentGrids):
    """(edits for L007, a device-sized grid for L008 or None, what happens to the grid),
    or why the launch cannot move."""
    launch = _node(values, site.span)
    block_node, grid_node = _node(values, site.block.span), _node(values, site.grid.span)
    if launch is None or block_node is None or grid_node is None:
        return "its launch was not found in the file's parse"
    for what, node in (("block", strip(block_node)), ("grid", strip(grid_node))):
        if values.members(node) is not None:
            # Its text is one name: moving it means rewriting `name.x = ...;` and the grid's
            # division, which this pass does not do.
            name = _text(values, node)
            return (f"its {what} is the dim3 '{name}', whose members are assigned one by one ({name}.x = ...): "
                    "cu2hip does not rewrite those assignments")
    if not one_dimensional(values, components(values, block_node)):
        return f"its block ({site.block.text}) is not one-dimensional"
    grid_parts = components(values, grid_node)
    if not one_dimensional(values, grid_parts):
        return f"its grid ({site.grid.text}) is not one-dimensional"
    if len(site.args) != len(kernel.params):
        return "its arguments do not match the kernel's parameters one to one"
    if kernel.launch_bounds:
        bound = kernel.launch_bounds[0]
        allowed = values.evaluate(_node(values, bound.span)).values
        if len(allowed) != 1 or allowed[0] < target:
            return (f"its __launch_bounds__({bound.text}) allows {allowed[0] if len(allowed) == 1 else 'an unknown'} "
                    f"threads per block at most, fewer than {target}")
    block_edit = Edit(site.block.span[0], site.block.span[1], str(target).encode())
    division = ceil_division(values, grid_parts[0])
    if division is not None:
        if division.divisor != block:
            return f"its grid ({site.grid.text}) divides by {division.divisor}, not by its block size {block}"
        stale = _changed_before_launch(values, division.count, site)
        if stale:
            return stale
        count = _text(values, division.count)
        if verdict.form == "guard" and not _counts_bound(values, division.count, count, site, verdict):
            return (f"its grid counts {count}, which cu2hip cannot show is the guard's bound {verdict.bound} "
                    f"({_bound_at(site, verdict)} at this launch)")
        here = [site.config_span]
        grid_local = _declaration_used_only(values, strip(grid_node), here)
        if grid_local is not None:
            here.append(grid_local)
        literal = _block_literal(values, strip(block_node), here)
        if literal is not None and _follows(values, division, _text(values, strip(block_node))):
            return (Edit(literal.start_byte, literal.end_byte, str(target).encode()),), None, \
                f"{_text(values, strip(block_node))} becomes {target} and the grid, a ceiling division by it, follows"
        new = f"{_operand(division.count, count)} + {target - 1}) / {target}"
        inside = any(lo <= division.node.start_byte and division.node.end_byte <= hi for lo, hi in here)
        where = (division.node.start_byte, division.node.end_byte) if inside else site.grid.span
        return (block_edit, Edit(where[0], where[1], ("(" + new).encode())), None, f"the grid becomes ({new}"
    grid = values.evaluate(grid_parts[0])
    if verdict.form == "grid-stride":
        sized = grids.grid(launch, target) if len(grid.values) == 1 and grids.small(grid.values[0], block) else None
        if sized is not None:
            return (block_edit,), sized, "its grid is sized from the device"
        return (block_edit,), None, "a grid-stride loop covers its elements with any grid: the grid stays"
    bound = values.evaluate(_node(values, site.args[verdict.bound_params[0]].span)) \
        if len(verdict.bound_params) == 1 else None
    if len(grid.values) == 1 and bound is not None and len(bound.values) == 1:
        count = _bound_at(site, verdict)
        threads = grid.values[0] * block
        named = count if count == str(bound.values[0]) else f"{count} = {bound.values[0]}"
        if threads < bound.values[0]:
            return (f"its grid of {grid.values[0]} blocks runs {threads} threads, fewer than the guard's bound "
                    f"{named}: another block size would change which elements are computed")
        new = f"({count} + {target - 1}) / {target}"
        return (block_edit, Edit(site.grid.span[0], site.grid.span[1], new.encode())), None, \
            f"its {grid.values[0]} blocks covered the bound {named}; the grid becomes {new}"
    return (f"its grid ({site.grid.text}) is not a ceiling division of the guard's bound by the block size, so "
            "cu2hip cannot show that another grid covers the same elements")


def _refuse(ctx: Context, site: LaunchSite, name: str, block: int, reason: str) -> None:
    if block < WAVEFRONT or block % WAVEFRONT:
        waste = "less than one 64-lane wavefront" if block < WAVEFRONT else "not a multiple of the 64-lane wavefront"
        ctx.report(WASTED_LANES, site.block.span[0], f"{name} is launched with {block} threads per block, {waste}, "
                   f"and the launch cannot move to {ctx.options.block_size}: {reason}", end=site.block.span[1],
                   subject=name)
    else:
        ctx.report(NOT_REBALANCED, site.block.span[0], f"{name} keeps {block} threads per block: {reason}",
                   end=site.block.span[1], subject=name)


def _strides(ctx: Context, kernels) -> bool:
    """Whether the kernel, defined in the file, may be a grid-stride loop (mentions gridDim)."""
    return bool(kernels) and len(kernels) == 1 and \
        b"gridDim" in ctx.parsed.data[kernels[0].body_span[0]:kernels[0].body_span[1]]


def _fixed_small_grid(values: HostValues, site: LaunchSite, block: int, grids: ResidentGrids) -> bool:
    """Whether the launch's grid is a constant too small to fill the largest GPU."""
    grid = _node(values, site.grid.span)
    found = values.evaluate(grid) if grid is not None else None
    return found is not None and len(found.values) == 1 and grids.small(found.values[0], block)


def _single_block(values: HostValues, site: LaunchSite) -> bool:
    grid = _node(values, site.grid.span)
    return grid is not None and values.evaluate(grid).values == (1,)


def _node(values: HostValues, span) -> ts.Node | None:
    return node_at(values.parsed.main.root, *span)


def _text(values: HostValues, node: ts.Node) -> str:
    return values.parsed.data[node.start_byte:node.end_byte].decode("utf-8", "replace")


_SIMPLE = ("identifier", "number_literal", "field_expression", "call_expression", "subscript_expression",
           "parenthesized_expression", "qualified_identifier")


def _operand(node: ts.Node, text: str) -> str:
    """`text` (of `node`) as the left operand of `+`, parenthesized where it needs it."""
    node = strip(node) if node.type == "parenthesized_expression" else node
    if node.type in _SIMPLE:
        return text
    if node.type == "binary_expression":
        op = node.child_by_field_name("operator")
        if op is not None and op.type in ("+", "-", "*", "/", "%"):
            return text
    return f"({text})"


def _declaration_used_only(values: HostValues, node: ts.Node, allowed: list) -> tuple[int, int] | None:
    """The span of the declaration of the local `node` names (an identifier initialized
    once and never written), when its function mentions it nowhere else than there and
    in the `allowed` spans; else None."""
    init = values.initializer(node) if node.type == "identifier" else None
    declarator = init.parent if init is not None else None
    function = values.function_of(node)
    body = function.child_by_field_name("body") if function is not None else None
    if declarator is None or body is None:
        return None
    spans = allowed + [(declarator.start_byte, declarator.end_byte)]
    pattern = re.compile(rb"(?<![\w$])" + re.escape(node.text) + rb"(?![\w$])")
    for match in pattern.finditer(values.parsed.cleaned, body.start_byte, body.end_byte):
        if not any(lo <= match.start() and match.end() <= hi for lo, hi in spans):
            return None
    return declarator.start_byte, declarator.end_byte


def _block_literal(values: HostValues, node: ts.Node, allowed: list) -> ts.Node | None:
    """The literal a launch's block variable is initialized with (`const int threads = 128;`,
    `dim3 block(128);`), when nothing but this launch (and its grid's local) uses the
    variable: changing it changes this launch alone."""
    if _declaration_used_only(values, node, allowed) is None:
        return None
    init = values.initializer(node)
    if init.type == "call_expression":
        init = init.child_by_field_name("arguments")
    if init is not None and init.type in ("argument_list", "initializer_list"):
        parts = [c for c in init.named_children if c.type != "comment"]
        init = parts[0] if len(parts) == 1 else None
    return init if init is not None and init.type == "number_literal" else None


def _follows(values: HostValues, division, name: str) -> bool:
    """Whether the division's B (or B - 1) is written with the block variable `name`
    (`name`, `name.x`, `name - 1`), so that the grid follows a change of it."""
    for mention in division.mentions:
        text = squeeze(_text(values, strip(mention)))
        text = text[:-2] if text.endswith("-1") else text
        if text.strip("()") not in (name, f"{name}.x"):
            return False
    return True


def _changed_before_launch(values: HostValues, count: ts.Node, site: LaunchSite) -> str | None:
    """Why the count, computed before the launch (in a local's initializer), may not be
    what the same expression gives at the launch; None when it is, or is at the launch."""
    if site.config_span[0] <= count.start_byte and count.end_byte <= site.config_span[1]:
        return None
    for node in descendants(count):
        if node.type == "call_expression":
            return f"its grid was computed before the launch from a call ({_text(values, node)})"
        if node.type == "identifier" and values.written(_text(values, node), count):
            return f"its grid was computed from {_text(values, node)}, which the function changes"
    return None


def _bound_at(site: LaunchSite, verdict: Agnostic) -> str:
    """The guard's bound in the launch's arguments."""
    if len(verdict.bound_params) == 1 and squeeze(verdict.bound) == verdict.bound_names[0]:
        return site.args[verdict.bound_params[0]].text
    text = verdict.bound
    for name, position in sorted(zip(verdict.bound_names, verdict.bound_params), key=lambda p: -len(p[0])):
        text = _replace_word(text, name, f"({site.args[position].text})")
    return f"({text})"


def _replace_word(text: str, word: str, by: str) -> str:
    return re.sub(rf"(?<![\w$]){re.escape(word)}(?![\w$])", lambda _: by, text)


def _counts_bound(values: HostValues, count: ts.Node, count_text: str, site: LaunchSite, verdict: Agnostic) -> bool:
    """Whether the grid's count is the guard's bound at this launch: the same text (the
    bound's parameters replaced by the launch's arguments), or the same known value."""
    def bare(text: str) -> str:
        text = squeeze(text)
        while text.startswith("(") and text.endswith(")") and balanced(text[1:-1]):
            text = text[1:-1]
        return text
    if bare(count_text) == bare(_bound_at(site, verdict)):
        return True
    if len(verdict.bound_params) == 1:
        argument = _node(values, site.args[verdict.bound_params[0]].span)
        mine, theirs = values.evaluate(count), values.evaluate(argument) if argument is not None else None
        return theirs is not None and len(mine.values) == 1 and mine.values == theirs.values \
            and squeeze(verdict.bound) == verdict.bound_names[0]
    return False
