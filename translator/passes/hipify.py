"""H0xx hipify: rename CUDA APIs to HIP, as HIPIFY does, from the mapping tables.

What it does:
    Renames every CUDA function, type, enumerator, macro, device function and header
    that the tables map (translator/data, generated from HIPIFY's tables), in code,
    `#if` branches and `#define` bodies alike; leaves strings and comments alone.
    Structural rewrites where HIP differs: `cudaMemcpyToSymbol(sym, ...)` and the other
    symbol APIs get `HIP_SYMBOL(sym)`; `cudaEventCreate(&e, flags)` and the 3-argument
    `cudaGraphInstantiate` become their `WithFlags` forms; `cub::` becomes `hipcub::`;
    with --hip-kernel-execution-syntax, `k<<<g, b, s, st>>>(args)` becomes
    `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)` (`HIP_KERNEL_NAME(k<T>)`
    for template kernels). Warp-sync builtins are emitted only where the target ROCm
    version has them; below HIP 6.2 a full-mask call becomes the mask-less builtin.
Legal when:
    Always for renames (a table fact). Structural rewrites only on subtrees with no
    parse error around them (Fragment.clean).
Not handled:
    APIs with no HIP equivalent, or none in the target version: one diagnostic per
    use, no edit. Partial warp masks below HIP 6.2. `__syncwarp` below HIP 7.0.
Example:
    cudaMemcpyToSymbol(c, h, n)  ->  hipMemcpyToSymbol(HIP_SYMBOL(c), h, n)
Safety:
    safe (renames and table-driven rewrites).
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator import diagnostics as dg
from translator.edits import Edit, Fix, replace
from translator.frontend import Fragment, query
from translator.mapping import ApiEntry, Version, version_at_least, version_str
from translator.passes import Context, register
from translator.scan import NAMESPACES

PASS = "H001"

ROC_LIBRARIES = frozenset({"blas", "rand", "sparse", "solver"})
LIBRARY_NAMES = {"blas": "rocBLAS", "rand": "rocRAND", "sparse": "rocSPARSE", "solver": "rocSOLVER",
                 "dnn": "MIOpen"}

# Which argument of each symbol API names a __device__/__constant__ variable: HIP takes
# its address through HIP_SYMBOL().
SYMBOL_ARGUMENT = {
    "cudaMemcpyToSymbol": 0, "cudaMemcpyToSymbolAsync": 0,
    "cudaMemcpyFromSymbol": 1, "cudaMemcpyFromSymbolAsync": 1,
    "cudaGetSymbolAddress": 1, "cudaGetSymbolSize": 1,
    "cudaGraphAddMemcpyNodeToSymbol": 4, "cudaGraphAddMemcpyNodeFromSymbol": 5,
    "cudaGraphMemcpyNodeSetParamsToSymbol": 1, "cudaGraphMemcpyNodeSetParamsFromSymbol": 2,
    "cudaGraphExecMemcpyNodeSetParamsToSymbol": 2, "cudaGraphExecMemcpyNodeSetParamsFromSymbol": 3,
}
# C++ overloads CUDA offers under one name, HIP under two: (argument count -> HIP name).
OVERLOADS = {
    "cudaEventCreate": {2: "hipEventCreateWithFlags"},
    "cudaGraphInstantiate": {3: "hipGraphInstantiateWithFlags"},
}

# Warp-sync builtins: HIP has them from 6.2 (opt-in with HIP_ENABLE_WARP_SYNC_BUILTINS
# until 7.0) with a 64-bit mask; below that, the mask-less builtins are the documented
# equivalent for a full mask (reference/FACTS.md section 4).
WARP_SYNC_SINCE: Version = (6, 2)
WARP_SYNC_DEFAULT_SINCE: Version = (7, 0)
MASKLESS = {
    "__shfl_sync": "__shfl", "__shfl_up_sync": "__shfl_up", "__shfl_down_sync": "__shfl_down",
    "__shfl_xor_sync": "__shfl_xor", "__ballot_sync": "__ballot", "__any_sync": "__any",
    "__all_sync": "__all",
}
WARP_SYNC_7 = {"__syncwarp", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
               "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"}
FULL_MASK = re.compile(r"(0x[fF]{8}|0x[fF]{16}|4294967295|~0|-1|0xffffffff)[uUlL]*\Z")
FULL_MASK_64 = "0xffffffffffffffffull"
WARP_MASK_FUNCTIONS = set(MASKLESS) | {"__match_any_sync", "__match_all_sync"} | (WARP_SYNC_7 - {"__syncwarp"})

_CALLS = "(call_expression function: [(identifier) (qualified_identifier)] @fn arguments: (argument_list) @args) @call"


def _name(data: bytes, frag: Fragment, node: ts.Node) -> str:
    s, e = frag.span(node)
    return data[s:e].decode("utf-8", "replace")


def _args(node: ts.Node) -> list[ts.Node]:
    return [a for a in node.named_children if a.type != "comment"]


@register(PASS, "hipify")
def run(ctx: Context) -> None:
    overrides = _calls(ctx)
    for use in ctx.uses:
        if use.api.span in overrides:
            continue
        if use.entry is None:
            _namespace(ctx, use)
        else:
            _rename(ctx, use.api.span, use.entry)
    _headers(ctx)
    if ctx.options.hip_kernel_execution_syntax:
        _launch_syntax(ctx)


def _target(entry: ApiEntry, ctx: Context) -> tuple[str | None, Version | None, Version | None,
                                                     Version | None, Version | None, str]:
    """(name, added, deprecated, removed, experimental, where) for the options in force."""
    o = ctx.options
    if (o.roc and entry.library in ROC_LIBRARIES) or (o.miopen and entry.library == "dnn"):
        return (entry.roc, entry.roc_added, entry.roc_deprecated, entry.roc_removed,
                entry.roc_experimental, LIBRARY_NAMES[entry.library])
    return entry.hip, entry.hip_added, entry.hip_deprecated, entry.hip_removed, entry.hip_experimental, "HIP"


def _rename(ctx: Context, span: tuple[int, int], entry: ApiEntry, override: str | None = None) -> None:
    """One use of a table entry: an edit, or a diagnostic, or both; never two diagnostics."""
    o = ctx.options
    cuda = entry.cuda
    name, added, deprecated, removed, experimental, where = _target(entry, ctx)
    name = override or name
    start = span[0]
    if name is None:
        ctx.report(start, dg.ERROR, f"'{cuda}' has no {where} equivalent", "H010")
        return
    if experimental is not None and not o.experimental:
        ctx.report(start, dg.WARNING, f"'{cuda}' maps to '{name}', experimental in {where} "
                   f"{version_str(experimental)}; not translated without --experimental", "H013")
        return
    target = o.rocm_version
    if where == "HIP":
        if removed is not None and version_at_least(target, removed):
            ctx.report(start, dg.ERROR, f"'{name}' (for '{cuda}') was removed in HIP "
                       f"{version_str(removed)}; the target is ROCm {version_str(target)}", "H011")
            return
        if added is not None and not version_at_least(target, added):
            ctx.report(start, dg.ERROR, f"'{name}' (for '{cuda}') needs HIP {version_str(added)}; the target "
                       f"is ROCm {version_str(target)} (--rocm-version)", "H014")
            return
    if name != cuda:
        ctx.fixes.append(replace(span[0], span[1], name, PASS, f"{cuda} -> {name} ({entry.library} API)"))
    notes = []
    if entry.cuda_removed is not None:
        notes.append(f"removed in CUDA {version_str(entry.cuda_removed)}")
    elif entry.cuda_deprecated is not None:
        notes.append(f"deprecated since CUDA {version_str(entry.cuda_deprecated)}")
    if deprecated is not None and (where != "HIP" or version_at_least(target, deprecated)):
        notes.append(f"its {where} counterpart '{name}' is deprecated since {where} {version_str(deprecated)}")
    if notes:
        ctx.report(start, dg.WARNING, f"'{cuda}': " + "; ".join(notes), "H012")


def _namespace(ctx: Context, use) -> None:
    new = NAMESPACES[use.api.name]
    ctx.fixes.append(replace(*use.api.span, new, PASS, f"namespace {use.api.name} -> {new}"))


# ------------------------------------------------------------------ calls


def _calls(ctx: Context) -> set[tuple[int, int]]:
    """Rewrites that depend on the call, not just the name. Returns the name spans they
    took over from plain renaming."""
    data = ctx.source.data
    taken: set[tuple[int, int]] = set()
    for frag in ctx.parsed.fragments:
        for _, caps in ts.QueryCursor(query(_CALLS)).matches(frag.root):
            fn, call, args_node = caps["fn"][0], caps["call"][0], caps["args"][0]
            name = _name(data, frag, fn).rsplit("::", 1)[-1]
            if fn.type == "qualified_identifier":
                fn = fn.child_by_field_name("name") or fn
            args = _args(args_node)
            if name in SYMBOL_ARGUMENT:
                _symbol_argument(ctx, frag, call, args, SYMBOL_ARGUMENT[name])
            elif name in OVERLOADS and len(args) in OVERLOADS[name]:
                entry = ctx.tables.lookup(name)
                if entry is not None:
                    span = frag.span(fn)
                    taken.add(span)
                    _rename(ctx, span, entry, override=OVERLOADS[name][len(args)])
            elif name in MASKLESS or name in WARP_SYNC_7 or name == "__activemask" \
                    or name in WARP_MASK_FUNCTIONS:
                taken.add(frag.span(fn))
                _warp_sync(ctx, frag, name, fn, call, args)
    return taken


def _symbol_argument(ctx: Context, frag: Fragment, call: ts.Node, args: list[ts.Node], index: int) -> None:
    if index >= len(args) or not frag.clean(call):
        return
    arg = args[index]
    text = _name(ctx.source.data, frag, arg)
    if text.startswith("HIP_SYMBOL(") or text.startswith("HIP_SYMBOL ("):
        return
    start, end = frag.span(arg)
    ctx.fixes.append(Fix((Edit(start, start, b"HIP_SYMBOL("), Edit(end, end, b")")), "H004",
                         f"HIP takes a symbol's address through HIP_SYMBOL({text})"))


def _warp_sync(ctx: Context, frag: Fragment, name: str, fn: ts.Node, call: ts.Node, args: list[ts.Node]) -> None:
    target = ctx.options.rocm_version
    data = ctx.source.data
    fn_start, fn_end = frag.span(fn)
    version = version_str(target)
    if name in WARP_SYNC_7 and not version_at_least(target, WARP_SYNC_DEFAULT_SINCE):
        hint = ("a wavefront runs in lockstep on AMD: remove it, or use __builtin_amdgcn_wave_barrier()"
                if name == "__syncwarp" else "reduce with __shfl_xor in a loop")
        ctx.report(fn_start, dg.ERROR, f"'{name}' needs HIP 7.0; the target is ROCm {version} ({hint})", "H014")
        return
    if name == "__activemask":
        if not version_at_least(target, WARP_SYNC_SINCE):
            ctx.fixes.append(Fix((Edit(fn_start, frag.span(call)[1], b"__ballot(1)"),), "H006",
                                 "HIP below 6.2 has no __activemask; __ballot(1) is its definition"))
        return
    if not args:
        return
    mask = args[0]
    mask_text = _name(data, frag, mask).replace(" ", "")
    full = _full_mask(ctx, frag, mask)
    if version_at_least(target, WARP_SYNC_SINCE):
        if full and not mask_text.lower().startswith("0xffffffffffffffff") and frag.clean(mask):
            ctx.fixes.append(replace(*frag.span(mask), FULL_MASK_64, "H006",
                                     "HIP warp masks are 64-bit: a 32-bit full mask fails its static_assert"))
        if not version_at_least(target, WARP_SYNC_DEFAULT_SINCE):
            ctx.report(fn_start, dg.NOTE, f"'{name}' needs HIP_ENABLE_WARP_SYNC_BUILTINS defined before "
                       f"HIP 7.0 (target ROCm {version})", "H016")
        return
    if name not in MASKLESS:
        ctx.report(fn_start, dg.ERROR, f"'{name}' needs HIP 6.2; the target is ROCm {version}", "H014")
        return
    if not full:
        ctx.report(fn_start, dg.ERROR, f"'{name}' with mask '{_name(data, frag, mask)}' needs HIP 6.2 "
                   f"(target ROCm {version}); only a full mask has a mask-less equivalent", "H014")
        return
    if not frag.clean(call) or len(args) < 2:
        ctx.report(fn_start, dg.WARNING, f"'{name}' not rewritten: parse error around it", "H014")
        return
    mask_start = frag.span(mask)[0]
    next_start = frag.span(args[1])[0]
    ctx.fixes.append(Fix((Edit(fn_start, fn_end, MASKLESS[name].encode()), Edit(mask_start, next_start, b"")),
                         "H006", f"{name}(full mask, ...) -> {MASKLESS[name]}(...): HIP {version} has no "
                         f"warp-sync builtins"))


_DEFINES = "(preproc_def name: (identifier) @name value: (preproc_arg) @value)"
_LOCALS = """
(init_declarator declarator: (identifier) @name value: (_) @value)
(assignment_expression left: (identifier) @assigned)
(update_expression argument: (identifier) @assigned)
"""


def _full_mask(ctx: Context, frag: Fragment, mask: ts.Node) -> bool:
    """True when the mask is provably all ones: a literal, an object-like macro of this
    file defined as one, or a local variable initialised with one and never assigned."""
    data = ctx.source.data
    text = _name(data, frag, mask).replace(" ", "")
    if FULL_MASK.match(text):
        return True
    if mask.type != "identifier":
        return False
    values = [data[v.start_byte:v.end_byte].decode("utf-8", "replace").strip().strip("()").replace(" ", "")
              for _, caps in ts.QueryCursor(query(_DEFINES)).matches(ctx.parsed.main.root)
              if data[caps["name"][0].start_byte:caps["name"][0].end_byte].decode() == text
              for v in caps["value"]]
    if values:
        return len(set(values)) == 1 and bool(FULL_MASK.match(values[0]))
    function = mask.parent
    while function is not None and function.type != "function_definition":
        function = function.parent
    if function is None:
        return False
    inits, assigned = [], False
    for _, caps in ts.QueryCursor(query(_LOCALS)).matches(function):
        if "assigned" in caps:
            assigned |= _name(data, frag, caps["assigned"][0]) == text
        elif _name(data, frag, caps["name"][0]) == text:
            inits.append(_name(data, frag, caps["value"][0]).replace(" ", ""))
    return not assigned and len(inits) == 1 and bool(FULL_MASK.match(inits[0]))


# ------------------------------------------------------------------ headers

_INCLUDES = "(preproc_include path: (_) @path) @include"
RUNTIME_HEADER = "hip/hip_runtime.h"


def _headers(ctx: Context) -> None:
    data = ctx.source.data
    seen: set[str] = set()
    o = ctx.options
    for _, caps in ts.QueryCursor(query(_INCLUDES)).matches(ctx.parsed.main.root):
        node, path = caps["include"][0], caps["path"][0]
        if path.type not in ("system_lib_string", "string_literal"):
            continue
        header = data[path.start_byte + 1:path.end_byte - 1].decode("utf-8", "replace")
        entry = ctx.tables.header(header)
        if entry is None:
            seen.add(header)
            continue
        if entry.unsupported:
            ctx.report(path.start_byte, dg.WARNING, f"'{header}' is an unsupported header in HIP", "H015")
            continue
        to_roc = (o.roc and entry.api in ("API_BLAS", "API_RAND", "API_SPARSE", "API_SOLVER")) or \
                 (o.miopen and entry.api == "API_DNN")
        new = (entry.roc or entry.hip) if to_roc else entry.hip
        if not new or new in seen:
            reason = f"'{header}' has no HIP counterpart" if not new else f"'{new}' is already included"
            ctx.fixes.append(replace(node.start_byte, path.end_byte, b"", "H002", f"remove #include: {reason}"))
            continue
        seen.add(new)
        ctx.fixes.append(replace(path.start_byte + 1, path.end_byte - 1, new, "H002", f"{header} -> {new}"))


def runtime_header_insertion(data: bytes, newline: bytes) -> Edit | None:
    """Where HIPIFY puts `#include <hip/hip_runtime.h>` when no CUDA header became it:
    after `#pragma once` or the include guard's macro, else before the first #include,
    else at the top. None when the file already includes it."""
    from translator.frontend import parse
    root = parse(data).root_node
    first_include = guard = once = None
    for node in _directives(root):
        if node.type == "preproc_include":
            path = node.child_by_field_name("path")
            if path is not None and data[path.start_byte + 1:path.end_byte - 1] == RUNTIME_HEADER.encode():
                return None
            if first_include is None:
                first_include = node.start_byte
        elif node.type == "preproc_call" and once is None:
            directive, arg = node.child_by_field_name("directive"), node.child_by_field_name("argument")
            if directive is not None and data[directive.start_byte:directive.end_byte] == b"#pragma" \
                    and arg is not None and data[arg.start_byte:arg.end_byte].strip() == b"once":
                once = arg.start_byte + data[arg.start_byte:arg.end_byte].index(b"once") + 4
    top = [c for c in root.named_children if c.type != "comment"]
    if len(top) == 1 and top[0].type == "preproc_ifdef" and data[top[0].start_byte:top[0].start_byte + 7] == b"#ifndef":
        name = top[0].child_by_field_name("name")
        body = [c for c in top[0].named_children if c != name]
        if name is not None and body and body[0].type == "preproc_def" and \
                body[0].child_by_field_name("name") is not None and \
                data[body[0].child_by_field_name("name").start_byte:body[0].child_by_field_name("name").end_byte] \
                == data[name.start_byte:name.end_byte]:
            guard = name.end_byte
    candidates = [p for p in (once, guard) if p is not None]
    include = b"#include <" + RUNTIME_HEADER.encode() + b">" + newline
    if candidates or first_include is not None:
        at = min(candidates) if candidates else first_include
        return Edit(at, at, newline + include)
    # At the top of the file: after a UTF-8 byte-order mark, and without the blank line
    # HIPIFY leaves there.
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    return Edit(at, at, include)


def _directives(root: ts.Node):
    stack = [root]
    while stack:
        node = stack.pop()
        for child in reversed(node.children):
            if child.type in ("preproc_include", "preproc_call"):
                yield child
            elif child.type.startswith("preproc_") or child.type in ("translation_unit", "ERROR"):
                stack.append(child)
            elif child.type in ("linkage_specification", "declaration_list", "namespace_definition"):
                stack.append(child)


# ------------------------------------------------------------------ launches


def _launch_syntax(ctx: Context) -> None:
    """`k<<<g, b, s, st>>>(args)` -> `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)`.

    Only the punctuation between the kernel, the configuration expressions and the
    arguments is replaced, so renames inside them stay separate edits."""
    data = ctx.source.data
    templates = {k.name for k in ctx.module.kernels if k.template_params}
    for site in ctx.module.launches:
        if not site.clean:
            ctx.report(site.span[0], dg.WARNING, f"launch of '{site.kernel}' kept in <<<>>> syntax: "
                       "parse error around it", "H003")
            continue
        templated = site.template_args is not None or site.kernel.rsplit("::", 1)[-1] in templates
        k0, k1 = site.kernel_expr.span
        edits = [Edit(k0, k0, b"hipLaunchKernelGGL(" + (b"HIP_KERNEL_NAME(" if templated else b""))]
        prefix = b")" if templated else b""
        config = [site.grid, site.block, site.shared_mem, site.stream]
        previous_end, close = k1, b""
        for i, expr in enumerate(config):
            if expr is None:
                break
            wrap = i < 2 and not expr.text.startswith("dim3")
            edits.append(Edit(previous_end, expr.span[0], prefix + close + b", " + (b"dim3(" if wrap else b"")))
            prefix, close = b"", (b")" if wrap else b"")
            previous_end = expr.span[1]
        missing = sum(1 for e in config[2:] if e is None)
        tail = close + b", 0" * missing
        args_open = site.span[1] - 1 if not site.args else site.args[0].span[0]
        # The text between the last configuration expression and the arguments is `>>>(`.
        paren = data.rindex(b"(", previous_end, site.args[0].span[0] if site.args else site.span[1])
        if site.args:
            edits.append(Edit(previous_end, args_open, tail + b", "))
        else:
            edits.append(Edit(previous_end, paren + 1, tail))
        ctx.fixes.append(Fix(tuple(edits), "H003", f"launch of '{site.kernel}' in hipLaunchKernelGGL syntax"))
