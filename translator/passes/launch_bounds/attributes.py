"""L005, L006: CUDA kernel attributes HIP does not have.

What it does:
    `__maxnreg__(N)` (a register cap per thread) and `__cluster_dims__(x, y, z)` (thread
    block clusters) get an error at the attribute: HIP defines neither, so the output
    does not compile until they are replaced. The message gives the equivalent where
    there is one: for `__maxnreg__`, the launch bounds (from which HIP-Clang sizes the
    registers) or clang's `__attribute__((amdgpu_num_vgpr(N)))`; clusters have none.
Legal when:
    Always (a diagnostic).
Not handled:
    No edit: the replacement depends on what the cap was for.
Example:
    __global__ void __maxnreg__(32) k()  ->  L005 at `__maxnreg__`
Safety:
    no edit.
"""

from __future__ import annotations

import re

from translator.catalog import ERROR, rule
from translator.passes import Context

MAXNREG = rule(
    "L005", "maxnreg", ERROR, "`__maxnreg__` has no HIP equivalent", """
CUDA 12.4's `__maxnreg__(N)` caps a kernel's registers per thread. HIP has no such
attribute; HIP-Clang sizes a kernel's registers from its launch bounds (a smaller
maximum block size allows more registers). Remove it and give the kernel
`__launch_bounds__`, or, to cap the registers, clang's
`__attribute__((amdgpu_num_vgpr(N)))` (VGPRs per lane of a 64-lane wave, not NVIDIA
registers: choose N again).""",
    example="__global__ void __maxnreg__(32) k(float *x) { x[threadIdx.x] = 0; }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__global__ void __maxnreg__(32) k(float *x) { x[threadIdx.x] = 0; }\n")
CLUSTER_DIMS = rule(
    "L006", "cluster-dims", ERROR, "`__cluster_dims__` has no HIP equivalent", """
Thread block clusters (`__cluster_dims__`, Hopper's distributed shared memory) do not
exist on AMD GPUs: HIP has no attribute, no cluster launch and no cluster-scope
synchronization. The kernel must be restructured to work per block.""",
    example="__global__ void __cluster_dims__(2, 1, 1) k(float *x) { x[threadIdx.x] = 0; }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__global__ void __cluster_dims__(2, 1, 1) k(float *x) { x[threadIdx.x] = 0; }\n")

_ATTRIBUTES = re.compile(rb"\b(__maxnreg__|__cluster_dims__)\s*\(([^)]*)\)")


def report(ctx: Context) -> None:
    data = ctx.source.data
    if b"__maxnreg__" not in data and b"__cluster_dims__" not in data:
        return
    for match in _ATTRIBUTES.finditer(data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        before = data[line_start:match.start()]
        if b"//" in before or b"#" in before.lstrip()[:1]:
            continue        # a comment or a directive
        name = match.group(1).decode()
        which = MAXNREG if name == "__maxnreg__" else CLUSTER_DIMS
        ctx.report(which, match.start(), f"{match.group().decode()} has no HIP equivalent; see `cu2hip rules "
                   f"{which.id}`", end=match.end(), subject=name)
