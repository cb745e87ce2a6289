#!/usr/bin/env python3
"""Where a run's parent process spends its time, phase by phase: the CLI run in this
process with its phases wrapped in timers.

    PYTHONPATH=. python3 bench/timeline.py translate TREE -o OUT --no-cache -q -j 16

Takes the CLI's arguments. At exit it prints to stderr when each phase began and ended
(wall seconds since this script started, and the parent's CPU seconds by then), then the
parent's own CPU time and its children's (the pool's workers). The parent's serial part
(the walk, merging the scans, the launch index's graph) is what keeps -j N from scaling:
compare two translators by running each in turn (bench/results/parent-serial-h200-host.txt).
A phase the translator no longer has raises AttributeError: update the wrapped names here."""
import os, sys, time, resource, atexit
T0 = time.perf_counter()
marks = []
def mark(what):
    marks.append((time.perf_counter() - T0, time.process_time(), what))
def wrap(obj, name, label):
    f = getattr(obj, name)
    def w(*a, **k):
        mark(label + " begin")
        try:
            return f(*a, **k)
        finally:
            mark(label + " end")
    setattr(obj, name, w)
mark("start")
from translator import cli
mark("cli imported")
from translator import workspace, cache, universe
from translator.commands import run as runmod
wrap(workspace.Workspace, "collect", "collect")
wrap(workspace.Workspace, "scan_project", "scan_project")
wrap(workspace._Walk, "read", "walk.read")
wrap(workspace._Walk, "add", "walk.add")
wrap(workspace._Walk, "settle", "walk.settle")
wrap(workspace, "local_headers", "local_headers")
wrap(runmod, "local_headers", "local_headers(run)")
wrap(runmod, "launch_indexes" if hasattr(runmod, "launch_indexes") else "launch_index", "launch_index")
wrap(universe, "_graph", "universe._graph")
wrap(runmod, "whole_catalog", "whole_catalog")
wrap(runmod, "start_pool", "start_pool")
orig = runmod.Batch._stream
def stream(self, jobs, inputs, *rest):
    mark("translate begin")
    n = 0
    for x in orig(self, jobs, inputs, *rest):
        if n == 0:
            mark("first result")
        n += 1
        yield x
    mark("translate end (%d results)" % n)
runmod.Batch._stream = stream
def report():
    mark("exit")
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print("# timeline (wall s, parent cpu s, what)", file=sys.stderr)
    for t, p, w in marks:
        print(f"{t:7.3f} {p:7.3f}  {w}", file=sys.stderr)
    print(f"# parent cpu {s.ru_utime + s.ru_stime:.3f} s (user {s.ru_utime:.3f}); children cpu "
          f"{c.ru_utime + c.ru_stime:.3f} s; parent maxrss {s.ru_maxrss/1024:.0f} MiB", file=sys.stderr)
atexit.register(report)
sys.exit(cli.main(sys.argv[1:]))
