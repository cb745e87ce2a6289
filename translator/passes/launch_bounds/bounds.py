"""L001, L002, L003: `__launch_bounds__(largest block size)` on kernels whose launches are all known.

What it does:
    For each kernel defined in the file without `__launch_bounds__`, finds every launch
    of it (across the files of the run for a kernel of a header, else in the file)
    and each one's block size (translator.ir.host_values: literals, constants, macros,
    enumerators, `dim3`, template arguments, arithmetic). When all are known, inserts
    `__launch_bounds__(N)` before the kernel's name, N the largest number of threads per
    block (L001). A kernel with a launch of unknown size, or whose name is used as a
    value (passed to cudaLaunchKernel, stored in a pointer), gets L002 naming the kernel,
    the place and the reason; a kernel no translated file launches gets L003, once, in
    the pass's first round (round 1 where a restructuring rewrite took round 0), decided
    on the input's launches, so that a fused chain's stages, which the rewritten text no
    longer launches, and the kernels a rewrite wrote, are never called unlaunched.
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
    A block that is one of several values at run time, each known (a macro defined in
    every branch of an `#ifdef BIG` / `#else`, `int threads = 256; if (n < 1000) threads =
    128;`, `for (int bs = 64; bs <= 1024; bs *= 2)`), counts as its largest, and the note
    says where the values come from.
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
from translator.facts.kernel_launches import KernelLaunches as KernelLaunchesFact
from translator.ir.host_values import KernelLaunches
from translator.passes import Context

BOUNDED = rule(
    "L001", "launch-bounds", NOTE, "a kernel gets `__launch_bounds__` of its largest launch", """
HIP-Clang compiles a kernel that has no `__launch_bounds__` for blocks of 1024 threads.
On CDNA (gfx90a, gfx942) that caps it at 128 VGPRs per lane, so a register-heavy kernel
spills to scratch memory even when it is only ever launched with 256 threads (measured:
a kernel with 160 live floats gets 128 VGPRs and 832 bytes of scratch per lane without
bounds, 242 VGPRs and no spill with `__launch_bounds__(256)`). Where every launch of
the kernel is known, the bound is the largest block size among them. A launch whose block
is one of several known values counts as the largest: a macro defined in every branch of
an `#if`/`#else` (whichever the build compiles), a local assigned only constants, a `for`
counter that only the loop's update changes (`for (int bs = 64; bs <= 1024; bs *= 2)`).""",
    edits=True, safe=False, topic="launch-bounds", settles=True,
    example="__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
            "void f(float *x) { k<<<4, 256>>>(x); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(256) k(float *x) "
                "{ x[threadIdx.x] = 0; }\nvoid f(float *x) { k<<<4, 256>>>(x); }\n")
UNKNOWN_SIZE = rule(
    "L002", "unknown-block-size", WARNING, "a kernel cannot be bounded: a launch's block size is unknown", """
A launch's block size is read at run time (a parameter, a call, a variable some use may
write: an assignment of a value not known, a compound assignment, `++`, a member write
`b.x = ...`, its address taken, a non-const reference to it, a capture by reference, a
call that may take it by reference, `>>`), is a macro the compile line may redefine in
an expression (`2 * TPB` under `#ifndef TPB`) or whose definitions under `#if` branches
are not all constants or leave a path that defines none, or the kernel's name
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
        if ctx.options.launch_index is None or ctx.rewritten:
            return      # one file on its own: its kernels may be launched elsewhere; or said in an earlier round
        if ctx.round > 0 and not _launched_by_no_input(ctx, kernel):
            return      # a rewrite's kernel, or one whose launches in the input a rewrite replaced
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
    # A launch whose block is one of several values at run time (a macro's definitions
    # under #if branches, a local's constant assignments) says how they were found.
    noted: dict[str, list[str]] = {}
    for where, _, note in found:
        if note:
            noted.setdefault(note, []).append(where)
    notes = "".join(f"; at {', '.join(wheres[:3])}{' and more' if len(wheres) > 3 else ''}, {note} (the bound is "
                    "the largest)" for note, wheres in noted.items())
    ctx.fix(BOUNDED, Edit(start, start, f"__launch_bounds__({largest}) ".encode()),
            f"{kernel.name} is launched with at most {largest} threads per block ({places}){notes}: without bounds "
            "HIP compiles it for 1024")


def _launched_by_no_input(ctx: Context, kernel) -> bool:
    """In a round after the first, whose text a restructuring rewrite made: is `kernel` one
    of the input's kernels (its name where the input has a kernel of that name, which round
    0 would have read: defined, clean, not in a macro, without bounds), of which the input's
    launches (this file's and every file's of the run) hold no launch or other use? The
    round's text is no witness: a fused chain's stages are launched by the input but no
    longer by the text fusion made, and a kernel a rewrite wrote is no kernel of the
    user's that launches are missing for."""
    at = ctx.input_offset(kernel.name_span[0])
    if not any(k.name == kernel.name and k.name_span[0] == at and k.body_span is not None and not k.in_macro
               and k.clean and not k.launch_bounds for k in ctx.of_input("kernels")):
        return False
    return not ctx.of_input(KernelLaunchesFact).of(kernel.name)
