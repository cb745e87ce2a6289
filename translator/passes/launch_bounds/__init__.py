"""The launch-bounds pass: kernels get the `__launch_bounds__` their launches allow (L0xx).

HIP-Clang compiles a kernel without bounds for 1024-thread blocks, which caps CDNA at 128
VGPRs and spills register-heavy kernels that are never launched that wide. `bounds`
inserts `__launch_bounds__(largest block)` where every launch of a kernel is known
(L001), and says why not elsewhere (L002, L003); `min_blocks` converts CUDA's second
argument (minimum blocks per SM) to HIP's (minimum waves per EU, L004); `attributes`
reports CUDA's kernel attributes HIP lacks (L005, L006). A kernel of a header is bounded
by the launches of every file of the run, which the command gathers first
(Options.launch_index); any other kernel by its own file's (translator.ir.host_values).
A launch in a function template of a header, or of a file another includes, takes its
block from the arguments every includer gives the template (Options.template_index).
"""

from __future__ import annotations

from translator.facts.host_values import HostValues
from translator.facts.kernel_launches import KernelLaunches
from translator.passes import Context, register_pass
from translator.passes.launch_bounds import attributes, bounds, min_blocks

RULES = (bounds.BOUNDED, bounds.UNKNOWN_SIZE, bounds.NOT_LAUNCHED, min_blocks.CONVERTED, attributes.MAXNREG,
         attributes.CLUSTER_DIMS)


@register_pass("launch-bounds", rules=RULES, requires=("kernels", "launches", "tree", KernelLaunches, HostValues),
               targets=("hip", "cuda"))
def run(ctx: Context) -> None:
    if b"__global__" not in ctx.source.data:
        return
    attributes.report(ctx)
    sites = ctx.facts.get(KernelLaunches)
    for kernel in ctx.module.kernels:
        if kernel.body_span is None or kernel.in_macro or not kernel.clean:
            continue
        if kernel.launch_bounds:
            if ctx.options.target == "hip":
                min_blocks.convert(ctx, kernel)
        else:
            bounds.bound(ctx, kernel, sites)
