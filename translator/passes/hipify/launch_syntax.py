"""H003: `k<<<g, b, s, st>>>(args)` as `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)`.

What it does:
    With --hip-kernel-execution-syntax, rewrites each launch in hipLaunchKernelGGL
    syntax, `HIP_KERNEL_NAME(k<T>)` for template kernels, `0` for a shared memory size
    or stream left out, nothing after the stream for a kernel without arguments
    (`hipLaunchKernelGGL(k, dim3(1), dim3(n), 0, 0)`). A dimension is wrapped in `dim3()`
    unless it is one `dim3(...)` call already (`dim3{a, b}` is wrapped: braces do not
    protect its comma from the macro). Only the tokens `<<<`, `>>>` and the argument
    list's `(` are replaced and text is inserted around the kernel and the dimensions,
    so comments stay and renames inside the expressions stay separate edits.
    Launches in `#define` bodies are rewritten where they are written, as hipify-clang
    rewrites them in the definition, not at the uses: a body with line splices, `#`
    and `##` (`name##_kernel<<<g, b>>>(__VA_ARGS__)`), a template kernel
    (`k<T><<<...>>>`), a kernel, dimension, size or stream that is a parameter, or a
    kernel spelled through another macro (`KERNEL(n)<<<...>>>`) alike.
Legal when:
    The launch has no parse error in or around it, and is a statement of its own
    (`k<<<g, b>>>(x);`, a macro body that is the launch): HIP defines
    hipLaunchKernelGGL as a `do { ... } while (0)` statement, which cannot stand where
    the launch is a value (`return k<<<...>>>(x);`, `(k<<<...>>>(x), check())`).
Not handled:
    A launch inside a parse error, or used as a value: kept in `<<<>>>` syntax, which
    HIP-Clang compiles, with a warning. A launch spread over a macro's definition and
    its use (`#define CALL(k) k<<<1, 32>>>` used as `CALL(f)(x)`, or `k<<<GRID(n)>>>(x)`
    where one macro gives both dimensions): no whole launch is written in either place,
    so cu2hip keeps `<<<>>>` there and warns at the `<<<`; hipify-clang, which reads the
    expansion, writes its rewrite at the spelling of the definition.
Example:
    k<<<g, b>>>(x)  ->  hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x)
Safety:
    safe: HIP defines both spellings to mean the same launch.
"""

from __future__ import annotations

import bisect
import re

from translator.catalog import NOTE, rule
from translator.edits import Edit
from translator.frontend import node_at
from translator.ir import LaunchSite
from translator.ir.nodes import parent_of
from translator.passes import Context

LAUNCH = rule(
    "H003", "launch-syntax", NOTE, "a `<<<>>>` launch is written as `hipLaunchKernelGGL`", """
With `--hip-kernel-execution-syntax`, each `<<<>>>` launch is written in
`hipLaunchKernelGGL` syntax, which compilers other than HIP-Clang accept too; template
kernels are wrapped in `HIP_KERNEL_NAME()`. Launches in `#define` bodies are rewritten in
the definition. A launch inside a region that does not parse, one used as a value
(hipLaunchKernelGGL is a statement), and a launch spread over a macro and its use are
kept as they are, with a warning.""",
    edits=True, safe=True, example="__global__ void k(int *x) {}\nvoid f(int *x) { k<<<2, 64>>>(x); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k(int *x) {}\n"
                "void f(int *x) { hipLaunchKernelGGL(k, dim3(2), dim3(64), 0, 0, x); }\n",
    options=("--hip-kernel-execution-syntax", "--ignore", "L"))

_TRIPLE = re.compile(rb"<<<")
# Between `>>>` and the argument list's `(`: blanks, line splices and comments.
_GAP = re.compile(rb"(?:[ \t\r\n]|\\\r?\n|/\*.*?\*/|//[^\n]*\n)*", re.S)


