"""The passes' options, declared here once: what the command line, the configuration and
the settings need to know of the passes without importing them.

A run whose translations are all cached reads only this module of the passes: building
the command line's flags and resolving a configuration must not import the passes'
code (their IR, analyses and rules cost 100 ms). Each pass that has options registers
them from `DECLARED`, by its id (`register_pass(..., options=DECLARED["fusion"])`), and
`register_pass` refuses any others, so that the pass and the command agree; a test
(tests/test_precedence.py) checks that every entry belongs to a registered pass and
every registered pass's options are its entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


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
