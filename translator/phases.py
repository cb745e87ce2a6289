"""Where a run's time goes (issue 23): with `CU2HIP_PHASES=1` in the environment, each
phase of the run and each pool worker prints one line to stderr when it ends:

    cu2hip-phase: +0.412 .. +0.917 s  0.505 s  pid 4242  launch index  cpu 0.498 s
    cu2hip-phase: +0.920 .. +3.871 s  2.951 s  pid 4250  translation worker: 83 tasks, 2.610 s busy, first task +0.951  cpu 2.580 s

(a worker's line runs from the phase's work reaching it to its last task, and is printed
when the worker ends; cpu: the process's CPU seconds in the phase, or in its tasks, which
tell the work from the waiting on a loaded machine).
The times are seconds since the first process of the run imported this module (the
workers inherit that origin through the environment, so their lines share its clock).
Without the variable nothing is printed and nothing is timed: the output, stderr
included, is the same as ever.
"""

from __future__ import annotations

import os
import sys
import time

ON = bool(os.environ.get("CU2HIP_PHASES"))
_ORIGIN_VARIABLE = "CU2HIP_PHASES_ORIGIN"

if ON:
    try:
        _ORIGIN = float(os.environ[_ORIGIN_VARIABLE])
    except (KeyError, ValueError):
        _ORIGIN = time.monotonic()
        os.environ[_ORIGIN_VARIABLE] = repr(_ORIGIN)


def now() -> float:
    """Seconds since the run's origin (0 when timing is off)."""
    return time.monotonic() - _ORIGIN if ON else 0.0


def line(start: float, what: str, cpu: float | None = None) -> None:
    """Print the phase `what`, begun at `start` (a `now()`), ended now; `cpu`: the
    process's CPU time at its start (a `time.process_time()`), its CPU seconds shown."""
    end = now()
    used = f"  cpu {time.process_time() - cpu:.3f} s" if cpu is not None else ""
    print(f"cu2hip-phase: +{start:.3f} .. +{end:.3f} s  {end - start:.3f} s  pid {os.getpid()}  {what}{used}",
          file=sys.stderr, flush=True)


class Phase:
    """`with Phase("name"):` prints the block's line when timing is on."""

    __slots__ = ("what", "start", "cpu")

    def __init__(self, what: str):
        self.what = what

    def __enter__(self):
        if ON:
            self.start, self.cpu = now(), time.process_time()
        return self

    def __exit__(self, *exc) -> None:
        if ON:
            line(self.start, self.what, self.cpu)


class WorkerClock:
    """A pool worker's time: when it became ready, its first task, the tasks' busy time;
    printed when the worker ends (a multiprocessing finalizer)."""

    def __init__(self, what: str):
        self.what, self.ready, self.first, self.busy, self.tasks = what, now(), None, 0.0, 0
        self.end, self.cpu = None, 0.0
        from multiprocessing import util
        util.Finalize(None, self.report, exitpriority=0)

    def task(self, call, *args):
        start, cpu = now(), time.process_time()
        if self.first is None:
            self.first = start
        try:
            return call(*args)
        finally:
            self.end = now()
            self.busy += self.end - start
            self.cpu += time.process_time() - cpu
            self.tasks += 1

    def report(self) -> None:
        """Printed when the worker ends; the line's end is the phase's last task's."""
        first = f"+{self.first:.3f}" if self.first is not None else "none"
        end = self.end if self.end is not None else now()
        print(f"cu2hip-phase: +{self.ready:.3f} .. +{end:.3f} s  {end - self.ready:.3f} s  pid {os.getpid()}  "
              f"{self.what}: {self.tasks} tasks, {self.busy:.3f} s busy, first task {first}  cpu {self.cpu:.3f} s",
              file=sys.stderr, flush=True)
