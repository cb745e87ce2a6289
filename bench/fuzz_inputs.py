#!/usr/bin/env python3
"""The campaign over everything but a source's bytes: configurations, rules files, option
sets, the cache and the run record, concurrent runs, special files (standard library only;
`bench/fuzz.py --kind KIND` runs it, `--kind sources` being bench/fuzz.py's own campaign).

Each input N of seed S is made by `random.Random(f"{seed}/{kind}/{N}")`, so it is always
the same input. Every input runs the command line in process (`translator.cli.main`,
`-j 1`) in a fresh temporary folder with a cache folder of the worker's own (shared by the
worker's inputs, so that entries of other inputs and options are there), under a time
limit (SIGALRM in the worker; the parent kills a worker that does not answer).

Kinds and their checks (failures are counted by name):

  configs     a cu2hip.toml or pyproject.toml made of valid keys and values, then mutated
              (unknown keys and values of every TOML type, nesting up to 2000 deep, broken
              syntax, a BOM, CRLF, bytes that are not UTF-8, rules files that are missing,
              folders, FIFOs or /dev/zero); `translate FILE --examine`. Exit 0 or 1, or exit
              2 with one line `PATH:LINE:COL: error: ...` naming the configuration or a rules
              file it names (`unlocated` otherwise).
  rules       a rules file of valid statements, then mutated (tokens dropped, doubled or
              swapped, self-feeding calls, duplicate ids, deep parentheses, a BOM, CRLF, bad
              bytes); `translate FILE --stdout --rules R`: exit 2 located as above, or a
              translation that the same command leaves as it is (`non-idempotent`).
  options     a small tree (corpus files) and a random option set and command (translate to
              a folder, to stdout, --examine, in place on a copy; check; diff in each
              format; report --no-compile in each format): exit 0, 1 or 2, never an
              exception; a `translate -o` with the cache writes exactly what the same run
              with --no-cache writes (`stale-bytes` otherwise).
  state       a tree with a link to a file outside it, translated with the cache; then one
              or more of: an edit keeping size and time stamps (of a file, of a link's
              target), a link retargeted, an output file edited, cache entries flipped,
              truncated, swapped between keys, replaced by a pickle that would create a
              file, retyped JSON; the same command again must write what a --no-cache run
              writes (`stale-bytes`), and the pickle must not have run (`code-ran`).
  concurrent  two or three `python -m translator translate` processes at once over one tree
              and one cache, with different options into one or two folders, then each
              command again: each folder holds what a --no-cache run of its last command
              writes (`stale-bytes`), and those runs exit 0 or 1 with no traceback and a
              folder that holds files (`bad-exit`, `exception`: a run that did not
              translate agrees with another that did not).
  special     a FIFO, /dev/zero, /dev/null, a folder, a dangling link and a link loop in
              every place a path is accepted (an input, --config, --rules, -o, -o FILE,
              --o-stats, --report, diff --against): no exception, no hang, and never exit 0
              where the path was to be read.

    python bench/fuzz.py --kind configs --count 20000 --jobs 2
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import multiprocessing as mp
import os
import pickle
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KINDS = ("configs", "rules", "options", "state", "concurrent", "special", "names", "compdb", "buildfiles",
         "links")
FAILURES = ("exception", "hang", "unlocated", "bad-exit", "non-idempotent", "stale-bytes", "code-ran",
            "injection", "lost-file", "write-outside")
ROCM = ("5.2", "6.0", "6.2", "7.0")
SOURCES = ("corpus/kernels/atomics.cu", "corpus/kernels/elementwise_chain.cu", "corpus/kernels/stencil2d_shared.cuh",
           "corpus/kernels/rebalance_launches.cu", "corpus/kernels/reduce_ops.cuh")
SMALL = b'#include "h.cuh"\n#include <cublas_v2.h>\n__global__ void k(float* x) { x[threadIdx.x] = 1; }\n' \
        b"void f(float* x) { OLD_CHECK(cudaFree(x)); k<<<1, 128>>>(x); foo(1); bar(x, 2); }\n"
HEADER = b"#pragma once\n__device__ float twice(float v) { return 2 * v; }\n"


class _Alarm(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Alarm()


# ------------------------------------------------------------------ running the command line

@contextlib.contextmanager
def _captured():
    out, err = io.BytesIO(), io.BytesIO()
    real = sys.stdout, sys.stderr
    wrappers = (io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape", write_through=True),
                io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True))
    sys.stdout, sys.stderr = wrappers
    streams = {}
    try:
        yield streams
    finally:
        for w in wrappers:
            w.flush()
        streams["out"], streams["err"] = out.getvalue(), err.getvalue()
        sys.stdout, sys.stderr = real
        for w in wrappers:
            w.detach()


def cli(argv: list[str]) -> tuple[int, bytes, str]:
    """main(argv) in process: (status, stdout bytes, stderr text); exceptions propagate."""
    from translator.cli import main
    from translator.rules import forget
    try:
        with _captured() as streams:
            try:
                status = main(argv)
            except SystemExit as exc:       # argparse's usage errors: exit 2 with its message
                if exc.code != 2:
                    raise
                status = 2
    finally:
        forget()
    return status, streams["out"], streams["err"].decode("utf-8", "replace")


def tree_bytes(root: Path) -> dict:
    """Every file and link under root: relative path -> bytes (a link: its target text)."""
    out = {}
    if not root.exists():
        return out
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


_LOCATED = re.compile(r"(?P<path>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: [^\n]+\n\Z")


def located(err: str, paths) -> bool:
    """One error line at PATH:LINE:COL, PATH one of `paths` (as given or absolute)."""
    m = _LOCATED.fullmatch(err)
    return m is not None and int(m["line"]) >= 1 and int(m["col"]) >= 1 and \
        os.path.abspath(m["path"]) in {os.path.abspath(str(p)) for p in paths}


# ------------------------------------------------------------------ configurations

def _toml_value(rng: random.Random, depth: int = 0):
    pick = rng.random()
    if pick < 0.15:
        return rng.choice(["true", "false"])
    if pick < 0.3:
        return str(rng.choice([0, 1, -1, 64, 256, 1000, 10 ** 30, 7, 2048]))
    if pick < 0.4:
        return rng.choice(["1.5", "nan", "inf", "-0.0", "1e999"])
    if pick < 0.6:
        return json.dumps(rng.choice(["", "6.2", "5.2.3", "99.1", "x", "ALL", "H", "Z999", "hip", "cuda", "out",
                                      "../x", "~", "*.cu", "a\u00e9", "\\\\", "1.2.3.4"]))
    if pick < 0.7:
        return rng.choice(["1979-05-27", "07:32:00", "1979-05-27T07:32:00Z"])
    if pick < 0.85 and depth < 4:
        return "[" + ", ".join(_toml_value(rng, depth + 1) for _ in range(rng.randint(0, 3))) + "]"
    if depth < 4:
        return "{" + ", ".join(f"{rng.choice(['a', 'b', 'jobs'])} = {_toml_value(rng, depth + 1)}"
                               for _ in range(rng.randint(0, 2))) + "}"
    return "1"


VALID_CONFIG = ["rocm-version = '6.2'", "select = ['H', 'W']", "ignore = ['P001']", "target = 'hip'", "jobs = 1",
                "roc = true", "miopen = false", "experimental = false", "hip-kernel-execution-syntax = true",
                "only-translated = false", "strict = false", "fuse = true", "rebalance = false", "block-size = 128",
                "include = ['*.cu']", "exclude = ['third_party/']", "compile-timeout = 30", "output = 'hip'",
                "rules = ['ok.rules']"]


def make_config(rng: random.Random, folder: Path) -> tuple[Path, bytes]:
    lines = rng.sample(VALID_CONFIG, rng.randint(0, 6))
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        what = rng.random()
        if what < 0.3:
            key = rng.choice([k.split(" =")[0] for k in VALID_CONFIG] + ["nosuch", "rocm_version", "a.b", '"q"'])
            lines.insert(rng.randint(0, len(lines)), f"{key} = {_toml_value(rng)}")
        elif what < 0.4:
            deep = rng.choice([50, 200, 600, 2000])
            lines.append(f"select = {'[' * deep}{']' * deep}" if rng.random() < 0.7 else
                         f"x = {'{a=' * deep}1{'}' * deep}")
        elif what < 0.55:
            lines.append(f"rules = [{json.dumps(rng.choice(['nosuch.rules', 'fifo', '/dev/zero', '.', 'bad.rules']))}]")
        elif what < 0.65 and lines:
            lines[rng.randrange(len(lines))] = "[" + rng.choice(["tool", "tool.cu2hip", "x", "rules"]) + "]"
        elif what < 0.75 and lines:
            lines.append(rng.choice(lines))      # a key twice
        else:
            lines.append(rng.choice(["= 1", "a =", "[[", "'unterminated", 'k = """', "k = 1 2", "\x00", "k = [1,"]))
    name = rng.choice(["cu2hip.toml", "pyproject.toml", "other.toml"])
    if name == "pyproject.toml" and rng.random() < 0.8:
        lines.insert(0, "[tool.cu2hip]")
    text = "\n".join(lines) + rng.choice(["\n", ""])
    data = text.encode()
    r = rng.random()
    if r < 0.05:
        data = b"\xef\xbb\xbf" + data
    elif r < 0.1:
        data = data.replace(b"\n", b"\r\n")
    elif r < 0.15 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.choice([0x80, 0xff, 0xc3, 0x00, 0x0d])]) + data[i + 1:]
    elif r < 0.2 and data:
        data = data[:rng.randrange(len(data))]
    return folder / name, data


