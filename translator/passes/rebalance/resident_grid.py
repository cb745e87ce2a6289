"""L008: a grid-stride kernel's fixed grid is sized from the device's compute units at run time.

What it does:
    A launch of a grid-stride kernel (translator.ir.block_agnostic) whose grid is a
    constant too small to fill the largest AMD GPU (fewer threads than 304 CUs x 2048)
    gets the grid `cu2hip_resident_blocks(T)`: the blocks of T threads that fill every
    compute unit of the current device, from one `cudaDeviceGetAttribute` query cached
    in the function (hipify renames it for HIP). The function is rendered from
    templates/resident_blocks.cu.j2 and inserted once, before the first function that
    needs it.
Legal when:
    The kernel is a grid-stride loop whose work depends on its global id alone: its
    loop covers its bound with any grid, so the grid changes only how many threads
    share the work.
Not handled:
    Grids computed at run time (kept: they were sized by the program), grids of more
    than one dimension; a launch whose top-level declaration has a parse error or shares
    its first line with the item before it (no place for the function: the grid stays).
Example:
    k<<<32, 256>>>(x, n);   (k a grid-stride kernel)
    ->  k<<<cu2hip_resident_blocks(256), 256>>>(x, n);
Safety:
    semantic: more (or fewer) threads share the loop's iterations; each iteration is
    the same.
"""

from __future__ import annotations

import tree_sitter as ts

from translator.catalog import NOTE, rule
from translator.edits import Edit
from translator.frontend import parse
from translator.passes import Context
from translator.render import render

RESIDENT_GRID = rule(
    "L008", "grid-from-compute-units", NOTE, "a grid-stride kernel's fixed grid is sized from the device at run time", """
A grid written as a constant was tuned for one GPU: 132 SMs of an H100 or H200 leave
most of an MI300X's 304 compute units idle. A grid-stride kernel covers its elements
with any grid, so its launch gets the number of blocks that fills every compute unit of
the device it runs on (2048 resident threads per compute unit), asked of the runtime
once per process by a small function cu2hip inserts.""",
    edits=True, safe=False, topic="launch-bounds",
    example="__global__ void k(float *x, int n) {\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 0;\n"
            "}\nvoid f(float *x, int n) { k<<<32, 256>>>(x, n); }\n",
    translation="#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(256) k(float *x, int n) {\n"
                "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 0;\n"
                "}\n// cu2hip (L008): the number of blocks of `threads` threads that fills every\n"
                "// multiprocessor of the current device, asked of the runtime once. 2048 threads are\n"
                "// resident per compute unit on CDNA (32 waves of 64) and per SM on A100, H100 and H200.\n"
                "// A grid-stride kernel covers all its elements with any grid.\n"
                "static inline unsigned cu2hip_resident_blocks(unsigned threads) {\n  static int units = 0;\n"
                "  if (units <= 0) {\n    int device = 0;\n    if (hipGetDevice(&device) != hipSuccess ||\n"
                "        hipDeviceGetAttribute(&units, hipDeviceAttributeMultiprocessorCount, device) != hipSuccess "
                "|| units <= 0) {\n      (void)hipGetLastError();\n      units = 1;\n    }\n  }\n"
                "  return (unsigned)units * (2048u / threads);\n}\n\n"
                "void f(float *x, int n) { k<<<cu2hip_resident_blocks(256), 256>>>(x, n); }\n")

# The threads that fill the largest AMD GPU: an MI300X's 304 CUs, 2048 threads each.
FILLS_ANY_GPU = 304 * 2048
NAME = "cu2hip_resident_blocks"


class ResidentGrids:
    """The launches of one file that get a device-sized grid, and the function they call."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.name: str | None = None
        self.before: int | None = None       # where the function goes

    def small(self, blocks: int, threads: int) -> bool:
        return blocks * threads < FILLS_ANY_GPU

    def grid(self, launch: ts.Node, threads: int) -> str | None:
        """The grid expression for a launch (the call node), with the function's insertion
        planned at the start of the line of the top-level declaration that holds it; None
        where that declaration has a parse error (code inserted there could join the error)
        or shares its first line with the item before it."""
        top = launch
        while top.parent is not None and top.parent.type != "translation_unit":
            top = top.parent
        if top.has_error or top.type == "ERROR" or top.parent is None:
            return None
        while top.prev_named_sibling is not None and top.prev_named_sibling.type == "comment" \
                and top.prev_named_sibling.end_point[0] + 1 >= top.start_point[0]:
            top = top.prev_named_sibling
        data = self.ctx.parsed.data
        start = max(data.rfind(b"\n", 0, top.start_byte), data.rfind(b"\r", 0, top.start_byte)) + 1
        if top.prev_sibling is not None and top.prev_sibling.end_byte > start:
            return None         # the line starts inside the item before: no place of its own
        if self.name is None:
            taken = {w.decode("utf-8", "replace") for w in self.ctx.parsed.words}
            self.name = next(n for n in (NAME if i == 0 else f"{NAME}_{i}" for i in range(100)) if n not in taken)
        self.before = start if self.before is None else min(self.before, start)
        return f"{self.name}({threads})"

    def insert(self, reason: str) -> None:
        """The fix that inserts the function, once, if a launch asked for it."""
        if self.name is None:
            return
        code = render("resident_blocks.cu.j2", name=self.name)
        if parse(code.encode()).root_node.has_error:
            raise AssertionError("templates/resident_blocks.cu.j2 renders code that does not parse")
        newline = self.ctx.source.newline.decode()        # the file's own: LF, CRLF or CR
        self.ctx.fix(RESIDENT_GRID, Edit(self.before, self.before, code.replace("\n", newline).encode()), reason)
