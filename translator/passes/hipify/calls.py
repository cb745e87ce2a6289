"""H004, H005, H007, H008: rewrites that depend on a call's arguments, not only on its name.

What it does:
    `cudaMemcpyToSymbol(sym, ...)` and the other symbol APIs take the symbol through
    `HIP_SYMBOL(sym)` (H004). C++ overloads CUDA offers under one name and HIP under two
    (`cudaEventCreate(&e, flags)`, the 3-argument `cudaGraphInstantiate`) become their
    `WithFlags` forms, gated on those forms' versions (H001). An argument HIP's
    counterpart does not take is dropped when its value makes that meaning-preserving
    (`cuOccupancyMaxPotentialBlockSize`'s null callback, H005). A kernel passed to a call
    whose HIP counterpart takes `const void*` is cast (H007). An argument HIP's
    counterpart needs where CUDA has a default is written out (`cudaMallocHost(p, n)`
    gets `hipHostMallocDefault`, H008).
Legal when:
    The call has no parse error in or around it (Fragment.clean).
Not handled:
    A dropped argument whose value matters (a non-null callback): H017, no edit.
Example:
    cudaMemcpyToSymbol(c, h, n)  ->  hipMemcpyToSymbol(HIP_SYMBOL(c), h, n)
Safety:
    safe.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from translator.catalog import NOTE, rule
from translator.edits import Edit
from translator.frontend import Fragment
from translator.ir import call_of
from translator.passes import Context
from translator.passes.hipify.renames import ARGUMENTS_DIFFER, rename

HIP_SYMBOL = rule(
    "H004", "hip-symbol", NOTE, "a symbol argument is wrapped in `HIP_SYMBOL()`", """
HIP's symbol APIs (`hipMemcpyToSymbol`, `hipGetSymbolAddress`, ...) take the address of a
`__device__` or `__constant__` variable through the `HIP_SYMBOL()` macro, where CUDA takes
the variable itself.""",
    edits=True, safe=True, example="__constant__ float c[4];\nvoid f(float *h) { cudaMemcpyToSymbol(c, h, 16); }\n",
    translation="#include <hip/hip_runtime.h>\n__constant__ float c[4];\n"
                "void f(float *h) { hipMemcpyToSymbol(HIP_SYMBOL(c), h, 16); }\n")
DROPPED_ARGUMENT = rule(
    "H005", "drop-argument", NOTE, "an argument HIP's counterpart does not take is dropped", """
`cuOccupancyMaxPotentialBlockSize` takes a callback from block size to dynamic shared
memory that `hipModuleOccupancyMaxPotentialBlockSize` does not; a null callback means
the same as no callback, so it is dropped. A non-null one gets H017.""",
    edits=True, safe=True,
    example="void f(int *g, int *b, CUfunction k) { cuOccupancyMaxPotentialBlockSize(g, b, k, 0, 0, 0); }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "void f(int *g, int *b, hipFunction_t k) { hipModuleOccupancyMaxPotentialBlockSize(g, b, k, 0, 0); }\n")

KERNEL_CAST = rule(
    "H007", "kernel-as-void-pointer", NOTE, "a kernel passed to a runtime call is cast to `const void*`", """
HIP's `hipFuncGetAttributes`, `hipFuncSetCacheConfig`, `hipLaunchKernel`, the occupancy
calls and their kin take the kernel as `const void*`, where CUDA offers templates taking
the function itself; C++ converts no function pointer to `const void*` implicitly, so the
kernel is passed through `reinterpret_cast<const void*>()`, as hipify-clang does.""",
    edits=True, safe=True,
    example="__global__ void k() {}\nvoid f(cudaFuncAttributes *a) { cudaFuncGetAttributes(a, k); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k() {}\n"
                "void f(hipFuncAttributes *a) { hipFuncGetAttributes(a, reinterpret_cast<const void*>(k)); }\n")
ADDED_ARGUMENT = rule(
    "H008", "add-argument", NOTE, "an argument HIP's counterpart needs is added", """