def _prepare(folder: Path) -> Path:
    """A folder with a source, its header, a valid rules file, a bad one and a FIFO."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.cu").write_bytes(SMALL)
    (folder / "h.cuh").write_bytes(HEADER)
    (folder / "ok.rules").write_text("rename OLD_CHECK -> NEW_CHECK\n")
    (folder / "bad.rules").write_text("rename ->\n")
    os.mkfifo(folder / "fifo")
    return folder / "a.cu"


def run_config(rng: random.Random, work: Path) -> list:
    source = _prepare(work)
    path, data = make_config(rng, work)
    path.write_bytes(data)
    argv = ["translate", str(source), "--examine", "-q", "-j", "1", "--rocm-version", rng.choice(ROCM)]
    if path.name == "other.toml" or rng.random() < 0.3:
        argv += ["--config", str(path)]
    status, _, err = cli(argv)
    rules = [work / n for n in ("ok.rules", "bad.rules", "nosuch.rules", "fifo")]
    if status == 2 and not located(err, [path, *rules]):
        return [("unlocated", "config", err[-300:])]
    if status not in (0, 1, 2):
        return [("bad-exit", f"exit {status}", err[-300:])]
    return []


# ------------------------------------------------------------------ rules files

VALID_RULES = ["rename OLD_CHECK -> NEW_CHECK", 'header "h.cuh" -> "h_hip.h"', "call foo(a) -> foo_hip(a, 0)",
               "call bar(p, n) -> hip_bar(n, p)", "call LAUNCH(k, g, b, args...) -> hipLaunchKernelGGL(k, dim3(g), "
               "dim3(b), 0, 0, args...)", '[U120] rename Mine -> Yours because "ours"', "# a comment",
               "call baz(x) -> qux((x) + 1, {1, 2}, [x])", "rename cudaFree -> myFree"]
FEEDING = ["call foo(a) -> foo2(foo(a))", "call foo(a) -> foo(a)", "call bar(p, n) -> bar2(bar(p, n), 1)",
           "call ping(a) -> pong(a)\ncall pong(a) -> ping(a)", "call v(a, r...) -> w(v(a, r...))",
           "rename A -> B\nrename B -> A", "rename NEW_CHECK -> OLD_CHECK"]
TOKENS = ["rename", "call", "header", "->", "(", ")", ",", "...", '"x"', "'c'", "[U001]", "[U1]", "because", "a",
          "foo", "1", "::", "+", "\\", "\t", "\u00e9", "{", "}", "[", "]"]


def make_rules(rng: random.Random) -> bytes:
    lines = rng.sample(VALID_RULES, rng.randint(1, 5))
    for _ in range(rng.choice([0, 0, 1, 2])):
        what = rng.random()
        if what < 0.25:
            lines.append(rng.choice(FEEDING))
        elif what < 0.35:
            lines.append(f"call deep(a) -> d({'(' * rng.choice([10, 100, 1000, 3000])}a{')' * 10})")
        elif what < 0.45:
            lines.append(rng.choice(lines))
        elif what < 0.55:
            i = rng.randrange(len(lines))
            lines[i] = "[U%03d] " % rng.randint(1, 3) + lines[i]
        else:
            i = rng.randrange(len(lines))
            words = lines[i].split(" ")
            j = rng.randrange(len(words))
            op = rng.random()
            if op < 0.4:
                del words[j]
            elif op < 0.7:
                words.insert(j, rng.choice(TOKENS))
            else:
                words[j] = words[j][:rng.randrange(len(words[j]) + 1)]
            lines[i] = " ".join(words)
    data = ("\n".join(lines) + rng.choice(["\n", ""])).encode()
    r = rng.random()
    if r < 0.05:
        data = b"\xef\xbb\xbf" + data
    elif r < 0.1:
        data = data.replace(b"\n", b"\r\n")
    elif r < 0.14 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.choice([0x80, 0xff, 0x00, 0x0d])]) + data[i:]
    return data


def run_rules(rng: random.Random, work: Path) -> list:
    source = _prepare(work)
    rules = work / "r.rules"
    rules.write_bytes(make_rules(rng))
    argv = ["--stdout", "-q", "-j", "1", "--rules", str(rules), "--rocm-version", rng.choice(ROCM)]
    if rng.random() < 0.3:
        argv.append("--roc")
    status, out, err = cli(["translate", str(source), *argv])
    if status == 2:
        return [] if located(err, [rules]) else [("unlocated", "rules", err[-300:])]
    if status != 0:
        return [("bad-exit", f"exit {status}", err[-300:])]
    again = work / "again.cu"
    again.write_bytes(out)
    status2, out2, err2 = cli(["translate", str(again), *argv])
    if status2 != 0 or out2 != out:
        return [("non-idempotent", "rules", f"{rules.read_bytes()!r}\n{out!r}\n{out2!r}\n{err2[-300:]}")]
    return []


# ------------------------------------------------------------------ option sets

def _tree(rng: random.Random, root: Path) -> Path:
    tree = root / "tree"
    (tree / "sub").mkdir(parents=True)
    for rel in rng.sample(SOURCES, rng.randint(1, 3)):
        (tree / rng.choice(["", "sub/"]) / Path(rel).name).write_bytes((REPO / rel).read_bytes())
    (tree / "a.cu").write_bytes(SMALL)
    (tree / "h.cuh").write_bytes(HEADER)
    (tree / "notes.txt").write_text("not code\n")
    return tree


def _options(rng: random.Random) -> list[str]:
    out = ["--rocm-version", rng.choice(ROCM + ("4.9", "x"))] if rng.random() < 0.95 else []
    for flag in ("--roc", "--miopen", "--experimental", "--hip-kernel-execution-syntax", "--no-fuse",
                 "--no-rebalance", "--strict", "--only-translated"):
        if rng.random() < 0.2:
            out.append(flag)
    if rng.random() < 0.2:
        out += ["--target", rng.choice(["hip", "cuda"])]
    if rng.random() < 0.2:
        out += ["--block-size", rng.choice(["64", "128", "512", "1024", "100", "0"])]
    if rng.random() < 0.2:
        out += [rng.choice(["--select", "--ignore"]), rng.choice(["H", "W2", "L", "F", "H001,W201", "Z9", "ALL"])]
    if rng.random() < 0.1:
        out += ["--only", rng.choice(["hipify", "warp-size", "launch-bounds", "fusion", "nosuch"])]
    if rng.random() < 0.15:
        out += [rng.choice(["--include", "--exclude"]), rng.choice(["*.cu", "sub/", "**/*.cuh", "nothing"])]
    return out


def run_options(rng: random.Random, work: Path) -> list:
    tree = _tree(rng, work)
    options = _options(rng)
    command = rng.choice(["translate-o", "translate-o", "translate-o", "stdout", "examine", "in-place", "check",
                          "diff", "report"])
    if command == "translate-o":
        stats = ["--print-stats"] if rng.random() < 0.2 else []
        argv = ["translate", str(tree), "-o", str(work / "out"), "-q", "-j", "1", *options, *stats]
        status, _, err = cli(argv)
        if status not in (0, 1, 2):
            return [("bad-exit", f"exit {status}", err[-300:])]
        if status == 2:
            return []
        status2, _, _ = cli(argv)          # again: from the run record or the cache
        fresh = ["translate", str(tree), "-o", str(work / "fresh"), "-q", "-j", "1", "--no-cache", *options, *stats]
        cli(fresh)
        if status2 != status or tree_bytes(work / "out") != tree_bytes(work / "fresh"):
            return [("stale-bytes", "options", " ".join(argv))]
        return []
    if command == "stdout":
        argv = ["translate", str(tree / "a.cu"), "--stdout", *options]
    elif command == "examine":
        argv = ["translate", str(tree), "--examine", "-j", "1", *options, *rng.sample(["--print-stats-csv"], 1)]
    elif command == "in-place":
        argv = ["translate", str(tree), "--in-place", "-q", "-j", "1", *options]
    elif command == "check":
        argv = ["check", str(tree), *(["-o", str(work / "none")] if rng.random() < 0.5 else []), "-j", "1", *options]
    elif command == "diff":
        argv = ["diff", str(tree), "--format", rng.choice(["text", "patch", "json", "sarif", "markdown"]), "-j", "1",
                *options]
    else:
        argv = ["report", str(tree), "--no-compile", "--format", rng.choice(["text", "json", "markdown", "html"]),
                "-j", "1", *options]
    status, _, err = cli(argv)
    if status not in (0, 1, 2):
        return [("bad-exit", f"exit {status}", err[-300:])]
    return []


# ------------------------------------------------------------------ the cache and the run record

class _Planted:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _keep_time(path: Path, data: bytes) -> None:
    """Write `data` keeping the file's modification time (touch -r)."""
    st = path.stat()
    path.write_bytes(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _same_size_edit(rng: random.Random, data: bytes) -> bytes:
    i = data.find(b"cudaFree")
    if i >= 0 and rng.random() < 0.7:
        return data[:i] + rng.choice([b"cudaMall", b"cudaFrex", b"hipFree_"]) + data[i + 8:]
    i = rng.randrange(len(data))
    return data[:i] + bytes([(data[i] + 1) % 128 or 65]) + data[i + 1:]


def run_state(rng: random.Random, work: Path, cache: Path) -> list:
    tree = _tree(rng, work)
    outside = work / "outside.cu"
    outside.write_bytes(SMALL.replace(b"OLD_CHECK", b"MY_CHECK"))
    (tree / "linked.cu").symlink_to(outside)
    options = _options(rng) if rng.random() < 0.5 else ["--rocm-version", rng.choice(ROCM)]
    argv = ["translate", str(tree), "-o", str(work / "out"), "-q", "-j", "1", *options]
    status, _, _ = cli(argv)
    if status == 2:
        return []
    marker = work / "code-ran"
    done = []
    for _ in range(rng.randint(1, 3)):
        what = rng.choice(["edit", "edit-target", "retarget", "edit-output", "flip", "truncate", "swap", "pickle",
                           "retype", "delete"])
        done.append(what)
        entries = [p for p in cache.rglob("*") if p.is_file() and p.name != "lock" and ".tmp-" not in p.name]
        files = sorted(p for p in tree.rglob("*.cu*") if p.is_file() and not p.is_symlink())
        if what == "edit" and files:
            f = rng.choice(files)
            _keep_time(f, _same_size_edit(rng, f.read_bytes()))
        elif what == "edit-target":
            _keep_time(outside, _same_size_edit(rng, outside.read_bytes()))
        elif what == "retarget" and files:
            (tree / "linked.cu").unlink()
            (tree / "linked.cu").symlink_to(rng.choice(files))
        elif what == "edit-output":
            outs = [p for p in (work / "out").rglob("*") if p.is_file() and not p.is_symlink()]
            if outs:
                f = rng.choice(outs)
                if f.stat().st_size:
                    _keep_time(f, _same_size_edit(rng, f.read_bytes()))
        elif entries:
            entry = rng.choice(entries)
            data = entry.read_bytes()
            if what == "flip" and data:
                i = rng.randrange(len(data))
                entry.write_bytes(data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:])
            elif what == "truncate":
                entry.write_bytes(data[:rng.randrange(len(data) + 1)])
            elif what == "swap" and len(entries) > 1:
                other = rng.choice([e for e in entries if e != entry])
                o = other.read_bytes()
                other.write_bytes(data)
                entry.write_bytes(o)
            elif what == "pickle":
                entry.write_bytes(pickle.dumps(_Planted(str(marker))))
            elif what == "retype":
                try:
                    doc = json.loads(data)
                    payload = json.loads(doc["payload"])
                    key = rng.choice(sorted(payload))
                    payload[key] = rng.choice([None, 1, "x", [], {}, [[1, 2]], True, -1])
                    text = json.dumps(payload, separators=(",", ":"))
                    doc["payload"] = text
                    doc["digest"] = hashlib.sha256(text.encode()).hexdigest()      # a careful tamperer
                    entry.write_bytes(json.dumps(doc).encode())
                except (ValueError, KeyError, TypeError, IndexError):      # not an entry of that shape
                    pass
            elif what == "delete":
                entry.unlink()
    status2, _, err = cli(argv)
    cli(["translate", str(tree), "-o", str(work / "fresh"), "-q", "-j", "1", "--no-cache", *options])
    failures = []
    if marker.exists():
        failures.append(("code-ran", "pickle", " ".join(argv)))
    if tree_bytes(work / "out") != tree_bytes(work / "fresh"):
        differ = sorted(k for k in set(tree_bytes(work / "out")) | set(tree_bytes(work / "fresh"))
                        if tree_bytes(work / "out").get(k) != tree_bytes(work / "fresh").get(k))
        failures.append(("stale-bytes", "state: " + ", ".join(done), " ".join(argv) + f"\ndiffer: {differ}\n"))
    return failures


