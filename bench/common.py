"""What the benchmarks share (standard library only): the tree they translate, the way
they time a whole process, the environment of those processes, and the record of where
and on what a run was made.

Imported by bench/throughput.py and bench/cache.py (each puts bench/ on sys.path).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"
if str(REPO) not in sys.path:          # benchmark this checkout's translator
    sys.path.insert(0, str(REPO))

MIB = 1024 * 1024
# ru_maxrss is KiB on Linux and bytes on macOS.
_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024


# ------------------------------------------------------------------ files and the tree

def count_lines(data: bytes) -> int:
    """Lines as `wc -l` counts them, plus an unterminated last line."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def is_translatable(path: Path) -> bool:
    """A file the CLI translates when it walks a tree (translator.workspace's suffixes)."""
    from translator.workspace import CUDA_SUFFIXES, CXX_SUFFIXES
    return path.suffix in CUDA_SUFFIXES or path.suffix.lower() in CXX_SUFFIXES


def list_tree(root: Path) -> list[Path]:
    """The files the benchmark translates, in a fixed order (what the CLI would pick up)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if is_translatable(path):
                out.append(path)
    return out


def corpus_files() -> list[tuple[Path, bytes]]:
    files = [(p.relative_to(CORPUS), p.read_bytes()) for p in list_tree(CORPUS)]
    if not files:
        raise SystemExit(f"no CUDA files under {CORPUS}")
    return files


def corpus_info(files: list[tuple[Path, bytes]]) -> dict:
    digest = hashlib.sha256()
    for rel, data in files:
        digest.update(str(rel).encode() + b"\0" + hashlib.sha256(data).digest())
    return {"files": len(files), "lines": sum(count_lines(d) for _, d in files),
            "bytes": sum(len(d) for _, d in files), "sha256": digest.hexdigest()[:16]}


def build_tree(dest: Path, min_lines: int, files: list[tuple[Path, bytes]]) -> dict:
    """Copy the corpus's translatable files into dest/copy0000/, copy0001/, ... until the
    tree has at least `min_lines` lines (every path differs; base names are kept so that
    `#include "x.cuh"` still finds its header inside each copy)."""
    corpus_lines = sum(count_lines(d) for _, d in files)
    copies = max(1, -(-min_lines // corpus_lines))
    for k in range(copies):
        for rel, data in files:
            out = dest / f"copy{k:04d}" / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
    tree = list_tree(dest)
    sizes = [p.read_bytes() for p in tree]
    return {"copies": copies, "files": len(tree), "lines": sum(count_lines(d) for d in sizes),
            "bytes": sum(len(d) for d in sizes)}


def tree_digests(root: Path) -> dict[str, str]:
    """{relative path: sha256 of the bytes} of every file under root (links as their target text)."""
    out = {}
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            else:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def folder_size(root: Path) -> dict:
    """Files, bytes of content and bytes allocated on disk under root."""
    files = size = disk = 0
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            st = os.lstat(os.path.join(dirpath, name))
            files += 1
            size += st.st_size
            disk += getattr(st, "st_blocks", 0) * 512
    return {"files": files, "bytes": size, "disk_bytes": disk}


# ------------------------------------------------------------------ child processes

def child_env(tmp: Path) -> dict:
    """The environment of every measured process: this one, but with bytecode caching on
    and the .pyc files kept under tmp/pycache (PYTHONPYCACHEPREFIX), not in the source
    tree (how an installed cu2hip runs: with PYTHONDONTWRITEBYTECODE=1 every process
    compiles the translator's sources again), and the translation cache in tmp/cache
    (CU2HIP_CACHE_DIR), so that the user's cache is neither read nor written."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    env["CU2HIP_CACHE_DIR"] = str(tmp / "cache")
    return env


def maxrss_mib(ru_maxrss: int) -> float:
    return ru_maxrss * _MAXRSS_UNIT / MIB


# A small intermediary starts each measured command: a process started straight from
# the benchmark would report the benchmark's peak RSS (Linux keeps the high-water mark
# of the address space a process had before exec, and subprocess shares it through
# vfork). The intermediary (python -I -S, about 8 MiB) times the command, waits for it
# with os.wait4 and writes wall time, exit status, CPU time and peak RSS to a file.
_SPAWN_SCRIPT = r"""
import json, os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - started
with open(out, "w") as handle:
    json.dump({"wall_s": wall, "rc": os.waitstatus_to_exitcode(status), "user_s": usage.ru_utime,
               "sys_s": usage.ru_stime, "maxrss": usage.ru_maxrss}, handle)
"""


def run_measured(cmd: list[str], env: dict, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                 cwd: Path = REPO, stdin=None) -> dict:
    """Run a command; wall time, exit status, CPU time (its own and its children's) and
    peak RSS of that one process, and the CPU time other processes of the machine used
    meanwhile (`others_cpu_s`, see busy_cpu_s)."""
    fd, report = tempfile.mkstemp(prefix="cu2hip-bench-", suffix=".json")
    os.close(fd)
    busy = busy_cpu_s()
    try:
        subprocess.run([sys.executable, "-I", "-S", "-c", _SPAWN_SCRIPT, report, *cmd], stdin=stdin, stdout=stdout,
                       stderr=stderr, cwd=cwd, env=env, check=True)
        busy_after = busy_cpu_s()
        with open(report) as handle:
            figures = json.load(handle)
    finally:
        os.unlink(report)
    figures["maxrss_mib"] = maxrss_mib(figures.pop("maxrss"))
    figures["others_cpu_s"] = None if busy is None or busy_after is None else \
        max(0.0, busy_after - busy - figures["user_s"] - figures["sys_s"])
    return figures


# ------------------------------------------------------------------ other processes

def busy_cpu_s() -> float | None:
    """CPU seconds the machine's processors have been busy since boot (/proc/stat: user,
    nice, system, irq, softirq and steal time), or None where there is no /proc/stat.
    The difference over a measurement, less the measured process's own CPU time, is what
    other processes took meanwhile: on a shared 2-core machine the wall-time figures are
    only worth their name when that is near zero."""
    try:
        with open("/proc/stat") as handle:
            fields = handle.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    values = [int(x) for x in fields[1:9]] + [0] * (8 - len(fields[1:9]))
    user, nice, system, _idle, _iowait, irq, softirq, steal = values
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_s() -> float:
    """CPU seconds of this process and of the children it has waited for."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


class Contention:
    """CPU time that other processes of the machine used between start and `figures()`:
    in CPU seconds and as cores on average over the wall time."""

    def __init__(self) -> None:
        import time
        self._clock = time.perf_counter
        self.started, self.busy, self.own = self._clock(), busy_cpu_s(), own_cpu_s()

    def figures(self) -> dict:
        wall = self._clock() - self.started
        busy = busy_cpu_s()
        if busy is None or self.busy is None:
            return {"wall_s": round(wall, 3), "others_cpu_s": None, "others_cores": None}
        others = max(0.0, busy - self.busy - (own_cpu_s() - self.own))
        return {"wall_s": round(wall, 3), "others_cpu_s": round(others, 3), "others_cores": others_cores(others, wall)}


def others_cores(others_cpu_s: float | None, wall_s: float) -> float | None:
    """Cores other processes used on average (approximate: /proc/stat counts 10 ms ticks,
    and the small process that starts each measured command counts as another)."""
    if others_cpu_s is None or not wall_s:
        return None
    return round(min(others_cpu_s / wall_s, float(os.cpu_count() or 1)), 3)


def shown(cmd: list[str], names: dict[str, str] | None = None) -> str:
    """A command as the report prints it: `python` for this interpreter, and temporary
    paths by their role (TREE, OUT, ...)."""
    names = names or {}
    return shlex.join("python" if part == sys.executable else names.get(part, part) for part in cmd)


# ------------------------------------------------------------------ the record of a run

def command_line() -> str:
    return shlex.join(sys.orig_argv if hasattr(sys, "orig_argv") else [sys.executable, *sys.argv])


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def git_info() -> dict:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""
    commit = git("rev-parse", "HEAD") or "unknown"
    status = git("status", "--porcelain")
    changed = [line for line in status.splitlines() if line]
    return {"commit": commit + ("-dirty" if changed else ""), "head": commit, "dirty": bool(changed),
            "changed_paths": len(changed), "status": changed[:50]}


def machine_info() -> dict:
    try:
        affinity = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = None
    cpu_model = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"platform": platform.platform(), "machine": platform.machine(), "cpu_model": cpu_model,
            "cpu_count": os.cpu_count(), "cpus_usable": affinity,
            "python": sys.version.split()[0], "python_implementation": platform.python_implementation(),
            "python_executable": sys.executable}


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def tree_lines(res: dict) -> list[str]:
    """The report's lines on the corpus and the generated tree."""
    c, t = res["corpus"], res["tree"]
    return [f"corpus:  {c['files']} files, {c['lines']:,} lines, {c['bytes']:,} bytes (sha256 {c['sha256']})",
            f"tree:    {t['copies']} copies = {t['files']:,} files, {t['lines']:,} lines, {t['bytes'] / 1e6:.2f} MB",
            f"({res['environment']})"]


def header_lines(res: dict) -> list[str]:
    """The first lines of a report: command, machine, commit, load."""
    m, g = res["machine"], res["git"]
    return [
        f"$ {res['command']}",
        f"{res['title']}, {res['date']}",
        f"machine: {m['platform']}, {m['cpu_model'] or m['machine']}, {m['cpu_count']} CPUs, Python {m['python']}",
        f"commit:  {g['commit']}" + (f" ({g['changed_paths']} paths changed or untracked)" if g["dirty"] else ""),
        f"load average at start {res['loadavg_start']}, at end {res['loadavg_end']}",
        f"other processes used {res['contention']['others_cores']} cores on average during the run "
        f"({res['contention']['others_cpu_s']} CPU-s in {res['contention']['wall_s']} s; from /proc/stat, "
        f"less this benchmark's own processes)",
    ]


def write_results(out_json: Path, res: dict, report: str, step) -> None:
    """Print the report; write the JSON and the report next to it (.txt)."""
    print(report, end="")
    out_json.parent.mkdir(parents=True, exist_ok=True)
    out_json.write_text(json.dumps(res, indent=2) + "\n")
    out_json.with_suffix(".txt").write_text(report)
    step(f"wrote {out_json} and {out_json.with_suffix('.txt')}")
