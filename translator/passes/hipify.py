"""H0xx hipify: rename CUDA APIs to HIP, as HIPIFY does, from the mapping tables.

What it does:
    Renames every CUDA function, type, enumerator, macro, device function and header
    that the tables map (translator/data, generated from HIPIFY's tables), in code,
    `#if` branches and `#define` bodies alike; leaves strings and comments alone.
    Structural rewrites where HIP differs: `cudaMemcpyToSymbol(sym, ...)` and the other
    symbol APIs get `HIP_SYMBOL(sym)`; `cudaEventCreate(&e, flags)` and the 3-argument
    `cudaGraphInstantiate` become their `WithFlags` forms (gated on those forms'
    versions); `cub::` and `using namespace cub;` become `hipcub`;
    `cuOccupancyMaxPotentialBlockSize`'s null callback argument is dropped; with
    --hip-kernel-execution-syntax, `k<<<g, b, s, st>>>(args)` becomes
    `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)` (`HIP_KERNEL_NAME(k<T>)`
    for template kernels). Warp-sync builtins are emitted only where the target ROCm
    version has them; below HIP 6.2 a full-mask call becomes the mask-less builtin.
    Header includes are mapped; the one HIP runtime include is scheduled for the
    pipeline's finalizer (`runtime_header_insertion`).
Legal when:
    Always for renames (a table fact), the name's version permitting. Structural
    rewrites only on subtrees with no parse error around them (Fragment.clean).
Not handled:
    APIs with no HIP equivalent, or none in the target version: one diagnostic per
    use, no edit. Calls whose MIOpen/rocSPARSE counterpart takes other arguments
    (H017, no edit). A declaration of a CUDA name whose counterpart is not a name
    (H018, no edit). Partial warp masks below HIP 6.2. `__syncwarp` below HIP 7.0.
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
from translator.frontend import Fragment, directives, node_at, object_macros
from translator.ir import call_of
from translator.mapping import ApiEntry, Version, version_at_least, version_str
from translator.passes import Context, register
from translator.scan import NAMESPACES, WARP_BUILTINS

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
    "cudaGetTextureReference": 1,
}
# C++ overloads CUDA offers under one name, HIP under two: (argument count -> the CUDA
# name whose table entry, HIP name and versions included, applies).
OVERLOADS = {
    "cudaEventCreate": {2: "cudaEventCreateWithFlags"},
    "cudaGraphInstantiate": {3: "cudaGraphInstantiateWithFlags"},
}
# Arguments HIP's counterpart does not take: (index, the values for which dropping it
# keeps the meaning). cuOccupancyMaxPotentialBlockSize's block-size-to-shared-memory
# callback has no HIP equivalent (hipModuleOccupancyMaxPotentialBlockSize, HIP 5.2).
DROPPED_ARGUMENTS = {
    "cuOccupancyMaxPotentialBlockSize": (3, {"0", "NULL", "nullptr"}),
    "cuOccupancyMaxPotentialBlockSizeWithFlags": (3, {"0", "NULL", "nullptr"}),
}
# Calls whose MIOpen (--miopen) or rocSPARSE (--roc) counterpart takes different
# arguments (the calls HIPIFY rewrites argument by argument): renaming alone would
# compile into the wrong call, so they get a diagnostic and no edit.
ARGUMENTS_DIFFER = {
    "dnn": frozenset({
        "cudnnGetConvolutionForwardWorkspaceSize", "cudnnGetConvolutionBackwardDataWorkspaceSize",
        "cudnnFindConvolutionForwardAlgorithmEx", "cudnnSetPooling2dDescriptor", "cudnnGetPooling2dDescriptor",
        "cudnnSetPoolingNdDescriptor", "cudnnGetPoolingNdDescriptor", "cudnnSetLRNDescriptor",
        "cudnnGetRNNDescriptor_v6", "cudnnSetRNNDescriptor_v6", "cudnnSoftmaxForward", "cudnnSoftmaxBackward",
        "cudnnConvolutionForward", "cudnnConvolutionBackwardData", "cudnnRNNBackwardWeights"}),
    "sparse": frozenset({
        "cusparseSpMM", "cusparseSpMM_bufferSize", "cusparseSpMM_preprocess", "cusparseSpMV",
        "cusparseSpMV_bufferSize", "cusparseSpVV", "cusparseSpVV_bufferSize", "cusparseSpSM_analysis",
        "cusparseSpSM_solve", "cusparseSpSV_bufferSize", "cusparseSparseToDense", "cusparseSparseToDense_bufferSize",
        "cusparseDenseToSparse_bufferSize", "cusparseDenseToSparse_analysis", "cusparseCsr2cscEx2_bufferSize",
        "cusparseXcsrgeam2Nnz"}),
}
# The version columns of a library's table count in that library's releases.
CUDA_SIDE = {"dnn": "cuDNN"}

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



def _args(node: ts.Node) -> list[ts.Node]:
    return [a for a in node.named_children if a.type != "comment"]


@register(PASS, "hipify")
def run(ctx: Context) -> None:
    for use in ctx.uses:
        if _call(ctx, use):
            continue
        if use.api.name in NAMESPACES and use.entry is None:
            _namespace(ctx, use)
        elif use.entry is not None:
            _rename(ctx, use.api.span, use.entry, node=use.node)
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


def _declared_here(node: ts.Node) -> bool:
    """Is the node the name a declaration introduces (not its type)?"""
    parent = node.parent
    if parent is None or parent.child_by_field_name("type") == node:
        return False
    return parent.type.endswith("declarator") or (
        parent.type in ("type_definition", "declaration", "field_declaration")
        and parent.child_by_field_name("declarator") == node)


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")


def _rename(ctx: Context, span: tuple[int, int], entry: ApiEntry, written: str | None = None,
            node: ts.Node | None = None) -> None:
    """One use of a table entry: an edit, or a diagnostic, or both; never two diagnostics.
    `written` is the name in the source when `entry` is another overload's."""
    o = ctx.options
    cuda = written or entry.cuda
    name, added, deprecated, removed, experimental, where = _target(entry, ctx)
    start = span[0]
    if name is None:
        ctx.report(start, dg.ERROR, f"'{cuda}' has no {where} equivalent", "H010")
        return
    if experimental is not None and not o.experimental:
        ctx.report(start, dg.WARNING, f"'{cuda}' maps to '{name}', experimental in {where} "
                   f"{version_str(experimental)}; not translated without --experimental", "H013")
        return
    # The roc* libraries and MIOpen are released with ROCm and numbered like it.
    target = o.rocm_version
    if removed is not None and version_at_least(target, removed):
        ctx.report(start, dg.ERROR, f"'{name}' (for '{cuda}') was removed in {where} "
                   f"{version_str(removed)}; the target is ROCm {version_str(target)}", "H011")
        return
    if added is not None and not version_at_least(target, added):
        ctx.report(start, dg.ERROR, f"'{name}' (for '{cuda}') needs {where} {version_str(added)}; the target "
                   f"is ROCm {version_str(target)} (--rocm-version)", "H014")
        return
    if where != "HIP" and cuda in ARGUMENTS_DIFFER.get(entry.library, ()):
        ctx.report(start, dg.ERROR, f"'{cuda}' -> '{name}': {where} takes different arguments; not "
                   "translated", "H017")
        return
    if name != cuda and node is not None and not _IDENTIFIER.match(name) and _declared_here(node):
        ctx.report(start, dg.WARNING, f"'{cuda}' is declared here; its {where} counterpart '{name}' is not a "
                   "name, so it is left as is", "H018")
        return
    if name != cuda:
        ctx.fixes.append(replace(span[0], span[1], name, PASS, f"{cuda} -> {name} ({entry.library} API)"))
    notes = []
    side = CUDA_SIDE.get(entry.library, "CUDA")
    if name == cuda:
        pass  # HIP keeps the name and supports it: CUDA's deprecation says nothing about the output
    elif entry.cuda_removed is not None:
        notes.append(f"removed in {side} {version_str(entry.cuda_removed)}")
    elif entry.cuda_deprecated is not None:
        notes.append(f"deprecated since {side} {version_str(entry.cuda_deprecated)}")
    if deprecated is not None and version_at_least(target, deprecated):
        notes.append(f"its {where} counterpart '{name}' is deprecated since {where} {version_str(deprecated)}")
    if notes:
        ctx.report(start, dg.WARNING, f"'{cuda}': " + "; ".join(notes), "H012")