# ------------------------------------------------------------------ concurrent runs

def run_concurrent(rng: random.Random, work: Path, cache: Path) -> list:
    tree = _tree(rng, work)
    # The repository first, then whatever the caller's Python finds its packages by (a
    # machine without a virtual environment: PYTHONPATH=/tmp/site).
    path = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = dict(os.environ, CU2HIP_CACHE_DIR=str(cache), PYTHONPATH=path)
    folders = ["o1", "o1"] if rng.random() < 0.5 else ["o1", "o2"]
    runs = [[*folders[i:i + 1], *(["--target", "cuda"] if i else []), *(["--roc"] if rng.random() < 0.3 else [])]
            for i in range(2)] + ([["o2", "--no-fuse"]] if rng.random() < 0.3 else [])

    def command(spec):
        return [sys.executable, "-m", "translator", "translate", str(tree), "-o", str(work / spec[0]), "-q",
                "--rocm-version", "6.0", *spec[1:]]
    procs = [subprocess.Popen(command(s), env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for s in runs]
    for p in procs:
        p.wait(timeout=300)
    last = {}
    for spec in runs:
        last[spec[0]] = spec
    failures = []
    for folder, spec in last.items():
        again = subprocess.run(command(spec), env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=300)
        fresh = ["fresh-" + folder, *spec[1:]]
        clean = subprocess.run(command(fresh) + ["--no-cache"], env=env, cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=300)
        # A translator that did not run (a Python that cannot import it) writes nothing
        # twice: that is no agreement.
        for proc in (again, clean):
            if b"Traceback (most recent call last)" in proc.stderr:
                failures.append(("exception", "concurrent", proc.stderr.decode("utf-8", "replace")[-600:]))
                return failures
            if proc.returncode not in (0, 1) or not tree_bytes(work / folder):
                failures.append(("bad-exit", f"concurrent: exit {proc.returncode}",
                                 proc.stderr.decode("utf-8", "replace")[-300:]))
                return failures
        if tree_bytes(work / folder) != tree_bytes(work / fresh[0]):
            failures.append(("stale-bytes", "concurrent", repr(runs)))
    return failures


# ------------------------------------------------------------------ special files

def special_cases() -> list[tuple[str, str]]:
    places = ["input", "--config", "--rules", "-o", "-o FILE", "--o-stats", "--report", "--against"]
    kinds = ["fifo", "/dev/zero", "/dev/null", "folder", "dangling", "loop"]
    # The tool's own writes never go to a device here (the campaign may run as root, which
    # could replace a device node): --o-stats and --report open theirs as a shell would.
    return [(p, k) for p in places for k in kinds if not (k.startswith("/dev/") and p in ("-o", "-o FILE"))]


# Where a special file is to be read, the command must fail (a folder is a tree as an
# input, and the folder to diff against).
_MUST_FAIL = {"--config", "--rules", "--against"}


def run_special(index: int, work: Path) -> list:
    cases = special_cases()
    place, what = cases[index % len(cases)]
    source = _prepare(work)
    if what == "fifo":
        path = str(work / "fifo")
    elif what == "folder":
        (work / "folder").mkdir()
        path = str(work / "folder")
    elif what == "dangling":
        (work / "dangling").symlink_to(work / "nothing")
        path = str(work / "dangling")
    elif what == "loop":
        (work / "loop").symlink_to("loop")
        path = str(work / "loop")
    else:
        path = what
    base = ["--rocm-version", "6.0", "-q", "-j", "1"]
    argv = {"input": ["translate", path, "-o", str(work / "out"), *base],
            "--config": ["translate", str(source), "--examine", "--config", path, *base],
            "--rules": ["translate", str(source), "--examine", "--rules", path, *base],
            "-o": ["translate", str(source), "-o", path, *base],
            "-o FILE": ["translate", str(source), "-o", path + ".hip", *base],
            "--o-stats": ["translate", str(source), "--examine", "--o-stats", path, *base],
            "--report": ["translate", str(source), "--examine", "--report", path, *base],
            "--against": ["diff", str(source), "--against", path, *base]}[place]
    status, _, err = cli(argv)
    if place in _MUST_FAIL and status == 0 and not (place == "--against" and what == "folder"):
        return [("bad-exit", f"{place} {what}: exit 0", err[-300:])]
    if place == "input" and what != "folder" and status == 0 and what in ("dangling", "loop"):
        return [("bad-exit", f"{place} {what}: exit 0", err[-300:])]
    return []


# ------------------------------------------------------------------ hostile names

# The variable a shell would expand to the marker's absolute path: a name holds no `/`.
MARK_VAR = "CU2HIP_FUZZ_MARK"
_SHELL = ["$(touch${IFS}$%s)" % MARK_VAR, "`touch${IFS}$%s`" % MARK_VAR, ";touch $%s;" % MARK_VAR,
          "|touch $%s" % MARK_VAR, "&&touch${IFS}$%s" % MARK_VAR, "$((1+1))", "${IFS}", "'", '"', "\\"]
_WORKFLOW = ["\n::error title=INJECTED::x\n", "\r\n::warning title=INJECTED::y", "\n::add-mask::INJECTED\n",
             "%0A::error title=INJECTED::z", "\u2028::error title=INJECTED::u"]
_MARKUP = ["\n\n# INJECTED\n\n", "\n\n<img src=x onerror=alert(1)>\n\n", "<img src=y>", "`", "``", "```\n",
           "</code>", "<script>", "](javascript:x)", "|", "*", "_", "&amp;", "<!--"]
_ODD = ["\x1b[31m", "\x07", "\x00"[:0], " ", "\t", "-", "--help", "\u00e9", "\u0085", "\udcff", "\udc80",
        "*", "?", "[a]", "~", "%s", "{}", "#"]


def hostile_name(rng: random.Random, suffix: str) -> str:
    parts = [rng.choice(["a", "k", "-x", " ", ""])]
    for _ in range(rng.randint(1, 3)):
        parts.append(rng.choice(rng.choice([_SHELL, _WORKFLOW, _MARKUP, _ODD])))
    name = "".join(parts).replace("/", "_").replace("\x00", "") + suffix
    return name if name not in (".", "..") else "a" + name


def _fs(name: str) -> str:
    """The name as the file system takes it (lone surrogates are the bytes they escape)."""
    return os.fsdecode(os.fsencode(name))


_IMG = re.compile(rb"<img|<script", re.I)


def _outside_code(markdown: bytes) -> bytes:
    """What a Markdown renderer would read as markup: the text outside fences and code spans."""
    out, fence = [], None
    for line in markdown.split(b"\n"):
        stripped = line.lstrip()
        if fence is not None:
            if stripped.startswith(fence) and not stripped[len(fence):].strip(b"`"):
                fence = None
            continue
        m = re.match(rb"(`{3,}|~{3,})", stripped)
        if m:
            fence = m.group(1)
            continue
        i, kept = 0, []
        while i < len(line):
            if line[i:i + 1] == b"`":
                j = i
                while j < len(line) and line[j:j + 1] == b"`":
                    j += 1
                ticks = line[i:j]
                end = re.search(rb"(?<!`)" + re.escape(ticks) + rb"(?!`)", line[j:])
                if end:
                    i = j + end.end()
                    continue
                kept.append(ticks)
                i = j
                continue
            kept.append(line[i:i + 1])
            i += 1
        out.append(b"".join(kept))
    return b"\n".join(out)


def injected(output: bytes, form: str) -> str | None:
    """How a hostile name got out of its place in `output` of format `form`, or None."""
    if re.search(rb"(^|[\r\n])::((error|warning) title=INJECTED|add-mask::INJECTED)", output):
        return "workflow command"
    if b"\x1b" in output or b"\x07" in output:
        return "terminal control"
    if form == "html" and _IMG.search(output):
        return "raw html"
    if form == "markdown":
        text = _outside_code(output)
        if re.search(rb"(^|\n)#+ INJECTED", text):
            return "markdown heading"
        if _IMG.search(text):
            return "raw html in markdown"
    if form in ("json", "sarif"):
        try:
            json.loads(output)
        except ValueError:
            return "invalid json"
    return None


def _name_tree(rng: random.Random, work: Path) -> tuple[Path, list[str]]:
    tree = work / "tree"
    folder = tree / _fs(hostile_name(rng, "")) if rng.random() < 0.5 else tree
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    header = _fs(hostile_name(rng, ".cuh"))
    # The source includes the header by name: a name it can spell in a directive (its bytes
    # are the file's content, which diffs show as they are).
    header = "".join("_" if c in '\\"' or ord(c) < 32 or c in "\x7f\u0085\u2028" else c for c in header)
    (folder / header).write_bytes(HEADER)
    source = _fs(hostile_name(rng, rng.choice([".cu", ".cu", ".cuh", ".cpp"])))
    text = SMALL.replace(b'"h.cuh"', b'"' + os.fsencode(header) + b'"')
    if rng.random() < 0.5:       # a diagnostic about the file, whatever it is named
        text += b"__global__ void w(int* o) { o[threadIdx.x % 32] = __shfl_down_sync(0xffffffff, 1, 1); }\n"
    (folder / source).write_bytes(text)
    names += [header, source]
    if rng.random() < 0.3:
        (folder / _fs(hostile_name(rng, ".txt"))).write_bytes(b"data\n")
    return tree, names


def run_names(rng: random.Random, work: Path) -> list:
    mark = work / "ran"
    os.environ[MARK_VAR] = str(mark)
    tree, _ = _name_tree(rng, work)
    base = ["--rocm-version", rng.choice(ROCM), "-j", "1"]
    command = rng.choice(["translate-o", "stats", "report-json", "check", "diff", "diff", "diff", "report",
                          "report", "report-compile"])
    form = "text"
    if command == "translate-o":
        argv = ["translate", str(tree), "-o", str(work / "out"), *base]
    elif command == "stats":
        argv = ["translate", str(tree), "--examine", "--print-stats", *base]
    elif command == "report-json":
        argv = ["translate", str(tree), "--examine", "--report", str(work / "r.json"), *base]
    elif command == "check":
        argv = ["check", str(tree), *base]
    elif command == "diff":
        form = rng.choice(["text", "patch", "json", "sarif", "markdown", "github"])
        argv = ["diff", str(tree), "--format", form, *base]
    else:
        form = rng.choice(["text", "json", "markdown", "html"])
        compile_ = ["--compile-timeout", "120"] if command == "report-compile" else ["--no-compile"]
        argv = ["report", str(tree), "--format", form, *compile_, *base]
    status, out, err = cli(argv)
    failures = []
    if status not in (0, 1, 2):
        failures.append(("bad-exit", f"{command}: exit {status}", err[-300:]))
    if mark.exists():
        failures.append(("code-ran", f"names {command}", repr(sorted(tree_bytes(tree)))))
    how = injected(out, "markdown" if form == "github" else form) if form != "github" else injected(out, "github")
    how = how or injected(err.encode("utf-8", "surrogateescape"), "stderr")
    if command == "report-json" and (work / "r.json").exists():
        how = how or injected((work / "r.json").read_bytes(), "json")
    if how:
        failures.append(("injection", f"{command} {form}: {how}", repr(sorted(tree_bytes(tree)))))
    if command == "translate-o" and status in (0, 1):
        missing = sorted(set(tree_bytes(tree)) - set(tree_bytes(work / "out")))
        if missing:
            failures.append(("lost-file", "names: not written", repr(missing)))
    return failures


# ------------------------------------------------------------------ compilation databases

_FLAGS = ["-DX=$(touch${IFS}$%s)" % MARK_VAR, "-DY=`touch $%s`" % MARK_VAR, "-D'Z=1;touch $%s'" % MARK_VAR,
          "-I$(touch${IFS}$%s)" % MARK_VAR, "-include", "$(touch${IFS}$%s).h" % MARK_VAR,
          "-std=c++17;touch${IFS}$%s" % MARK_VAR, "--offload-arch=gfx90a;touch", "-arch=sm_90`touch`", "-O2",
          "-DOK=1", "-DQ=\"a b\"", "-D", "A=$(id)", "-Wall", "-x", "cuda", "-o", "$(touch${IFS}$%s).o" % MARK_VAR,
          "-c", "-DN=\\$(x)", "-DU=\u00e9", "-D\x00", "-I.", "-isystem", "/nonexistent", "@rsp$(x)"]


def _entry(rng: random.Random, tree: Path, source: str) -> dict | object:
    flags = [rng.choice(_FLAGS) for _ in range(rng.randint(0, 5))]
    where = rng.random()
    entry = {"directory": str(tree) if where < 0.8 else rng.choice(["", ".", "/nonexistent", str(tree) + "/$(x)"]),
             "file": source if rng.random() < 0.9 else rng.choice(["", 1, None, "$(touch x).cu"])}
    if rng.random() < 0.5:
        entry["arguments"] = ["nvcc", *flags, "-c", source] if rng.random() < 0.9 else rng.choice([1, "x", [1]])
    else:
        entry["command"] = " ".join(["nvcc", *flags, "-c", json.dumps(source)])
    if rng.random() < 0.05:
        return rng.choice([1, "x", [], None])
    return entry


def run_compdb(rng: random.Random, work: Path) -> list:
    mark = work / "ran"
    os.environ[MARK_VAR] = str(mark)
    tree, names = _name_tree(rng, work) if rng.random() < 0.5 else (work / "tree", [])
    if not names:
        _prepare(tree)
        (tree / "fifo").unlink()
        names = ["a.cu", "h.cuh"]
    build = tree / "build"
    build.mkdir()
    entries = [_entry(rng, tree, rng.choice(names)) for _ in range(rng.randint(1, 3))]
    data = json.dumps(entries, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogateescape")
    r = rng.random()
    if r < 0.05:
        data = data[:rng.randrange(len(data) + 1)]
    elif r < 0.1:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + rng.choice([b"\x00", b"\xff", b"\\u0000", b"]", b"{"]) + data[i:]
    (build / "compile_commands.json").write_bytes(data)
    argv = ["report", str(tree), "-p", str(build), "--format", "json", "--compile-timeout", "120",
            "--rocm-version", rng.choice(ROCM), "-j", "1"]
    if rng.random() < 0.3:
        argv += ["-D" + (rng.choice(_FLAGS).removeprefix("-D") or "E")]
    status, out, err = cli(argv)
    failures = []
    if status not in (0, 1, 2):
        failures.append(("bad-exit", f"compdb: exit {status}", err[-300:]))
    if mark.exists():
        failures.append(("code-ran", "compdb", data.decode("utf-8", "replace")[:600]))
    if status != 2 and injected(out, "json"):
        failures.append(("injection", "compdb: " + injected(out, "json"), data.decode("utf-8", "replace")[:600]))
    if status == 2 and (err.count("\n") != 1 or "Traceback" in err):
        failures.append(("unlocated", "compdb", err[-300:]))
    return failures


# ------------------------------------------------------------------ build files

PROJECTS = ("corpus/projects/cmake_findcuda", "corpus/projects/cmake_stats", "corpus/projects/make_arch_rdc",
            "corpus/projects/make_histogram")
_CMAKE_LINES = ["string(APPEND CMAKE_CUDA_FLAGS \" --use_fast_math\")",
                "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -lineinfo -Xcompiler -Wall,-O3\")",
                "target_compile_options(%T PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-G --ftz=true>)",
                "target_compile_options(%T PRIVATE \"SHELL:-Xcompiler -fopenmp\")",
                "set_source_files_properties(x.cu PROPERTIES COMPILE_OPTIONS \"-maxrregcount=32\")",
                "set_property(TARGET %T PROPERTY CUDA_ARCHITECTURES 70 80 90)",
                "find_package(CUDAToolkit REQUIRED)", "target_link_libraries(%T PRIVATE CUDA::cublas CUDA::cudart)",
                "enable_language(CUDA)", "project(p LANGUAGES CXX CUDA)", "set(CMAKE_CUDA_COMPILER /usr/bin/nvcc)",
                "cuda_add_executable(z z.cu OPTIONS -arch=sm_60)", "if(", ")", "\"", "#[[", "]]", "${", "$<",
                "$<$<COMPILE_LANGUAGE:CUDA>:" * 50 + "-O3" + ">" * 50, "set(X $(touch${IFS}$%s))" % MARK_VAR]
_MAKE_LINES = ["NVCCFLAGS += -arch=sm_80 --use_fast_math", "ARCH ?= sm_70", "NVCC := $(shell which nvcc)",
               "GENCODE := $(foreach a,70 80,-gencode arch=compute_$(a),code=sm_$(a))",
               "%.o: %.cu\n\t$(NVCC) $(NVCCFLAGS) -dc $< -o $@", ".RECIPEPREFIX = >", "include flags.mk",
               "LDFLAGS += -lcublas -lcudart", "all: ; nvcc -Xcompiler -fPIC -c x.cu", "define X\nnvcc -G\nendef",
               "\\", "$(", "ifeq ($(A),1)", "endif", "X = $(touch${IFS}$%s)" % MARK_VAR, "\t-rdc=true"]


def _mutate_build(rng: random.Random, data: bytes, cmake: bool, target: str) -> bytes:
    lines = data.split(b"\n")
    pool = _CMAKE_LINES if cmake else _MAKE_LINES
    for _ in range(rng.randint(1, 4)):
        what = rng.random()
        at = rng.randrange(len(lines) + 1)
        if what < 0.5:
            lines.insert(at, rng.choice(pool).replace("%T", target).encode())
        elif what < 0.6:
            lines.insert(at, rng.choice(pool[:2]).replace("%T", target).encode() * 1)
            lines[at:at] = [rng.choice(pool[:2]).encode()] * rng.choice([10, 200, 2000])
        elif what < 0.7 and lines:
            del lines[rng.randrange(len(lines))]
        elif what < 0.8 and lines:
            i = rng.randrange(len(lines))
            lines.insert(at, lines[i])
        elif what < 0.9 and lines:
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice([b"\\", b"\"", b"(", b")", b"$", b"\t", b"\xff", b"\x00", b"#"]) + \
                lines[i][j:]
        else:
            lines = lines[:rng.randrange(len(lines) + 1)]
    out = b"\n".join(lines)
    r = rng.random()
    if r < 0.05:
        out = b"\xef\xbb\xbf" + out
    elif r < 0.1:
        out = out.replace(b"\n", b"\r\n")
    return out


def run_buildfiles(rng: random.Random, work: Path) -> list:
    mark = work / "ran"
    os.environ[MARK_VAR] = str(mark)
    project = rng.choice(PROJECTS)
    tree = work / "tree"
    shutil.copytree(REPO / project, tree)
    files = sorted(p for p in tree.rglob("*") if p.is_file() and (p.name in ("CMakeLists.txt", "Makefile")
                                                                    or p.suffix in (".mk", ".cmake")))
    for f in rng.sample(files, rng.randint(1, len(files))):
        f.write_bytes(_mutate_build(rng, f.read_bytes(), f.suffix == ".cmake" or f.name == "CMakeLists.txt",
                                    rng.choice(["app", "stats", "scale", "saxpy"])))
    options = ["--rocm-version", rng.choice(ROCM), "-j", "1", "-q"]
    if rng.random() < 0.2:
        options += ["--offload-arch", rng.choice(["gfx90a", "gfx90a,gfx942", "gfx1100"])]
    argv = ["translate", str(tree), "-o", str(work / "out"), *options]
    status, _, err = cli(argv)
    failures = []
    if status not in (0, 1):
        return [("bad-exit", f"buildfiles {project}: exit {status}", err[-300:])]
    if mark.exists():
        failures.append(("code-ran", "buildfiles", project))
    status2, _, _ = cli(argv)
    cli(["translate", str(tree), "-o", str(work / "fresh"), "--no-cache", *options])
    if status2 != status or tree_bytes(work / "out") != tree_bytes(work / "fresh"):
        failures.append(("stale-bytes", f"buildfiles {project}", " ".join(argv)))
    return failures


# ------------------------------------------------------------------ links in the trees

def _victim(work: Path) -> Path:
    victim = work / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "keep.cu").write_bytes(b"// not to be written\n")
    (victim / "sub" / "a.cu").write_bytes(b"// not to be written either\n")
    return victim


def run_links(rng: random.Random, work: Path) -> list:
    victim = _victim(work)
    before = tree_bytes(victim)
    tree = _tree(rng, work)
    out = work / "out"
    options = ["--rocm-version", rng.choice(ROCM), "-j", "1", "-q"]
    argv = ["translate", str(tree), "-o", str(out), *options]
    done = []
    if rng.random() < 0.5:
        cli(argv)            # a first run: the output tree and the run record exist
    for _ in range(rng.randint(1, 3)):
        what = rng.choice(["dangling-becomes-folder", "out-folder-link", "out-file-link", "out-root-link",
                           "tree-link-outside", "tree-link-loop", "out-parent-link", "race"])
        done.append(what)
        try:
            if what == "dangling-becomes-folder":
                (tree / "later").symlink_to(victim / "later")
                cli(argv)
                (tree / "later").unlink()
                (tree / "later").mkdir()
                (tree / "later" / "a.cu").write_bytes(SMALL)
            elif what == "out-folder-link":
                shutil.rmtree(out / "sub", ignore_errors=True)
                out.mkdir(exist_ok=True)
                if not (out / "sub").is_symlink():
                    (out / "sub").symlink_to(victim / "sub")
            elif what == "out-file-link":
                out.mkdir(exist_ok=True)
                (out / "a.cu").unlink(missing_ok=True)
                (out / "a.cu").symlink_to(victim / "keep.cu")
            elif what == "out-root-link" and not out.exists() and not out.is_symlink():
                out.symlink_to(victim)
            elif what == "tree-link-outside":
                (tree / "linked").symlink_to(victim / "sub")
            elif what == "tree-link-loop":
                (tree / "sub" / "loop").symlink_to("..")
            elif what == "out-parent-link":
                (work / "up").mkdir(exist_ok=True)
                if not (work / "up" / "o").exists():
                    (work / "up" / "o").symlink_to(victim / "sub")
            elif what == "race":
                stop = threading.Event()

                def flip():
                    while not stop.is_set():
                        try:
                            if (out / "sub").is_symlink():
                                (out / "sub").unlink()
                            elif (out / "sub").is_dir():
                                shutil.rmtree(out / "sub", ignore_errors=True)
                            (out / "sub").symlink_to(victim / "sub")
                        except OSError:
                            pass
                        time.sleep(0.0005)
                out.mkdir(exist_ok=True)
                t = threading.Thread(target=flip, daemon=True)
                t.start()
                try:
                    cli(argv)
                finally:
                    stop.set()
                    t.join()
        except FileExistsError:
            pass
    status, _, err = cli(argv)
    if "out-parent-link" in done:
        cli(["translate", str(tree), "-o", str(work / "up" / "o" / "x"), *options])
    failures = []
    if status not in (0, 1, 2):
        failures.append(("bad-exit", f"links: exit {status}", err[-300:]))
    # -o naming a link (out -> victim, or a path through up/o -> victim/sub) is where the
    # user asked the output to go: only links below the output folder must not be followed.
    if not {"out-parent-link", "out-root-link"} & set(done) and tree_bytes(victim) != before:
        changed = sorted(k for k in set(before) | set(tree_bytes(victim)) if before.get(k) != tree_bytes(victim).get(k))
        failures.append(("write-outside", "links: " + ", ".join(done), repr(changed)))
    return failures


# ------------------------------------------------------------------ workers and the campaign

def _task(kind: str, seed: int, index: int, cache: str) -> dict:
    rng = random.Random(f"{seed}/{kind}/{index}")
    work = Path(tempfile.mkdtemp(prefix=f"cu2hip-{kind}-"))
    os.environ["CU2HIP_CACHE_DIR"] = cache
    started = time.monotonic()
    try:
        if kind == "configs":
            failures = run_config(rng, work)
        elif kind == "rules":
            failures = run_rules(rng, work)
        elif kind == "options":
            failures = run_options(rng, work)
        elif kind == "state":
            own = work / "cache"          # its own: entries are tampered with
            os.environ["CU2HIP_CACHE_DIR"] = str(own)
            failures = run_state(rng, work, own)
        elif kind == "concurrent":
            failures = run_concurrent(rng, work, work / "cache")
        elif kind == "names":
            failures = run_names(rng, work)
        elif kind == "compdb":
            failures = run_compdb(rng, work)
        elif kind == "buildfiles":
            failures = run_buildfiles(rng, work)
        elif kind == "links":
            failures = run_links(rng, work)
        else:
            failures = run_special(index, work)
    except _Alarm:
        failures = [("hang", kind, traceback.format_exc(limit=-8))]
    except BaseException as exc:        # SystemExit included: a traceback is what is counted
        frames = traceback.extract_tb(exc.__traceback__)
        where = next((f"{Path(f.filename).name}:{f.name}" for f in reversed(frames)
                      if "/translator/" in f.filename), "?")
        failures = [("exception", f"{type(exc).__name__} in {where}", traceback.format_exc(limit=-12))]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        shutil.rmtree(work, ignore_errors=True)
    return {"index": index, "failures": failures, "seconds": time.monotonic() - started}


def _worker(args) -> dict:
    kind, seed, index, cache, timeout = args
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    return _task(kind, seed, index, cache)


def _init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))