def rewrite_launches(ctx: Context) -> None:
    data = ctx.source.data
    templates = {k.name for k in ctx.module.kernels if k.template_params}
    configs = [site.config_span for site in ctx.module.launches]
    for site in ctx.module.launches:
        if not site.clean:
            ctx.report(LAUNCH, site.span[0], f"launch of '{site.kernel}' kept in <<<>>> syntax: parse error "
                       "around it", severity="warning", end=site.span[1])
            continue
        if _used_as_value(ctx, site):
            ctx.report(LAUNCH, site.span[0], f"launch of '{site.kernel}' kept in <<<>>> syntax: it is used as "
                       "a value, and hipLaunchKernelGGL is a statement", severity="warning", end=site.span[1])
            continue
        # The argument list's `(`: after blanks, line splices and comments (else the first `(`).
        paren = _GAP.match(data, site.config_span[1]).end()
        if data[paren:paren + 1] != b"(":
            paren = data.index(b"(", site.config_span[1])
        templated = site.template_args is not None or site.kernel.rsplit("::", 1)[-1] in templates
        k0, k1 = site.kernel_expr.span
        c0, c1 = site.config_span
        edits = [Edit(k0, k0, b"hipLaunchKernelGGL(" + (b"HIP_KERNEL_NAME(" if templated else b""))]
        edits.append(Edit(c0, c0 + 3, (b")" if templated else b"") + b", "))       # <<<
        for expr in (site.grid, site.block):
            if not _one_dim3_call(expr.text):
                edits += [Edit(expr.span[0], expr.span[0], b"dim3("), Edit(expr.span[1], expr.span[1], b")")]
        defaults = b", 0" * sum(1 for e in (site.shared_mem, site.stream) if e is None)
        edits.append(Edit(c1 - 3, c1, defaults))                                      # >>>
        separator = b"," if data[paren + 1:paren + 2] in (b"\n", b"\r") else b", "
        # Blanks between `>>>` and `(` go with the `(`; a comment or a line splice stays.
        start = c1 if not data[c1:paren].strip(b" \t") else paren
        edits.append(Edit(start, paren + 1, separator if site.args else b""))         # (
        ctx.fix(LAUNCH, tuple(edits), f"launch of '{site.kernel}' in hipLaunchKernelGGL syntax")
    _report_partial_launches(ctx, configs)


def _one_dim3_call(text: str) -> bool:
    """Is the dimension one `dim3(...)` call, its parentheses closing at its end (as
    hipify-clang asks: written `dim3(`)? Then it needs no `dim3()` around it."""
    if not text.startswith("dim3("):
        return False
    depth = 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def _used_as_value(ctx: Context, site: LaunchSite) -> bool:
    """Is the launch part of a larger expression (not the expression of a statement of
    its own)? Asked of the parse that found it: the file's, a configuration's or a macro
    body's."""
    start, end = site.span
    for frag in ctx.parsed.fragments:
        if frag.in_macro != site.in_macro or not any(lo <= start and end <= hi
                                                      for lo, hi in frag.ranges(len(ctx.source.data))):
            continue
        node = node_at(frag.root, start - frag.delta, end - frag.delta)
        if node is not None and node.type == "call_expression":
            parent = parent_of(frag, node)      # (`.parent` costs the depth: launches nest)
            return parent is None or parent.type != "expression_statement"
    return False


def _report_partial_launches(ctx: Context, configs: list[tuple[int, int]]) -> None:
    """A `<<<` token of no launch the IR found (a launch spread over a macro's body and its
    use, a configuration of fewer than two expressions as written, a launch the parse
    lost): kept as it is, with a warning."""
    text = ctx.parsed.cleaned
    if b"<<<" not in text:
        return
    seen: set[int] = set()
    # The configurations' bytes as sorted disjoint ranges: a `<<<` is found in them by
    # bisection (a configuration may hold another launch, whose range is inside it).
    covered: list[tuple[int, int]] = []
    for c0, c1 in sorted(configs):
        if covered and c0 <= covered[-1][1]:
            covered[-1] = (covered[-1][0], max(covered[-1][1], c1))
        elif c0 < c1:
            covered.append((c0, c1))
    starts = [c0 for c0, _ in covered]
    for frag in ctx.parsed.fragments:
        for lo, hi in frag.ranges(len(text)):
            for match in _TRIPLE.finditer(text, lo, hi):
                at = match.start()
                k = bisect.bisect_right(starts, at) - 1
                if at in seen or k >= 0 and at < covered[k][1]:
                    continue
                node = node_at(frag.root, at - frag.delta, match.end() - frag.delta)
                if node is None or node.type != "<<<":
                    continue        # in a comment or a string, or a #define body in the file's parse
                seen.add(at)
                ctx.report(LAUNCH, at, "'<<<' kept: no whole launch is written here to rewrite as "
                           "hipLaunchKernelGGL (its kernel, configuration or arguments come from a macro, "
                           "or the code does not parse)", severity="warning", end=match.end())