def _namespace(ctx: Context, use) -> None:
    new = NAMESPACES[use.api.name]
    ctx.fixes.append(replace(*use.api.span, new, PASS, f"namespace {use.api.name} -> {new}"))


# ------------------------------------------------------------------ calls


def _call(ctx: Context, use) -> bool:
    """Rewrites that depend on the call, not just the name. True when the use is handled."""
    name = use.api.name
    if not (name in SYMBOL_ARGUMENT or name in OVERLOADS or name in DROPPED_ARGUMENTS or name in WARP_BUILTINS):
        return False
    call = call_of(use.node)
    if call is None:
        return name in WARP_BUILTINS and use.entry is None
    frag = use.fragment
    args_node = call.child_by_field_name("arguments")
    args = _args(args_node) if args_node is not None else []
    if name in WARP_BUILTINS:
        _warp_sync(ctx, frag, name, use.node, call, args)
        return True
    if name in SYMBOL_ARGUMENT:
        _symbol_argument(ctx, frag, call, args, SYMBOL_ARGUMENT[name])
        return False          # the name itself is renamed as usual
    if name in OVERLOADS and len(args) in OVERLOADS[name]:
        entry = ctx.tables.lookup(OVERLOADS[name][len(args)])
        if entry is not None:
            _rename(ctx, use.api.span, entry, written=name)
            return True
    if name in DROPPED_ARGUMENTS and use.entry is not None:
        index, harmless = DROPPED_ARGUMENTS[name]
        if index < len(args):
            text = frag.text(ctx.source.data, args[index]).replace(" ", "")
            if text not in harmless or not frag.clean(call) or index + 1 >= len(args):
                ctx.report(use.api.span[0], dg.ERROR, f"'{name}': argument {index + 1} ('{text}') has no HIP "
                           "equivalent; not translated", "H017")
                return True
            ctx.fixes.append(Fix((Edit(frag.span(args[index])[0], frag.span(args[index + 1])[0], b""),), "H005",
                                 f"{name}: HIP's counterpart takes no argument {index + 1}"))
    return False


