"""Freed memory given back to the system, so that a run's peak RSS is what it holds, not
what it once held (issue 23: a -j 1 run over a large tree).

The parses (tree-sitter's trees, C memory) of a file are freed once the file is done,
but glibc keeps freed pages of its heap for reuse: over a run of thousands of parses
the heap's free pages, scattered between live blocks, are most of its growth.
`malloc_trim(0)` returns them (a few milliseconds); `Every(n)` calls it once every n
files translated or indexed, and the batch calls it after the launch index (whose
parses are all done). Elsewhere than glibc it
does nothing.
"""

from __future__ import annotations

import sys

_TRIM = None        # glibc's malloc_trim, once looked up (False: there is none)


def give_back() -> None:
    """Return the heap's free pages to the system (glibc), else nothing."""
    global _TRIM
    if _TRIM is None:
        _TRIM = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes
                _TRIM = ctypes.CDLL(None).malloc_trim
                _TRIM.argtypes, _TRIM.restype = (ctypes.c_size_t,), ctypes.c_int
            except (OSError, AttributeError):
                _TRIM = False
    if _TRIM:
        _TRIM(0)


class Every:
    """Calls `give_back` once every `n` calls of `tick`."""

    def __init__(self, n: int = 32):
        self.n, self.count = n, 0

    def tick(self) -> None:
        self.count += 1
        if self.count % self.n == 0:
            give_back()

    def __getstate__(self):
        return {"n": self.n, "count": 0}