`cudaMallocHost(p, n)` becomes `hipHostMalloc(p, n, hipHostMallocDefault)`: the C
declaration of `hipHostMalloc` has no default for its flags, so the default is written
out (as hipify-clang does); the meaning is CUDA's.""",
    edits=True, safe=True, example="void f(float **p) { cudaMallocHost((void **)p, 64); }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f(float **p) { hipHostMalloc((void **)p, 64, hipHostMallocDefault); }\n")

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
# Calls whose HIP counterpart takes a kernel as `const void*` where CUDA has a template
# taking the function itself: which argument is the kernel. C++ converts no function
# pointer to `const void*` implicitly, so hipify-clang casts it.
KERNEL_ARGUMENT = {
    "cudaFuncGetAttributes": 1, "cudaFuncSetCacheConfig": 0, "cudaFuncSetSharedMemConfig": 0,
    "cudaFuncSetAttribute": 0, "cudaLaunchKernel": 0, "cudaLaunchCooperativeKernel": 0,
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor": 1, "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags": 1,
    "cudaOccupancyMaxPotentialBlockSize": 2, "cudaOccupancyMaxPotentialBlockSizeWithFlags": 2,
    "cudaOccupancyAvailableDynamicSMemPerBlock": 1,
}
# Arguments HIP's counterpart needs that CUDA's leaves to a default: (the CUDA call's
# argument count, the text to add at the end). hipHostMalloc's C declaration has no
# default for its flags (hipify-clang adds hipHostMallocDefault).
ADDED_ARGUMENTS = {
    "cudaMallocHost": {2: "hipHostMallocDefault"},
    # CUDA's C++ template defaults the shared memory size and stream; HIP declares no default.
    "cudaLaunchCooperativeKernel": {4: "0, 0", 5: "0"},
}
NAMES = frozenset(SYMBOL_ARGUMENT) | frozenset(OVERLOADS) | frozenset(DROPPED_ARGUMENTS) | \
    frozenset(KERNEL_ARGUMENT) | frozenset(ADDED_ARGUMENTS)
_VOID_POINTER_CAST = re.compile(r"(reinterpret_cast\s*<\s*(const\s+)?void\s*\*\s*>|\(\s*(const\s+)?void\s*\*\s*\))")


def arguments(call: ts.Node) -> list[ts.Node]:
    """A call's arguments, comments left out."""
    node = call.child_by_field_name("arguments")
    return [a for a in node.named_children if a.type != "comment"] if node is not None else []


def rewrite(ctx: Context, use) -> bool:
    """The call-dependent rewrites of one use; True when the name needs nothing more."""
    name = use.api.name
    call = call_of(use.node)
    if call is None:
        return False
    frag = use.fragment
    args = arguments(call)
    if name in SYMBOL_ARGUMENT:
        _symbol_argument(ctx, frag, call, args, SYMBOL_ARGUMENT[name])
        return False          # the name itself is renamed as usual
    if name in KERNEL_ARGUMENT:
        _kernel_argument(ctx, frag, call, args, KERNEL_ARGUMENT[name], name)
    if name in ADDED_ARGUMENTS:
        text = ADDED_ARGUMENTS[name].get(len(args))
        if text is not None and frag.clean(call) and use.entry is not None and use.entry.hip is not None:
            at = frag.span(args[-1])[1]
            ctx.fix(ADDED_ARGUMENT, Edit(at, at, b", " + text.encode()),
                    f"{name}: {use.entry.hip} declares no default for its last arguments: adds {text}")
        return False
    if name in OVERLOADS and len(args) in OVERLOADS[name]:
        entry = ctx.tables.lookup(OVERLOADS[name][len(args)])
        if entry is not None:
            rename(ctx, use.api.span, entry, written=name)
            return True
    if name in DROPPED_ARGUMENTS and use.entry is not None:
        index, harmless = DROPPED_ARGUMENTS[name]
        if index < len(args):
            text = frag.text(ctx.source.data, args[index]).replace(" ", "")
            if text not in harmless or not frag.clean(call) or index + 1 >= len(args):
                ctx.report(ARGUMENTS_DIFFER, use.api.span[0], f"'{name}': argument {index + 1} ('{text}') has no "
                           "HIP equivalent; not translated", end=use.api.span[1], subject=name)
                return True
            ctx.fix(DROPPED_ARGUMENT, Edit(frag.span(args[index])[0], frag.span(args[index + 1])[0], b""),
                    f"{name}: HIP's counterpart takes no argument {index + 1}")
    return False


def _kernel_argument(ctx: Context, frag: Fragment, call: ts.Node, args: list[ts.Node], index: int,
                     name: str) -> None:
    if index >= len(args) or not frag.clean(call):
        return
    text = frag.text(ctx.source.data, args[index])
    if _VOID_POINTER_CAST.match(text.strip()):
        return        # already a pointer to void
    start, end = frag.span(args[index])
    ctx.fix(KERNEL_CAST, (Edit(start, start, b"reinterpret_cast<const void*>("), Edit(end, end, b")")),
            f"{name}: HIP takes the kernel as const void*, to which C++ converts no function implicitly")


def _symbol_argument(ctx: Context, frag: Fragment, call: ts.Node, args: list[ts.Node], index: int) -> None:
    if index >= len(args) or not frag.clean(call):
        return
    arg = args[index]
    text = frag.text(ctx.source.data, arg)
    if text.startswith("HIP_SYMBOL(") or text.startswith("HIP_SYMBOL ("):
        return
    start, end = frag.span(arg)
    ctx.fix(HIP_SYMBOL, (Edit(start, start, b"HIP_SYMBOL("), Edit(end, end, b")")),
            f"HIP takes a symbol's address through HIP_SYMBOL({text})")