def _symbol_argument(ctx: Context, frag: Fragment, call: ts.Node, args: list[ts.Node], index: int) -> None:
    if index >= len(args) or not frag.clean(call):
        return
    arg = args[index]
    text = frag.text(ctx.source.data, arg)
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
    mask_text = frag.text(data, mask).replace(" ", "")
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
        ctx.report(fn_start, dg.ERROR, f"'{name}' with mask '{frag.text(data, mask)}' needs HIP 6.2 "
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


def _full_mask(ctx: Context, frag: Fragment, mask: ts.Node) -> bool:
    """True when the mask is provably all ones: a literal, an object-like macro of this
    file defined as one, or a local variable initialised with one and never assigned."""
    data = ctx.source.data
    text = frag.text(data, mask).replace(" ", "")
    if FULL_MASK.match(text):
        return True
    if mask.type != "identifier":
        return False
    word = text.encode()
    values = [body.strip(b"()").replace(b" ", b"").decode("utf-8", "replace")
              for name, body in object_macros(data) if name == word]
    if values:
        return len(set(values)) == 1 and bool(FULL_MASK.match(values[0]))
    function = mask.parent
    while function is not None and function.type != "function_definition":
        function = function.parent
    if function is None:
        return False
    lo, hi = frag.span(function)
    inits, assigned = [], False
    for match in re.compile(re.escape(word) + rb"\b").finditer(ctx.parsed.cleaned, lo, hi):
        node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
        parent = node.parent if node is not None else None
        if parent is None:
            continue
        if parent.type == "init_declarator" and parent.child_by_field_name("declarator") == node:
            value = parent.child_by_field_name("value")
            inits.append(frag.text(data, value).replace(" ", "") if value is not None else "")
        elif (parent.type == "assignment_expression" and parent.child_by_field_name("left") == node) \
                or parent.type == "update_expression" \
                or (parent.type == "pointer_expression" and frag.text(data, parent).startswith("&")):
            assigned = True
    return not assigned and len(inits) == 1 and bool(FULL_MASK.match(inits[0]))


# ------------------------------------------------------------------ headers

RUNTIME_HEADER = "hip/hip_runtime.h"


def includes(parsed) -> list[tuple[ts.Node, ts.Node]]:
    """(directive, path) of every #include of the file, in order."""
    out = []
    root = parsed.main.root
    for hash_at, end in directives(parsed.cleaned, b"include"):
        token = node_at(root, hash_at, end)
        node = token.parent if token is not None else None
        path = node.child_by_field_name("path") if node is not None and node.type == "preproc_include" else None
        if path is not None and path.type in ("system_lib_string", "string_literal"):
            out.append((node, path))
    return out


def _headers(ctx: Context) -> None:
    data = ctx.source.data
    seen: set[str] = set()
    o = ctx.options
    for node, path in includes(ctx.parsed):
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
    ctx.runtime_header_included = RUNTIME_HEADER in seen


_ONCE = re.compile(rb"[ \t]+once\b")
# Leading blanks and comments, then `#ifndef X` / `#define X`. Possessive (`*+`) and a
# comment body that cannot run past its `*/`: a lazy `.*?` here backtracked exponentially
# on files that open with many comments and no guard.
_GUARD = re.compile(rb"\A(?:\s|//[^\n]*+\n|/\*(?:[^*]|\*(?!/))*+\*/)*+"
                    rb"#[ \t]*ifndef[ \t]+(\w+)[ \t]*\r?\n[ \t]*#[ \t]*define[ \t]+(\w+)")


def runtime_header_insertion(parsed, newline: bytes) -> Edit:
    """Where HIPIFY puts `#include <hip/hip_runtime.h>` when no CUDA header became it:
    after `#pragma once` or the include guard's macro, else before the first #include,
    else at the top (after a UTF-8 byte-order mark, and without the blank line HIPIFY
    leaves there). Offsets are the input's: the edit is applied with the others."""
    data = parsed.data
    candidates = []
    once = next((m for m in (_ONCE.match(data, end) for _, end in directives(data, b"pragma")) if m), None)
    if once is not None:
        candidates.append(once.end())
    guard = _GUARD.match(data)
    if guard is not None and guard.group(1) == guard.group(2):
        candidates.append(guard.end(1))
    include = b"#include <" + RUNTIME_HEADER.encode() + b">" + newline
    found = includes(parsed)
    if candidates or found:
        at = min(candidates) if candidates else found[0][0].start_byte
        return Edit(at, at, newline + include)
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    return Edit(at, at, include)


# ------------------------------------------------------------------ launches


def _launch_syntax(ctx: Context) -> None:
    """`k<<<g, b, s, st>>>(args)` -> `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)`.

    Only the tokens `<<<`, `>>>` and the argument list's `(` are replaced, and text is
    inserted around the kernel and the dimensions, so comments stay and renames inside
    the expressions stay separate edits."""
    data = ctx.source.data
    templates = {k.name for k in ctx.module.kernels if k.template_params}
    for site in ctx.module.launches:
        if not site.clean:
            ctx.report(site.span[0], dg.WARNING, f"launch of '{site.kernel}' kept in <<<>>> syntax: "
                       "parse error around it", "H003")
            continue
        templated = site.template_args is not None or site.kernel.rsplit("::", 1)[-1] in templates
        k0, k1 = site.kernel_expr.span
        c0, c1 = site.config_span
        edits = [Edit(k0, k0, b"hipLaunchKernelGGL(" + (b"HIP_KERNEL_NAME(" if templated else b""))]
        edits.append(Edit(c0, c0 + 3, (b")" if templated else b"") + b", "))       # <<<
        for expr in (site.grid, site.block):
            if not expr.text.startswith("dim3"):
                edits += [Edit(expr.span[0], expr.span[0], b"dim3("), Edit(expr.span[1], expr.span[1], b")")]
        defaults = b", 0" * sum(1 for e in (site.shared_mem, site.stream) if e is None)
        edits.append(Edit(c1 - 3, c1, defaults))                                      # >>>
        paren = data.index(b"(", c1)
        separator = b"," if data[paren + 1:paren + 2] in (b"\n", b"\r") else b", "
        edits.append(Edit(paren, paren + 1, separator if site.args else b""))         # (
        ctx.fixes.append(Fix(tuple(edits), "H003", f"launch of '{site.kernel}' in hipLaunchKernelGGL syntax"))
