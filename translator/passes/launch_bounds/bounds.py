"""L001, L002, L003: `__launch_bounds__(largest block size)` on kernels whose launches are all known.

What it does:
    For each kernel defined in the file without `__launch_bounds__`, finds every launch
    of it (across the files of the run for a kernel of a header, else in the file)
    and each one's block size (translator.ir.host_values: literals, constants, macros,
    enumerators, `dim3`, template arguments, arithmetic). When all are known, inserts
    `__launch_bounds__(N)` before the kernel's name, N the largest number of threads per
    block (L001). A kernel with a launch of unknown size, or whose name is used as a
    value (passed to cudaLaunchKernel, stored in a pointer), gets L002 naming the kernel,
    the place and the reason; a kernel no translated file launches gets L003.
Legal when:
    Every launch of the kernel is counted, and each is at most N threads: a launch with
    more would fail (HIP and CUDA both refuse it), so a bound that is too small is never
    guessed.
Not handled:
    Launches through pointers, from files outside the project, or in macros; a kernel of
    external linkage in files given alone that do not hold the program (no main): other
    translation units may launch it (translator.universe), so it is not bounded.
Example:
    __global__ void k(float *x) {...}  k<<<g, 256>>>(x);
    ->  __global__ void __launch_bounds__(256) k(float *x) {...}
    A block size that is a macro the compile line may redefine (its `#define` under
    `#ifndef TPB`) is no number: when every launch is exactly that macro, and the macro is
    defined where the kernel is, the bound is `__launch_bounds__(TPB)`; else none (L002).
Safety:
    semantic: the compiler may use the registers 256 threads leave; a launch wider than
    the bound would fail, and there is none.
"""

from __future__ import annotations

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir.host_values import KernelLaunches
from translator.passes import Context

BOUNDED = rule(
    "L001", "launch-bounds", NOTE, "a kernel gets `__launch_bounds__` of its largest launch", """
HIP-Clang compiles a kernel that has no `__launch_bounds__` for blocks of 1024 threads.
On CDNA (gfx90a, gfx942) that caps it at 128 VGPRs per lane, so a register-heavy kernel
spills to scratch memory even when it is only ever launched with 256 threads (measured:
a kernel with 160 live floats gets 128 VGPRs and 832 bytes of scratch per lane without
bounds, 242 VGPRs and no spill with `__launch_bounds__(256)`). Where every launch of
the kernel is known, the bound is the largest block size among them.""",
    edits=True, safe=False, topic="launch-bounds", settles=True,
    example="__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
            "void f(float *x) { k<<<4, 256>>>(x); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(256) k(float *x) "
                "{ x[threadIdx.x] = 0; }\nvoid f(float *x) { k<<<4, 256>>>(x); }\n")
UNKNOWN_SIZE = rule(
    "L002", "unknown-block-size", WARNING, "a kernel cannot be bounded: a launch's block size is unknown", """
A launch's block size is read at run time (a parameter, a call, a variable some use may
write: an assignment, `++`, a member write `b.x = ...`, its address taken, a non-const
reference to it, a call that may take it by reference, `>>`), is a macro the compile
line may redefine in an expression (`2 * TPB` under `#ifndef TPB`), or the kernel's name
is used as a value (passed to `cudaLaunchKernel`, stored in a pointer), so its launches
cannot all be counted. A kernel of external linkage in files given alone that do not
hold the program (none defines `main`) may be launched by other translation units:
translate the project's folder, or configure it (`[tool.cu2hip]`), to count them. No
bound is guessed: the kernel keeps HIP's default of 1024 threads. If the largest block
is known to you, write `__launch_bounds__(N)` on the kernel.""",
    topic="launch-bounds",
    example="__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
            "void f(float *x, int threads) { k<<<4, threads>>>(x); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                "void f(float *x, int threads) { k<<<4, threads>>>(x); }\n")
NOT_LAUNCHED = rule(
    "L003", "not-launched-here", NOTE, "a kernel no translated file launches is not bounded", """
Its launches are outside the files being translated (a library's kernel, launched by its
users), so the block sizes are not known and no bound is written. (Said when the command
translates a tree or files, whose launches it gathers first; a file translated alone
through the Python API counts only its own launches, and says nothing of a kernel it
does not launch.)""",
    topic="launch-bounds")

MAX_THREADS = 1024


def bound(ctx: Context, kernel, sites: KernelLaunches) -> None:
    start, end = kernel.name_span
    found = sites.of(kernel.name)
    if not found:
        if ctx.options.launch_index is None or ctx.round > 0:
            return      # one file on its own: its kernels may be launched elsewhere; or said of the input
        ctx.report(NOT_LAUNCHED, start, f"{kernel.name} is launched from no translated file: not bounded (HIP "
                   "compiles it for blocks of 1024 threads)", end=end, subject=kernel.name)
        return
    symbol = sites.symbol(kernel.name)
    if symbol and sites.values is not None and sites.values.macro_visible(symbol, start):
        places = ", ".join(where for where, _, _ in found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3
                                                                   else "")
        ctx.fix(BOUNDED, Edit(start, start, f"__launch_bounds__({symbol}) ".encode()),
                f"{kernel.name} is launched with {symbol} threads per block at every launch ({places}), a macro the "
                f"compile line may redefine: the bound is written in terms of it")
        return
    unknown = next(((where, reason) for where, values, reason in found if not values), None)
    if unknown is not None:
        ctx.report(UNKNOWN_SIZE, start, f"{kernel.name} is not bounded: at {unknown[0]}, {unknown[1]}", end=end,
                   subject=kernel.name)
        return
    largest = max(v for _, values, _ in found for v in values)
    if not 0 < largest <= MAX_THREADS:
        ctx.report(UNKNOWN_SIZE, start, f"{kernel.name} is not bounded: a launch asks for {largest} threads per "
                   "block", end=end, subject=kernel.name)
        return
    places = ", ".join(where for where, _, _ in found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    ctx.fix(BOUNDED, Edit(start, start, f"__launch_bounds__({largest}) ".encode()),
            f"{kernel.name} is launched with at most {largest} threads per block ({places}): without bounds HIP "
            "compiles it for 1024")
