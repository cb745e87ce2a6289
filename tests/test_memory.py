"""Freed memory given back to the system during a run (translator.memory; issue 23)."""

from __future__ import annotations

import sys

import pytest

from translator import memory


def test_every_gives_back_once_every_n_ticks_and_a_copy_starts_counting_again(monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(memory, "give_back", lambda: calls.append(1))
    every = memory.Every(3)
    for _ in range(7):
        every.tick()
    assert len(calls) == 2
    import pickle
    copy = pickle.loads(pickle.dumps(every))     # what a pool's worker gets
    assert (copy.n, copy.count) == (3, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_give_back_returns_the_heaps_free_pages() -> None:
    import ctypes

    def rss() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1])
    libc = ctypes.CDLL(None)
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, (ctypes.c_size_t,)
    libc.free.argtypes = (ctypes.c_void_p,)
    libc.memset.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t)
    # Many small blocks (below the mmap threshold: on the heap), every other one freed,
    # the last kept: the heap cannot shrink from its top, only trimming returns the holes.
    blocks = [libc.malloc(60000) for _ in range(400)]
    for b in blocks:
        libc.memset(b, 1, 60000)
    for b in blocks[:-1:2] + blocks[1:-1:2]:
        libc.free(b)
    before = rss()
    memory.give_back()
    after = rss()
    libc.free(blocks[-1])
    assert before - after > 1000       # pages: 4 MiB and more of the 23 MiB freed
