"""H003: `k<<<g, b, s, st>>>(args)` as `hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)`.

What it does:
    With --hip-kernel-execution-syntax, rewrites each launch in hipLaunchKernelGGL
    syntax, `HIP_KERNEL_NAME(k<T>)` for template kernels. Only the tokens `<<<`, `>>>`
    and the argument list's `(` are replaced and text is inserted around the kernel and
    the dimensions, so comments stay and renames inside the expressions stay separate
    edits.
Legal when:
    The launch has no parse error in or around it.
Not handled:
    A launch inside a parse error: kept in `<<<>>>` syntax, with a warning.
Example:
    k<<<g, b>>>(x)  ->  hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x)
Safety:
    safe: HIP defines both spellings to mean the same launch.
"""

from __future__ import annotations

from translator.catalog import NOTE, rule
from translator.edits import Edit
from translator.passes import Context

LAUNCH = rule(
    "H003", "launch-syntax", NOTE, "a `<<<>>>` launch is written as `hipLaunchKernelGGL`", """
With `--hip-kernel-execution-syntax`, each `<<<>>>` launch is written in
`hipLaunchKernelGGL` syntax, which compilers other than HIP-Clang accept too; template
kernels are wrapped in `HIP_KERNEL_NAME()`. A launch inside a region that does not parse
is kept as it is, with a warning.""",
    edits=True, safe=True, example="__global__ void k(int *x) {}\nvoid f(int *x) { k<<<2, 64>>>(x); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k(int *x) {}\n"
                "void f(int *x) { hipLaunchKernelGGL(k, dim3(2), dim3(64), 0, 0, x); }\n",
    options=("--hip-kernel-execution-syntax",))


def rewrite_launches(ctx: Context) -> None:
    data = ctx.source.data
    templates = {k.name for k in ctx.module.kernels if k.template_params}
    for site in ctx.module.launches:
        if not site.clean:
            ctx.report(LAUNCH, site.span[0], f"launch of '{site.kernel}' kept in <<<>>> syntax: parse error "
                       "around it", severity="warning", end=site.span[1])
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
        ctx.fix(LAUNCH, tuple(edits), f"launch of '{site.kernel}' in hipLaunchKernelGGL syntax")
