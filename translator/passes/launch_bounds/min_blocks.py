"""L004: CUDA's `__launch_bounds__(T, B)` second argument converted to HIP's meaning.

What it does:
    CUDA's second argument is the minimum number of blocks per SM; HIP passes it on as
    the minimum number of waves per EU (SIMD), which copied verbatim over-constrains the
    registers (CUDA's `(128, 8)` means 4 waves per SIMD on CDNA; HIP reads 8, and caps
    the kernel at 64 VGPRs). It becomes ceil(B * ceil(T / 64) / 4), CDNA's waves per SIMD
    for B blocks of T threads on a CU of 4 SIMDs; marked with a comment so that a second
    run leaves it. Where that is 1 (no constraint), or T or B is unknown, it is dropped.
Legal when:
    The target is HIP (`--target cuda` keeps CUDA's meaning).
Not handled:
    RDNA's wave32 (the formula is CDNA's).
Example:
    __launch_bounds__(128, 8)  ->  __launch_bounds__(128, 4 /* waves per EU: CUDA's 8 blocks per SM */)
Safety:
    semantic: the register cap the CUDA code meant, in HIP's terms.
"""

from __future__ import annotations

from translator.catalog import NOTE, rule
from translator.edits import Edit
from translator.facts.host_values import HostValues
from translator.passes import Context

CONVERTED = rule(
    "L004", "min-blocks-per-sm", NOTE, "`__launch_bounds__`'s minimum blocks per SM becomes HIP's waves per EU", """
CUDA's `__launch_bounds__(T, B)` asks for at least B resident blocks of T threads per SM.
HIP passes B on, verbatim, as the minimum number of waves per execution unit (SIMD):
`(128, 8)` means 8 waves per SIMD to HIP, twice what CUDA's intent needs on CDNA
(8 blocks of 2 waves on 4 SIMDs is 4), and caps the kernel at 64 VGPRs instead of 128.
The argument becomes ceil(B * ceil(T/64) / 4); when that is 1 it is dropped, as it is
when T or B is not a constant.""",
    edits=True, safe=False, topic="launch-bounds", settles=True,
    example="__global__ void __launch_bounds__(128, 8) k(float *x) { x[threadIdx.x] = 0; }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__global__ void __launch_bounds__(128, 4 /* waves per EU: CUDA's 8 blocks per SM */) k(float *x) "
                "{ x[threadIdx.x] = 0; }\n")

MARK = "waves per EU"


def convert(ctx: Context, kernel) -> None:
    if len(kernel.launch_bounds) != 2:
        return
    threads, blocks = kernel.launch_bounds
    if MARK in blocks.text:
        return          # converted already
    values = ctx.facts.get(HostValues)
    t, b = values.at(threads.span), values.at(blocks.span)
    lo, hi = threads.span[1], blocks.span[1]
    if not (t.known and b.known and len(t.values) == 1 and len(b.values) == 1):
        why = t.reason or b.reason or "it takes several values"
        ctx.fix(CONVERTED, Edit(lo, hi, b""), f"{kernel.name}: the minimum of {blocks.text} blocks per SM is "
                f"dropped ({why}): HIP would read it as a minimum of waves per EU")
        return
    waves = -(-b.values[0] * -(-t.values[0] // 64) // 4)
    if waves <= 1:
        ctx.fix(CONVERTED, Edit(lo, hi, b""), f"{kernel.name}: {b.values[0]} blocks of {t.values[0]} threads per SM "
                "is at most 1 wave per SIMD on CDNA: no constraint, dropped")
        return
    ctx.fix(CONVERTED, Edit(blocks.span[0], blocks.span[1],
                            f"{waves} /* {MARK}: CUDA's {blocks.text} blocks per SM */".encode()),
            f"{kernel.name}: {b.values[0]} blocks of {t.values[0]} threads per SM are {waves} waves per SIMD on "
            f"CDNA; HIP reads the argument as waves per EU")