def run_campaign(kind: str, seed: int, count: int, seconds: float | None, jobs: int, timeout: float,
                 progress=print) -> dict:
    if kind == "special":
        count = min(count, len(special_cases()))
    if kind == "concurrent":
        timeout = max(timeout, 900.0)      # several processes, each translating a tree
    # Imported (and the tables loaded) before the workers fork: a fresh worker's imports on a
    # loaded machine can take longer than an input's time limit.
    import translator.cli  # noqa: F401
    from translator.passes import Options
    from translator.pipeline import translate
    translate("warm.cu", b"int main() { cudaFree(0); }\n", Options())
    from translator.rules import parse_rules
    parse_rules("rename A -> B\n")       # the rules grammar, built once (2 s on a loaded machine)
    caches = [tempfile.mkdtemp(prefix="cu2hip-fuzz-cache-") for _ in range(jobs)]
    counts = {"inputs": 0, **{k: 0 for k in FAILURES}, "exit-2": 0}
    distinct: dict = {}
    started = time.monotonic()
    stop = started + seconds if seconds else None
    times = []
    ctx = mp.get_context("fork")
    # The pool's feeder thread takes a task only when fewer than two per worker are out:
    # the time limit is then when the last inputs start, not when a queue of every input
    # made at once is dropped.
    slots = threading.Semaphore(2 * jobs)
    closing = threading.Event()
    with ctx.Pool(jobs, initializer=_init, maxtasksperchild=500) as pool:
        def tasks():
            for i in range(count):
                while not slots.acquire(timeout=0.2):
                    if closing.is_set():
                        return
                if closing.is_set() or stop is not None and time.monotonic() > stop:
                    return
                yield (kind, seed, i, caches[i % jobs], timeout)
        pending = pool.imap_unordered(_worker, tasks())
        last = started
        try:
            while True:
                try:
                    outcome = pending.next(timeout=timeout + 60)
                except StopIteration:
                    break
                except mp.TimeoutError:          # a worker stuck beyond its own alarm: a hang in C
                    counts["hang"] += 1
                    distinct.setdefault(("hang", "worker silent"), {"kind": "hang", "signature": "worker silent",
                                                                    "count": 0, "first_index": -1, "detail": ""})
                    break
                slots.release()
                counts["inputs"] += 1
                times.append(outcome["seconds"])
                for failure, signature, detail in outcome["failures"]:
                    counts[failure] += 1
                    rec = distinct.setdefault((failure, signature), {"kind": failure, "signature": signature, "count": 0,
                                                                     "first_index": outcome["index"], "detail": detail})
                    rec["count"] += 1
                if time.monotonic() - last > 30:
                    last = time.monotonic()
                    progress(f"  {kind}: {counts['inputs']:,} inputs, "
                             f"{sum(counts[k] for k in FAILURES):,} failures, {last - started:.0f} s")
        finally:
            closing.set()      # the feeder thread returns: terminate() can join it
    for c in caches:
        shutil.rmtree(c, ignore_errors=True)
    elapsed = time.monotonic() - started
    times.sort()
    return {"kind": kind, "counts": counts, "failures_total": sum(counts[k] for k in FAILURES),
            "distinct_failures": sorted(distinct.values(), key=lambda r: -r["count"]),
            "seconds": {"campaign": round(elapsed, 1), "inputs_per_second": round(counts["inputs"] / elapsed, 2),
                        "per_input_p50": round(times[len(times) // 2], 4) if times else 0,
                        "per_input_max": round(times[-1], 3) if times else 0}}


def report(results: dict) -> str:
    c, s = results["counts"], results["seconds"]
    lines = [f"cu2hip input campaign ({results['kind']}), {results['date']}",
             f"command: {results['command']}",
             f"seed {results['seed']}, jobs {results['jobs']}, timeout {results['timeout_s']} s per input",
             f"commit: {results['git']['commit']}{'-dirty' if results['git']['dirty'] else ''}",
             f"machine: {results['machine']}", "",
             f"inputs                  {c['inputs']:>9,}   ({s['inputs_per_second']:,} inputs/s over "
             f"{s['campaign']:,} s; p50 {s['per_input_p50']} s, max {s['per_input_max']} s)"]
    lines += [f"{k:<24}{c[k]:>9,}" for k in FAILURES]
    lines += ["", f"distinct failures: {len(results['distinct_failures'])}"]
    for r in results["distinct_failures"]:
        lines.append(f"  {r['kind']:<16} x{r['count']:<6} {r['signature']}  (first #{r['first_index']})")
        detail = (r.get("detail") or "").strip().splitlines()
        if detail:
            lines.append(f"      {detail[-1][:300]}")
    return "\n".join(lines) + "\n"
