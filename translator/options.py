"""The translation options (Options) and the passes' options, declared here once: what
the command line, the configuration and the settings need to know of the passes without
importing them.

A run whose translations are all cached reads only this module of the passes: building
the command line's flags, resolving a configuration and keying the cache must not import
the passes' code, nor translator.passes itself (their IR, front end, analyses and rules
cost 100 ms). Each pass that has options registers them from `DECLARED`, by its id
(`register_pass(..., options=DECLARED["fusion"])`), and `register_pass` refuses any
others, so that the pass and the command agree; a test (tests/test_precedence.py) checks
that every entry belongs to a registered pass and every registered pass's options are its
entry. translator.passes re-exports all of it (the passes' API).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from translator.versions import Version

# The Python API's default target (the command decides its own: translator.settings).
DEFAULT_ROCM_VERSION: Version = (5, 2, 3)


@dataclass(frozen=True)
class PassOption:
    """An option of a pass: the command line (`--NAME`, and `--no-NAME` for a switch),
    the configuration key NAME, the settings and the goldens' `// cu2hip-options:` all
    derive from it."""
    name: str                       # kebab-case: the flag and the configuration key
    field: str                      # the Options field it sets
    default: bool | int
    help: str
    off_help: str = ""              # a switch's --no-NAME
    expected: str = ""              # an integer's valid values, as errors say them
    valid: Callable[[int], bool] | None = None
    why: str = ""                   # why those values, for the command line's error
    metavar: str = "N"

    @property
    def switch(self) -> bool:
        return isinstance(self.default, bool)

    def accepts(self, value) -> bool:
        if self.switch:
            return isinstance(value, bool)
        return type(value) is int and (self.valid is None or self.valid(value))


def _block_size(value: int) -> bool:
    return 64 <= value <= 1024 and value % 64 == 0


# By pass id: the options each pass registers with (a pass with none has no entry).
DECLARED: dict[str, tuple[PassOption, ...]] = {
    "fusion": (
        PassOption("fuse", "fuse", True, "fuse chains of elementwise launches into one kernel (the default)",
                   off_help="do not fuse launches"),
    ),
    "rebalancing": (
        PassOption("rebalance", "rebalance", True, "move launches of block-size agnostic kernels to --block-size (the "
                   "default)", off_help="keep every launch's block size"),
        PassOption("block-size", "block_size", 256, "the threads per block that rebalanced launches get: a multiple of "
                   "64 from 64 to 1024 (default 256)", expected="a multiple of 64 from 64 to 1024",
                   valid=_block_size, why="a 64-lane wavefront's multiple"),
    ),
    "runtime-overheads": (
        PassOption("runtime", "runtime", True, "hoist allocations, streams, events and library handles out of loops, "
                   "and report runtime overheads (the default)",
                   off_help="do not run the runtime pass: no hoist, no runtime report"),
    ),
}


def pass_options() -> list[PassOption]:
    """Every pass's declared options, in the order of the passes' ids."""
    return [o for _, options in sorted(DECLARED.items()) for o in options]


@dataclass(frozen=True)
class Options:
    target: str = "hip"                     # "hip" or "cuda"
    rocm_version: Version = DEFAULT_ROCM_VERSION
    roc: bool = False                       # map BLAS/RAND/SPARSE/SOLVER to roc* libraries
    miopen: bool = False                    # map cuDNN to MIOpen
    experimental: bool = False              # translate APIs HIP marks experimental
    use_hip_data_types: bool = False
    hip_kernel_execution_syntax: bool = False
    # Object-like macros that the whole tree defines only as qualifiers or as nothing
    # (collected by the command over every file it translates; see frontend.preclean).
    qualifier_macros: frozenset[bytes] = frozenset()
    # CUDA-shaped names the tree declares itself (`#define CUDA_CHECK`, a `cudaCheck()` of
    # its own): not unknown CUDA APIs (collected by the command, as the macros are).
    tree_names: frozenset[bytes] = frozenset()
    select: tuple[str, ...] = ()            # rule ids or prefixes to report and apply (default: all)
    ignore: tuple[str, ...] = ()            # ... and to drop
    only: str | None = None                 # run this pass alone (for debugging and goldens)
    fuse: bool = True                       # fuse chains of elementwise launches (--no-fuse)
    rebalance: bool = True                  # move block-size agnostic launches (--no-rebalance)
    runtime: bool = True                    # hoist allocations and handles out of loops (--no-runtime)
    block_size: int = 256                   # ... to this many threads per block (--block-size)
    # The launches across the translated files of the kernels headers define (per kernel
    # and defining file, translator.universe.Entry: each launch's kernel, "path:line:col",
    # block sizes, why unknown, overridable macro), gathered by the command before
    # translating; None: the Python API's one file, which counts its own launches only.
    launch_index: tuple[tuple[str, str, tuple[tuple[str, str, tuple[int, ...], str, str], ...]], ...] | None = None
    # The arguments the project's files give the function templates of its headers and of
    # its files others include (translator.universe.template_index: per defining file and
    # template, each parameter's values or why they are unknown), gathered by the command
    # with the launch index; None: the Python API's one file, which refuses such templates.
    template_index: tuple[tuple[str, str, tuple | str], ...] | None = None
    # The local headers of the run's files and project (real path, bytes), gathered by the
    # command: their macros and constants are read where a file includes them.
    local_headers: tuple[tuple[str, bytes], ...] = ()
    # Paths of user rules files (translator.rules), applied in this order by the user
    # rules pass; each worker process parses each file once while its mtime stays.
    rules: tuple[str, ...] = ()
    # The AMD targets build files are translated for (`--offload-arch`, `offload-arch`).
    offload_arch: tuple[str, ...] = ("gfx90a",)
    # The build's macro definitions (`report -D NAME[=VALUE]`): where a file parses only
    # configuration by configuration, the one they select is parsed first (frontend).
    defines: tuple[str, ...] = ()
