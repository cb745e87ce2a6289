#!/usr/bin/env python3
"""A fuzzing campaign for cu2hip's pipeline (standard library only).

Each input is a snippet (20-200 lines, or sometimes a whole file) of a corpus file
(`corpus/**/*.cu`, `*.cuh`) or of a golden input (`tests/passes/*/*.cu`), with 1 to 4
mutations chosen by `random.Random(f"{seed}/{index}")` (so input N of seed S is always
the same input, whichever worker makes it), translated in process by
`translator.pipeline.translate(path, data, options)` with options drawn per input
(rocm_version among 5.2, 6.0, 6.2, 7.0; hip_kernel_execution_syntax and roc on or off).

The checks, per input (the failure kinds):

  exception              translate (or the re-translation of its output) raised.
  crash                  the worker process died (a segfault in C code, say).
  hang                   the input took longer than --timeout seconds (the worker's own
                         SIGALRM, which gives a Python traceback; the parent kills a
                         worker that does not answer within --timeout + 3 s: a hang in C).
  changed-outside-edits  two checks:
      [apply_fixes]  `translator.edits.apply_fixes(input, result.applied)` accepts every
                     fix and gives exactly `result.output`. This proves that the reported
                     edits are a complete and faithful account of the output, as the
                     translator's own applier splices them; it relies on apply_fixes.
      [splice]       independently of apply_fixes: the edits of `result.applied`, sorted as
                     a splice (by start, an insertion before a replacement at one point,
                     else in the reported order), do not overlap and lie inside the input;
                     each edit's new text is found in the output where the shifts of the
                     earlier edits put it; and the output with those new-text spans
                     removed equals the input with the edits' old spans removed (gap by
                     gap, and the lengths add up). This proves that every byte outside the
                     reported edits is unchanged and in place, whatever apply_fixes does.
                     Neither check says the edits themselves are right.
  non-idempotent         translating the output again, with the same options, gives a
                         different output (byte for byte).
  p003-on-parsing        a P003 diagnostic (the output does not parse where the input did)
                         on an input that parses: `parse_file(input).main.root.has_error`
                         is False.
  p005                   a P005 diagnostic (the passes did not settle).
  unsound-bound          an input with a write of a launch's block variable inserted before
                         the launch (the write_between mutation) whose kernel still gets
                         __launch_bounds__ (L001): the bound came from a value that is not
                         the one launched.

Not failures, counted apart: P003 on inputs that do not parse (`p003-on-broken`), each
with a check of its message's claim (the output has an error site at the line:col the
message gives, and the input position it is reported at lies in no error site of the
input); inputs skipped as binary (a NUL byte in the first 8 KiB: I002).

Each distinct failure (kind + signature) is minimized (delta debugging by lines, then by
bytes, keeping the same kind and, for exceptions, hangs and crashes, the same signature)
and saved to bench/results/fuzz-failures/<kind>-<hash>.cu, with a sidecar .txt.

    python bench/fuzz.py --seed 1 --count 2000
    python bench/fuzz.py --seed 2 --seconds 1500 --count 1000000 --jobs 2

`--kind` picks what is fuzzed: `sources` (the above), or, through the command line in
process, `configs`, `rules`, `options`, `state` (the cache and the run record: tampered
and foreign entries, link targets edited), `concurrent` (runs at once over one tree and
one cache), `special` (special files in every place a path is accepted), `names` (hostile
file names through every output format), `compdb` (hostile compilation databases through
`report`'s compilers), `buildfiles` (mutated CMake and Make files) and `links` (links in
and around the input and output trees, and a link flipped during a run): see
bench/fuzz_inputs.py. Their results go to bench/results/fuzz-KIND.json and .txt.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from multiprocessing.connection import wait
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DEFAULT_OUT = REPO / "bench" / "results" / "fuzz.json"
FAILURES_DIR = REPO / "bench" / "results" / "fuzz-failures"

FAILURE_KINDS = ("exception", "crash", "hang", "changed-outside-edits", "non-idempotent", "p003-on-parsing",
                 "p005", "unsound-bound")
ROCM_VERSIONS = ((5, 2), (6, 0), (6, 2), (7, 0))
GENTLE_SHARE = 0.4  # inputs made with gentle mutations only (see m_wrap_if...)
GRACE_S = 3.0       # beyond --timeout, before the parent kills a silent worker


# ------------------------------------------------------------------ inputs

def load_sources(repo: Path = REPO) -> list[tuple[str, bytes]]:
    """(path relative to the repository, bytes) of every corpus file and golden input."""
    corpus = sorted(p for p in (repo / "corpus").rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())
    golden = sorted((repo / "tests" / "passes").glob("*/*.cu"))
    return [(p.relative_to(repo).as_posix(), p.read_bytes()) for p in corpus + golden]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)       # bytes: splits at LF, CRLF and CR only


def _newline(data: bytes) -> bytes:
    return b"\r\n" if b"\r\n" in data else b"\n"


def _line_start(rng: random.Random, data: bytes) -> int:
    """A random offset at the start of a line (or the end of the data)."""
    starts = [0] + [m.end() for m in re.finditer(rb"\r\n|\r|\n", data)]
    return rng.choice(starts)


def _insert(data: bytes, at: int, text: bytes) -> bytes:
    return data[:at] + text + data[at:]


def m_delete_lines(rng, data):
    lines = _lines(data)
    if not lines:
        return data, "delete_lines(none)"
    i, k = rng.randrange(len(lines)), rng.choice((1, 1, 1, 2, 3, 5, 10))
    del lines[i:i + k]
    return b"".join(lines), f"delete_lines({i},{k})"


def m_duplicate_lines(rng, data):
    lines = _lines(data)
    if not lines:
        return data, "duplicate_lines(none)"
    i, k = rng.randrange(len(lines)), rng.choice((1, 1, 2, 3, 8))
    chunk = lines[i:i + k]
    if chunk and not chunk[-1].endswith((b"\n", b"\r")):
        chunk[-1] += _newline(data)
    lines[i:i] = chunk
    return b"".join(lines), f"duplicate_lines({i},{k})"


def m_swap_lines(rng, data):
    lines = _lines(data)
    if len(lines) < 2:
        return data, "swap_lines(none)"
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    a, b = lines[i], lines[j]
    nl = _newline(data)
    if not a.endswith((b"\n", b"\r")):
        a += nl
    if not b.endswith((b"\n", b"\r")):
        b += nl
    lines[i], lines[j] = b, a
    return b"".join(lines), f"swap_lines({i},{j})"


LAUNCH_TOKENS = (b"<<<", b">>>", b"k<<<1,1>>>();", b"<<<1, 1>>>", b"k<<<g, b, 0, s>>>(a, n);", b"<<<<", b">>>>")


def m_launch(rng, data):
    text = rng.choice(LAUNCH_TOKENS)
    at = _line_start(rng, data) if rng.random() < 0.4 else rng.randrange(len(data) + 1)
    return _insert(data, at, text), f"launch({text.decode()!r}@{at})"


DIRECTIVES = (b"#if 0", b"#ifdef X", b"#else", b"#endif", b"#if 1", b"#ifndef X", b"#elif 0", b"#elif defined(X)",
              b"#if defined(__HIP_PLATFORM_AMD__)", b"#define X", b"#include <cuda_runtime.h>", b"#")


def m_directive(rng, data):
    text = rng.choice(DIRECTIVES)
    if rng.random() < 0.85:
        at = _line_start(rng, data)
        text = text + _newline(data)
    else:
        at = rng.randrange(len(data) + 1)       # mid-line: not a directive at all
    return _insert(data, at, text), f"directive({text.strip().decode()!r}@{at})"


def m_brace(rng, data):
    text = rng.choice((b"{", b"}", b"{", b"}", b"(", b")", b"[", b"]", b"<", b">"))
    at = rng.randrange(len(data) + 1)
    return _insert(data, at, text), f"brace({text.decode()!r}@{at})"


def m_quote(rng, data):
    text = rng.choice((b'"', b"'", b'"', b"'", b'R"(', b'u8"', b"L'"))
    at = rng.randrange(len(data) + 1)
    return _insert(data, at, text), f"quote({text.decode()!r}@{at})"


def m_comment(rng, data):
    text = rng.choice((b"/*", b"//", b"/*", b"//", b"*/", b"/**/", b"///"))
    at = rng.randrange(len(data) + 1)
    return _insert(data, at, text), f"comment({text.decode()!r}@{at})"


def m_backslash(rng, data):
    ends = [m.start() for m in re.finditer(rb"\r\n|\r|\n", data)]
    if ends and rng.random() < 0.75:
        at = rng.choice(ends)                  # a line continuation
    else:
        at = rng.randrange(len(data) + 1)
    text = rng.choice((b"\\", b"\\", b"\\ ", b"\\\\"))
    return _insert(data, at, text), f"backslash({text.decode()!r}@{at})"


def _random_byte_string(rng: random.Random) -> bytes:
    out = bytearray()
    for _ in range(rng.randint(1, 8)):
        r = rng.random()
        if r < 0.03:
            out.append(0)                                   # NUL (makes the file "binary")
        elif r < 0.35:
            out.append(rng.randrange(0x80, 0x100))          # invalid UTF-8 on its own
        elif r < 0.45:
            char = rng.choice(("é", "ü", "🚀", "✓", "\u2028", "\ufeff")).encode()
            out += char[:rng.randint(1, 4)]                  # maybe a truncated sequence
        elif r < 0.6:
            out += bytes([rng.choice(b"{}()[]<>;,:#\"'\\/*=&|!?~^%.\t\x0b\x0c\r\n")])
        else:
            out.append(rng.randrange(0x01, 0x80))
    return bytes(out)


def m_random_bytes(rng, data):
    text = _random_byte_string(rng)
    at = rng.randrange(len(data) + 1)
    if rng.random() < 0.5 or not data:
        return _insert(data, at, text), f"random_bytes(insert {text!r}@{at})"
    return data[:at] + text + data[at + len(text):], f"random_bytes(overwrite {text!r}@{at})"


def m_nul_after_8k(rng, data):
    """A NUL byte that is not in the first 8 KiB: the file is still translated."""
    pad = b"// " + b"padding " * 1030 + _newline(data)
    at = rng.randrange(len(data) + 1)
    return pad + _insert(data, at, b"\0"), f"nul_after_8k(@{at})"


def m_truncate(rng, data):
    at = rng.randrange(len(data) + 1)
    return data[:at], f"truncate({at})"


def m_deep_nesting(rng, data):
    n = min(2000, int(2 ** rng.uniform(0, 11)))
    opener, closer = rng.choice(((b"{", b"}"), (b"(", b")"), (b"{", b"}")))
    lines = _lines(data)
    if not lines:
        return opener * n + closer * n, f"deep_nesting({opener.decode()}x{n}, empty)"
    i = rng.randrange(len(lines))
    j = rng.randint(i, min(len(lines), i + 20))
    sep = _newline(data) if rng.random() < 0.5 else b""
    region = b"".join(lines[i:j])
    if region and not region.endswith((b"\n", b"\r")) and sep:
        region += sep
    wrapped = opener * n + sep + region + closer * n + sep
    return b"".join(lines[:i]) + wrapped + b"".join(lines[j:]), f"deep_nesting({opener.decode()}x{n}, lines {i}..{j})"


def m_line_endings(rng, data):
    mode = rng.choice(("crlf", "cr", "mixed"))
    lines = _lines(data)
    out = []
    for line in lines:
        body = line.rstrip(b"\r\n")
        ended = len(body) != len(line)
        if not ended:
            out.append(body)
            continue
        nl = {"crlf": b"\r\n", "cr": b"\r"}.get(mode) or rng.choice((b"\n", b"\r\n", b"\r"))
        out.append(body + nl)
    return b"".join(out), f"line_endings({mode})"


API_LINES = (b"cudaMalloc(&p, n);", b"cudaFree(p);", b"cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);",
             b"cudaStream_t s; cudaStreamCreate(&s);", b"cudaDeviceSynchronize();",
             b"__global__ void k(float* a) { a[threadIdx.x] = 0; }", b"k<<<grid, block>>>(a);",
             b"v = __shfl_down_sync(0xffffffff, v, 16);", b"cublasHandle_t h;", b"#include <cublas_v2.h>",
             b"CHECK(cudaGetLastError());", b"cudaMemcpyToSymbol(c, p, 4);", b"__syncwarp();")


def m_api_line(rng, data):
    text = rng.choice(API_LINES)
    at = _line_start(rng, data) if rng.random() < 0.7 else rng.randrange(len(data) + 1)
    return _insert(data, at, text + _newline(data)), f"api_line({text.decode()!r}@{at})"


# ---- gentle mutations: they keep whole statements and items, so that many inputs still parse
# and the P003-on-parsing and idempotence checks have code that parses to work on.

def _depths(lines: list[bytes]) -> list[tuple[int, int]]:
    """Per line: (brace depth, paren depth) at its start, skipping strings, character
    literals and comments (approximately: no raw strings, no continued directives)."""
    out = []
    brace = paren = 0
    in_block = False
    for line in lines:
        out.append((brace, paren))
        i, n = 0, len(line)
        while i < n:
            c = line[i:i + 1]
            if in_block:
                end = line.find(b"*/", i)
                if end == -1:
                    break
                in_block, i = False, end + 2
                continue
            if line.startswith(b"//", i):
                break
            if line.startswith(b"/*", i):
                in_block, i = True, i + 2
                continue
            if c in (b'"', b"'"):
                j = i + 1
                while j < n and line[j:j + 1] not in (c, b"\n"):
                    j += 2 if line[j:j + 1] == b"\\" else 1
                i = j + 1
                continue
            if c == b"{":
                brace += 1
            elif c == b"}":
                brace -= 1
            elif c == b"(":
                paren += 1
            elif c == b")":
                paren -= 1
            i += 1
    out.append((brace, paren))
    return out


def _balanced_region(rng, lines: list[bytes], inside: bool | None = None, tries: int = 30):
    """Line indices [i, j) whose text has balanced braces and parentheses, that start and end
    at paren depth 0 (and, with inside=True, inside a brace; with False, at file level)."""
    if not lines:
        return None
    depth = _depths(lines)
    for _ in range(tries):
        i = rng.randrange(len(lines) + 1)
        j = rng.randint(i, min(len(lines), i + rng.choice((1, 2, 5, 20))))
        if depth[i] != depth[j] or depth[i][1] != 0 or any(d[0] < depth[i][0] for d in depth[i:j + 1]):
            continue
        if inside is not None and (depth[i][0] > 0) != inside:
            continue
        if i > 0 and not lines[i - 1].rstrip().endswith((b";", b"{", b"}", b"*/")) and \
                not lines[i - 1].lstrip().startswith((b"#", b"//")) and lines[i - 1].strip():
            continue          # not after a statement's or item's end
        return i, j
    return None


def _ends(line: bytes, nl: bytes) -> bytes:
    return line if line.endswith((b"\n", b"\r")) else line + nl


def m_wrap_if(rng, data):
    lines = _lines(data)
    region = _balanced_region(rng, lines)
    if region is None:
        return data, "wrap_if(none)"
    i, j = region
    nl = _newline(data)
    body = [_ends(x, nl) for x in lines[i:j]]
    cond = rng.choice((b"#if 0", b"#if 1", b"#ifdef __HIP_PLATFORM_AMD__", b"#ifndef X", b"#if defined(__CUDACC__)"))
    other = rng.choice(([], body, [b"cudaFree(p);" + nl] if _depths(lines)[i][0] else [b"int alt;" + nl]))
    wrapped = [cond + nl, *body] + ([b"#else" + nl, *other] if rng.random() < 0.6 else []) + [b"#endif" + nl]
    lines[i:j] = wrapped
    return b"".join(lines), f"wrap_if({cond.decode()!r}, lines {i}..{j})"


def m_nest_balanced(rng, data):
    """Nesting that still parses: N braces around whole statements inside a function, or N
    namespaces / extern "C" blocks around items at file level (N up to 2,000)."""
    lines = _lines(data)
    region = _balanced_region(rng, lines)
    n = min(2000, int(2 ** rng.uniform(0, 11)))
    if region is None:
        return data, "nest_balanced(none)"
    i, j = region
    nl = _newline(data)
    if _depths(lines)[i][0] > 0:
        opener, closer, what = b"{", b"}", "braces"
    elif rng.random() < 0.5:
        opener, closer, what = b"namespace n {", b"}", "namespaces"
    else:
        opener, closer, what = b'extern "C" {', b"}", "extern C"
    body = b"".join(_ends(x, nl) for x in lines[i:j])
    lines[i:j] = [opener * n + nl + body + closer * n + nl]
    return b"".join(lines), f"nest_balanced({what} x{n}, lines {i}..{j})"


def m_move_region(rng, data):
    """Delete, duplicate or move a balanced region of whole lines."""
    lines = _lines(data)
    region = _balanced_region(rng, lines)
    if region is None:
        return data, "move_region(none)"
    i, j = region
    nl = _newline(data)
    body = [_ends(x, nl) for x in lines[i:j]]
    how = rng.choice(("delete", "duplicate", "move"))
    if how == "delete":
        del lines[i:j]
    elif how == "duplicate":
        lines[j:j] = body
    else:
        del lines[i:j]
        spot = _balanced_region(rng, lines, inside=None)
        k = spot[0] if spot else 0
        lines[k:k] = body
    return b"".join(lines), f"move_region({how}, lines {i}..{j})"


STATEMENTS = (b"k<<<dim3(1, 1), 32, 0, 0>>>(x);", b"t<float><<<1, 64>>>(a);", b"k<<<g, b>>>(f<int, 2>(x), y > z);",
              b"k<<< (n + 255) / 256, 256 >>>(a, n);", b"CHECK(cudaMalloc((void**)&p, n * sizeof(float)));",
              b"cudaMemcpyAsync(d, h, n, cudaMemcpyDeviceToHost, s);", b"auto f = [&]() { cudaFree(p); };",
              b"cudaLaunchKernel((void*)k, g, b, args, 0, s);",
              b"cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &a, A, n, B, n, &b, C, n);",
              b"curandGenerateUniform(gen, p, n);", b"v = __shfl_xor_sync(__activemask(), v, 1);",
              b"cudaMemcpyToSymbol(sym, &h, sizeof(h));", b"int x = warpSize;",
              b"cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) return;", b"k<<<1, 1>>>();",
              b"#if 0\ncudaFree(p);\n#endif", b"cudaStream_t s = 0; cudaStreamSynchronize(s);",
              b'const char* m = "cudaMalloc <<<1,1>>>";', b"/* cudaFree(p); */ cudaFree(p); // cudaFree",
              b"thrust::device_vector<float> v(n);", b"cub::DeviceReduce::Sum(t, b, i, o, n);",
              b"cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);", b"cudaTextureObject_t tex;",
              b"__syncthreads();", b"if (n) k<<<1, 1>>>(); else cudaFree(p);", b"for (;;) k<<<1, 1>>>(a);",
              b"return k<<<1, 1>>>(), cudaGetLastError();", b"CHECK(cudaFree(p))",
              b"LAUNCH(k, n);", b"cudaEvent_t ev; cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);",
              b"k<<<g, b, sizeof(float) * n>>>(a);", b"cuMemAlloc(&dptr, n);", b"cudaMallocManaged(&p, n);")
ITEMS = (b"__global__ void k2(float* a) { a[threadIdx.x] = 0; }", b"#include <cuda_runtime.h>", b'#include "cuda.h"',
         b"#include <cublas_v2.h>", b"#include <curand.h>", b"__constant__ float c[16];", b"__device__ int d;",
         b"#define LAUNCH(k, n) k<<<(n + 255) / 256, 256>>>()", b"texture<float, 1> tx;",
         b"template <typename T> __global__ void tk(T* a) { a[0] = T(); }",
         b"static void h() { cudaFree(0); k<<<1, 1>>>(); }", b"#define CHECK(x) do { (void)(x); } while (0)",
         b"cudaStream_t global_stream;", b"#pragma once", b"extern __shared__ float sm[];",
         b"using cudaAlias = cudaError_t;", b"#define cudaMalloc myMalloc", b"typedef cudaEvent_t ev_t;")


def m_api_statement(rng, data):
    """A statement inside a function, or an item at file level, at a line start."""
    lines = _lines(data)
    region = _balanced_region(rng, lines)
    i = region[0] if region else 0
    inside = bool(lines) and i < len(lines) + 1 and _depths(lines)[i][0] > 0
    text = rng.choice(STATEMENTS if inside else ITEMS)
    nl = _newline(data)
    lines.insert(i, text.replace(b"\n", nl) + nl)
    return b"".join(lines), f"api_statement({text.decode()!r}@line {i})"


def m_comment_line(rng, data):
    lines = _lines(data)
    region = _balanced_region(rng, lines)
    i = region[0] if region else 0
    text = rng.choice((b"// cudaMalloc(&p, n); k<<<1,1>>>();", b"/* cudaFree(p); */", b"/* {{ ((\n cudaFree */",
                       b"// \xc3\xbcn\xc3\xafc\xc3\xb8de cudaStream_t", b"/// \\", b"/*\n#if 0\n*/"))
    nl = _newline(data)
    lines.insert(i, text.replace(b"\n", nl) + nl)
    return b"".join(lines), f"comment_line({text.decode(errors='replace')!r}@line {i})"


# Writes of a launch's block variable between its definition and the launch: every form
# the host values must account for (translator/ir/writes.py). `{X}` is the variable.
INT_WRITES = (b"{X} = {X} * 2 + 64;", b"{X} += 64;", b"++{X};", b"{X}--;", b"{X} <<= 1;", b"std::cin >> {X};",
              b"{ int& r_ = {X}; r_ = 1024; }", b"{ auto* p_ = &{X}; *p_ = 1024; }", b"memcpy(&{X}, &{X}, sizeof {X});",
              b"fuzz_parse({X});", b"FUZZ_SET({X});", b"std::swap({X}, {X});", b"sscanf(\"1024\", \"%d\", &{X});")
DIM3_WRITES = (b"{X}.x = 1024;", b"{X}.x *= 2;", b"++{X}.x;", b"{X} = dim3(1024);", b"{ unsigned& r_ = {X}.x; r_ = 1024; }",
               b"memset(&{X}, 0, sizeof {X});", b"fuzz_dims({X});")
WRITE_MARK = b"/* cu2hip-fuzz: writes "       # + b"<variable> before a launch of <kernel> */"
_BLOCK_LAUNCH = re.compile(rb"^([ \t]+)([A-Za-z_]\w*)\s*(?:<[^<>;]*>)?\s*<<<[^;]*?,\s*([A-Za-z_]\w*)\s*(?:,[^;]*)?>>>",
                           re.M)


def m_write_between(rng, data):
    """A write of a launch's block variable (a local of the launching function) inserted
    just before the launch: the kernel must then get no bound from the variable's
    initializer (the `unsound-bound` check)."""
    found = []
    for match in _BLOCK_LAUNCH.finditer(data):
        name = match.group(3)
        before = data[max(0, match.start() - 4000):match.start()]
        declared = list(_declaration(name).finditer(before))
        if declared and b"#define " + name not in data:
            found.append((match, declared[-1].group(1) == b"dim3"))
    if not found:
        return data, "write_between(none)"
    match, dim3 = rng.choice(found)
    name, kernel = match.group(3), match.group(2)
    write = rng.choice(DIM3_WRITES if dim3 else INT_WRITES).replace(b"{X}", name)
    nl = _newline(data)
    line = match.group(1) + write + b" " + WRITE_MARK + name + b" before a launch of " + kernel + b" */" + nl
    start = data.rfind(b"\n", 0, match.start() + 1) + 1 if data[match.start():match.start() + 1] != b"\n" else \
        match.start() + 1
    return _insert(data, start, line), f"write_between({write.decode()!r} before {kernel.decode()})"


def _declaration(name: bytes) -> re.Pattern[bytes]:
    """A local's declaration that is not const: `int t = ...;`, `dim3 b(64);` (indented:
    inside a function), the type directly before the name."""
    return re.compile(rb"^[ \t]+(?:static[ \t]+)?(?:unsigned[ \t]+)?(int|unsigned|size_t|long|dim3|auto)[ \t]+"
                      + re.escape(name) + rb"[ \t]*[=({;,]", re.M)


_MARKED_WRITE = re.compile(rb"^([ \t]*)([^\n]*?) /\* cu2hip-fuzz: writes (\w+) before a launch of (\w+) \*/", re.M)


def marked_writes(data: bytes) -> set[str]:
    """The kernels whose launch's block variable a `write_between` mutation writes: the
    marked line still holds one of the write forms of that variable, the variable is
    declared (not const) before it, and the next line launches the kernel with it (a
    minimized input that lost any of these is no such program)."""
    kernels = set()
    for m in _MARKED_WRITE.finditer(data):
        name, kernel = m.group(3), m.group(4)
        forms = {w.replace(b"{X}", name) for w in INT_WRITES + DIM3_WRITES}
        launch = re.compile(rb"[ \t]*" + re.escape(kernel) + rb"\s*(?:<[^<>;]*>)?\s*<<<[^;]*?,\s*" + re.escape(name)
                            + rb"\s*(?:,[^;]*)?>>>")
        if m.group(2) in forms and _declaration(name).search(data, 0, m.start()) \
                and launch.match(data, m.end() + 1):
            kernels.add(kernel.decode())
    return kernels


def unsound_bounds(data: bytes, applied) -> str | None:
    """Why the translation bounds a kernel whose launch's block variable the input writes
    before the launch (a `write_between` mutation), or None."""
    kernels = marked_writes(data)
    for fix in applied:
        if fix.rule == "L001" and any(fix.reason.startswith(k + " ") for k in kernels):
            return f"{fix.reason} [{[e.text for e in fix.edits]}]"
    return None


_LAUNCH_ARGS = re.compile(rb"\b[A-Za-z_]\w*\s*<<<[^;{}]*?>>>\s*\(([^;{}]*?)\)\s*;")
_KERNEL_BODY = re.compile(rb"__global__[^;{}]*\)\s*\{")
_WORD = re.compile(rb"\b[A-Za-z_]\w*\b")
# Host statements that make a launch argument possibly aliased, written or read out of sight.
ALIASES = (b"float*& fz_ref = {n}; fz_ref = {n} + 1;", b"fz_rebind({n});", b"{n} = fz_opaque({n});",
           b"auto fz_address = &{n};", b"FZ_MACRO({n});", b"std::swap({n}, {n});", b"const auto& fz_view = {n};")
# Device statements: calls the call graph cannot follow, and block queries.
CALLS = (b"(void)fz_extern(threadIdx.x);", b"(void)fz_table[threadIdx.x & 1](0);", b"(void)fz_functor(0);",
         b"(void)cooperative_groups::this_thread_block().size();", b"(void)(*fz_pointer)(0);")


def m_alias_call(rng, data):
    """Between a value's definition and its use: an alias, a write or an opaque call of a
    launch's argument just before the launch, or a call the call graph cannot follow (a
    function pointer, a table of them, an extern function, a block query) at the start of
    a kernel's body."""
    launches = list(_LAUNCH_ARGS.finditer(data))
    kernels = list(_KERNEL_BODY.finditer(data))
    nl = _newline(data)
    if launches and (not kernels or rng.random() < 0.6):
        launch = rng.choice(launches)
        names = [w for w in _WORD.findall(launch.group(1)) if not w[:1].isdigit()]
        if names:
            name = rng.choice(names)
            text = rng.choice(ALIASES).replace(b"{n}", name)
            at = max(data.rfind(b"\n", 0, launch.start()), data.rfind(b"\r", 0, launch.start())) + 1
            return _insert(data, at, text + nl), f"alias_call({text.decode(errors='replace')!r}@{at})"
    if kernels:
        body = rng.choice(kernels)
        text = rng.choice(CALLS)
        return _insert(data, body.end(), nl + text), f"alias_call({text.decode()!r}@{body.end()})"
    return data, "alias_call(nothing to alias)"


GENTLE = ((m_wrap_if, 3), (m_nest_balanced, 1.5), (m_move_region, 3), (m_api_statement, 5), (m_comment_line, 1),
          (m_line_endings, 1), (m_alias_call, 3), (m_write_between, 8))
_GENTLE_FUNCS = [m for m, _ in GENTLE]
_GENTLE_WEIGHTS = [w for _, w in GENTLE]


# (mutation, weight)
MUTATIONS = ((m_delete_lines, 3), (m_duplicate_lines, 3), (m_swap_lines, 3), (m_launch, 3), (m_directive, 4),
             (m_brace, 4), (m_quote, 3), (m_comment, 3), (m_backslash, 3), (m_random_bytes, 3),
             (m_nul_after_8k, 0.2), (m_truncate, 2), (m_deep_nesting, 1.5), (m_line_endings, 2), (m_api_line, 3))
_MUTATION_FUNCS = [m for m, _ in MUTATIONS]
_MUTATION_WEIGHTS = [w for _, w in MUTATIONS]


def make_input(sources: list[tuple[str, bytes]], seed: int, index: int) -> dict:
    """Input `index` of campaign `seed`: a dict with path, data, options, origin, mutations."""
    rng = random.Random(f"{seed}/{index}")
    name, data = rng.choice(sources)
    lines = _lines(data)
    gentle = rng.random() < GENTLE_SHARE
    if gentle:
        origin = f"{name} (whole, gentle)"
    elif len(lines) > 20 and rng.random() < 0.85:
        length = rng.randint(20, min(200, len(lines)))
        start = rng.randrange(len(lines) - length + 1)
        data = b"".join(lines[start:start + length])
        origin = f"{name} lines {start + 1}..{start + length}"
    else:
        origin = f"{name} (whole)"
    mutations = []
    for _ in range(rng.randint(1, 4)):
        if gentle:
            mutate = rng.choices(_GENTLE_FUNCS, _GENTLE_WEIGHTS)[0]
        else:
            mutate = rng.choices(_MUTATION_FUNCS, _MUTATION_WEIGHTS)[0]
        data, what = mutate(rng, data)
        mutations.append(what)
    options = {"rocm_version": rng.choice(ROCM_VERSIONS), "hip_kernel_execution_syntax": rng.random() < 0.5,
               "roc": rng.random() < 0.5}
    return {"path": Path(name).name, "data": data, "options": options, "origin": origin, "mutations": mutations}


# ------------------------------------------------------------------ the checks (in a worker)

class _Alarm(BaseException):
    """The per-input timeout, raised by SIGALRM (a BaseException: no `except Exception` in
    the translator catches it)."""


def _on_alarm(signum, frame):
    raise _Alarm()


def _signature_frame(tb) -> str:
    """The innermost frame in translator/ (else the innermost), as file:function:line."""
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "/translator/" in f.filename.replace(os.sep, "/")]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return "?"
    path = frame.filename.replace(os.sep, "/")
    path = path[path.rfind("/translator/") + 1:] if "/translator/" in path else Path(path).name
    return f"{path}:{frame.name}"


def splice_check(data: bytes, output: bytes, applied) -> str | None:
    """The independent check (see the module's docstring): None, or what is wrong."""
    edits = [e for fix in applied for e in fix.edits]
    order = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].start != edits[i].end, i))
    pos = out_pos = 0
    kept_in, kept_out = [], []
    for i in order:
        e = edits[i]
        if e.start < pos or e.end > len(data) or e.start > e.end:
            return f"edit {e.start}..{e.end} overlaps an earlier one or lies outside the input ({len(data)} bytes)"
        gap = data[pos:e.start]
        kept_in.append(gap)
        kept_out.append(output[out_pos:out_pos + len(gap)])
        if kept_out[-1] != gap:
            return f"input bytes {pos}..{e.start} are not at output {out_pos}"
        out_pos += len(gap)
        if output[out_pos:out_pos + len(e.text)] != e.text:
            return f"the new text of edit {e.start}..{e.end} is not at output {out_pos}"
        out_pos += len(e.text)
        pos = e.end
    kept_in.append(data[pos:])
    kept_out.append(output[out_pos:])
    if b"".join(kept_in) != b"".join(kept_out):
        return f"input bytes {pos}.. (after the last edit) differ from output {out_pos}.."
    grow = sum(len(e.text) - (e.end - e.start) for e in edits)
    if len(output) != len(data) + grow:
        return f"length: output {len(output)} != input {len(data)} + {grow}"
    return None


def _offset(source, line: int, col: int) -> int:
    starts = source.line_starts
    return starts[min(line, len(starts)) - 1] + col - 1


def p003_claim(path: str, data: bytes, output: bytes, diag) -> dict:
    """Is a P003's message true? (the output has an error site at the line:col it names;
    the input position it is reported at lies in no error site of the input, nor in a
    top-level item with an error)."""
    from translator.frontend import error_sites, parse_file
    from translator.mapping import load_tables
    from translator.scan import mentions_api
    from translator.source import SourceFile
    keep = mentions_api(load_tables())
    m = re.search(r"at output (\d+):(\d+)", diag.message)
    claim = {"message": diag.format()}
    out = parse_file(output, None, frozenset(), keep)
    out_src = SourceFile(path, output)
    sites = out.error_sites + error_sites(out.main.root)
    claim["output_error_at_named_position"] = bool(m) and any(
        out_src.position(s.start) == (int(m.group(1)), int(m.group(2))) for s in sites)
    inp = parse_file(data, None, frozenset(), keep)
    in_src = SourceFile(path, data)
    off = _offset(in_src, diag.line, diag.col)
    in_sites = inp.error_sites + error_sites(inp.main.root)
    claim["input_clean_at_position"] = not any(s.start <= off < max(s.end, s.start + 1) for s in in_sites)
    item = None
    for child in inp.main.root.children:
        if child.start_byte <= off < child.end_byte:
            item = child
            break
    claim["input_item_clean"] = item is None or not item.has_error
    return claim


def check(path: str, data: bytes, options: dict) -> dict:
    """Translate one input and run every check. Returns a dict: failures [(kind,
    signature, detail)], notes (p003-on-broken...), parses, skipped, seconds."""
    from translator.edits import apply_fixes
    from translator.frontend import parse_file
    from translator.passes import Options
    from translator.pipeline import translate

    opts = Options(rocm_version=tuple(options["rocm_version"]), roc=options["roc"],
                   hip_kernel_execution_syntax=options["hip_kernel_execution_syntax"])
    started = time.perf_counter()
    out: dict = {"failures": [], "notes": [], "parses": None, "skipped": False, "p003": 0}
    try:
        parses = not parse_file(data).main.root.has_error
    except Exception as exc:        # the translator's front end: translate would raise too
        parses = None
        out["failures"].append(("exception", f"{type(exc).__name__} at {_signature_frame(exc.__traceback__)}",
                                "parse_file(input): " + traceback.format_exc(limit=-8)))
    out["parses"] = parses
    try:
        result = translate(path, data, opts)
    except Exception as exc:
        out["failures"].append(("exception", f"{type(exc).__name__} at {_signature_frame(exc.__traceback__)}",
                                traceback.format_exc(limit=-12)))
        out["seconds"] = time.perf_counter() - started
        return out
    out["skipped"] = result.skipped
    out["edits"] = sum(len(f.edits) for f in result.applied)
    # Bytes outside the edits: the translator's applier, then the independent splice.
    try:
        new, accepted, refused = apply_fixes(data, result.applied)
        if refused or new != result.output:
            out["failures"].append(("changed-outside-edits", "apply_fixes",
                                    f"apply_fixes(input, applied): {len(refused)} refused, "
                                    f"output {'equal' if new == result.output else 'different'}"))
    except Exception as exc:
        out["failures"].append(("changed-outside-edits", "apply_fixes",
                                f"apply_fixes raised {type(exc).__name__}: {exc}"))
    wrong = splice_check(data, result.output, result.applied)
    if wrong:
        out["failures"].append(("changed-outside-edits", "splice", wrong))
    out["write_between"] = b"cu2hip-fuzz: writes" in data
    unsound = unsound_bounds(data, result.applied) if out["write_between"] else None
    if unsound:
        out["failures"].append(("unsound-bound", "L001 after a write", unsound))
    # Diagnostics.
    p003 = [d for d in result.diagnostics if d.code == "P003"]
    out["p003"] = len(p003)
    if p003:
        if parses:
            near = _nearest_rule(data, path, result.applied, p003[0])
            out["failures"].append(("p003-on-parsing", f"P003 near {near}", p003[0].format()))
        elif parses is False:
            out["notes"].append(("p003-on-broken", p003_claim(path, data, result.output, p003[0])))
    for d in result.diagnostics:
        if d.code == "P005":
            out["failures"].append(("p005", "P005", d.format()))
            break
    # Idempotence.
    if not result.skipped:
        try:
            again = translate(path, result.output, opts)
        except Exception as exc:
            out["failures"].append(("exception", f"{type(exc).__name__} at {_signature_frame(exc.__traceback__)}",
                                    "translating the output again: " + traceback.format_exc(limit=-12)))
        else:
            if again.output != result.output:
                rules = sorted({f.rule for f in again.applied})
                out["failures"].append(("non-idempotent", "again: " + ",".join(rules),
                                        "second translation applied: " + "; ".join(
                                            f"{f.rule} {f.reason} {[(e.start, e.end, e.text) for e in f.edits]}"
                                            for f in again.applied[:5])))
    out["seconds"] = time.perf_counter() - started
    return out


def _nearest_rule(data: bytes, path: str, applied, diag) -> str:
    from translator.source import SourceFile
    off = _offset(SourceFile(path, data), diag.line, diag.col)
    best = None
    for fix in applied:
        for e in fix.edits:
            d = 0 if e.start <= off <= e.end else min(abs(e.start - off), abs(e.end - off))
            if best is None or d < best[0]:
                best = (d, fix.rule)
    return best[1] if best else "-"


def worker_main(conn, sources, timeout: float) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, _on_alarm)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        what, payload = msg
        if what == "gen":
            seed, index = payload
            case = make_input(sources, seed, index)
            path, data, options = case["path"], case["data"], case["options"]
        else:
            path, data, options = payload
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            outcome = check(path, data, options)
        except _Alarm as alarm:
            outcome = {"failures": [("hang", f"timeout in {_signature_frame(alarm.__traceback__)}",
                                     f"over {timeout} s; where it was:\n" + traceback.format_exc(limit=-12))],
                       "notes": [], "parses": None, "skipped": False, "p003": 0, "seconds": timeout, "hang": True}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        outcome["size"] = len(data)
        conn.send(outcome)


# ------------------------------------------------------------------ the pool (in the parent)

class Worker:
    def __init__(self, ctx, sources, timeout: float):
        self.ctx, self.sources, self.timeout = ctx, sources, timeout
        self.start()

    def start(self) -> None:
        here, there = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=worker_main, args=(there, self.sources, self.timeout), daemon=True)
        self.proc.start()
        there.close()
        self.conn = here

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(5)
        if self.proc.is_alive():
            self.kill()


class Pool:
    """Workers, each running one task at a time, each task under a time limit."""

    def __init__(self, jobs: int, sources, timeout: float):
        try:
            self.ctx = mp.get_context("fork")
        except ValueError:
            self.ctx = mp.get_context()
        self.timeout = timeout
        self.workers = [Worker(self.ctx, sources, timeout) for _ in range(jobs)]
        self.restarts = 0

    def close(self) -> None:
        for w in self.workers:
            w.stop()

    def run(self, tasks, on_outcome) -> None:
        """Run tasks (an iterator of messages, pulled lazily) and call on_outcome(task,
        outcome) in completion order."""
        tasks = iter(tasks)
        idle = list(self.workers)
        busy: dict = {}         # conn -> (worker, task, started)
        exhausted = False
        limit = self.timeout + GRACE_S
        while True:
            while idle and not exhausted:
                task = next(tasks, None)
                if task is None:
                    exhausted = True
                    break
                w = idle.pop()
                w.conn.send(task)
                busy[w.conn] = (w, task, time.monotonic())
            if not busy:
                return
            now = time.monotonic()
            soonest = min(t for _, _, t in busy.values()) + limit
            for conn in wait(list(busy), timeout=max(0.0, soonest - now)):
                w, task, _ = busy.pop(conn)
                try:
                    outcome = conn.recv()
                except (EOFError, OSError):
                    w.proc.join(5)
                    code = w.proc.exitcode
                    outcome = {"failures": [("crash", f"worker died (exit code {code})",
                                             f"the worker process died, exit code {code}")],
                               "notes": [], "parses": None, "skipped": False, "p003": 0, "seconds": 0.0}
                    w.kill()
                    w.start()
                    self.restarts += 1
                idle.append(w)
                on_outcome(task, outcome)
            now = time.monotonic()
            for conn, (w, task, t) in list(busy.items()):
                if now - t > limit:
                    busy.pop(conn)
                    w.kill()
                    w.start()
                    self.restarts += 1
                    idle.append(w)
                    on_outcome(task, {"failures": [("hang", "killed (no answer; C code?)",
                                                    f"no answer within {limit} s: the worker was killed")],
                                      "notes": [], "parses": None, "skipped": False, "p003": 0,
                                      "seconds": now - t, "hang": True})

    def map(self, tasks: list) -> list:
        out = [None] * len(tasks)
        ids = {id(t): i for i, t in enumerate(tasks)}

        def got(task, outcome):
            out[ids[id(task)]] = outcome
        self.run(iter(tasks), got)
        return out


# ------------------------------------------------------------------ minimizing

def _same(outcome: dict, kind: str, signature: str) -> bool:
    for k, sig, _ in outcome["failures"]:
        if k == kind and (sig == signature or kind not in ("exception", "hang", "crash")):
            return True
    if kind == "p003-on-broken":
        return outcome.get("parses") is False and outcome.get("p003", 0) > 0
    return False


def ddmin(units: list[bytes], failing, deadline: float, tests: list[int], max_tests: int, jobs: int) -> list[bytes]:
    """Delta debugging (complements only): the smallest sublist of `units` found for which
    failing(list of candidates) -> index of the first that fails (or None) holds."""
    n = 2
    while len(units) >= 2 and time.monotonic() < deadline and tests[0] < max_tests:
        size = max(1, len(units) // n)
        chunks = [(i, min(i + size, len(units))) for i in range(0, len(units), size)]
        found = False
        for b in range(0, len(chunks), jobs):
            batch = [units[:lo] + units[hi:] for lo, hi in chunks[b:b + jobs]]
            tests[0] += len(batch)
            k = failing(batch)
            if k is not None:
                units = batch[k]
                n = max(n - 1, 2)
                found = True
                break
            if time.monotonic() >= deadline or tests[0] >= max_tests:
                return units
        if not found:
            if n >= len(units):
                break
            n = min(len(units), n * 2)
    if len(units) == 1 and time.monotonic() < deadline:
        tests[0] += 1
        if failing([[]]) is not None:
            return []
    return units


def minimize(pool: Pool, path: str, data: bytes, options: dict, kind: str, signature: str,
             seconds: float, max_tests: int) -> tuple[bytes, int]:
    deadline = time.monotonic() + seconds
    tests = [0]
    jobs = len(pool.workers)

    def failing(candidates):
        outcomes = pool.map([("data", (path, b"".join(c), options)) for c in candidates])
        for i, o in enumerate(outcomes):
            if _same(o, kind, signature):
                return i
        return None

    units = ddmin(_lines(data), failing, deadline, tests, max_tests, jobs)
    data = b"".join(units)
    units = ddmin([data[i:i + 1] for i in range(len(data))], failing, deadline, tests, max_tests, jobs)
    return b"".join(units), tests[0]


# ------------------------------------------------------------------ the campaign

def git_state(repo: Path = REPO) -> dict:
    def git(*args):
        try:
            return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return ""
    status = [line for line in git("status", "--porcelain").splitlines() if line.strip()]
    return {"commit": git("rev-parse", "HEAD").strip(), "dirty": bool(status), "status": status}


def translator_hash(repo: Path = REPO) -> str:
    h = hashlib.sha256()
    for p in sorted((repo / "translator").rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
            h.update(p.relative_to(repo).as_posix().encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def run_campaign(seed: int, count: int | None, seconds: float | None, jobs: int = 2, timeout: float = 10.0,
                 minimize_failures: bool = True, minimize_seconds: float = 300.0, max_tests: int = 3000,
                 per_signature: int = 3,
                 failures_dir: Path | None = FAILURES_DIR, sources=None, progress=None) -> dict:
    """Run the campaign; returns the summary (what goes into the JSON)."""
    from translator.pipeline import translate
    from translator.passes import Options
    sources = sources if sources is not None else load_sources()
    translate("warm.cu", b"int main() { cudaFree(0); }\n", Options())     # tables loaded before the fork
    pool = Pool(jobs, sources, timeout)
    counts = {"inputs": 0, **{k: 0 for k in FAILURE_KINDS}, "p003-on-broken": 0, "skipped-binary": 0,
              "inputs-that-parse": 0, "inputs-changed": 0, "inputs-with-failures": 0, "write-between": 0}
    sub = {}                    # changed-outside-edits: per check
    distinct: dict = {}         # (kind, signature) -> record
    broken_p003: list = []
    times: list = []
    by_mutation: dict = {}
    started = time.monotonic()
    stop_at = started + seconds if seconds else None
    last_report = [started]

    def tasks():
        i = 0
        while (count is None or i < count) and (stop_at is None or time.monotonic() < stop_at):
            yield ("gen", (seed, i))
            i += 1

    def got(task, outcome):
        index = task[1][1]
        counts["inputs"] += 1
        times.append((outcome.get("seconds", 0.0), index))
        counts["skipped-binary"] += bool(outcome.get("skipped"))
        counts["write-between"] += bool(outcome.get("write_between"))
        counts["inputs-that-parse"] += outcome.get("parses") is True
        counts["inputs-changed"] += bool(outcome.get("edits"))
        kinds_here = set()
        for kind, signature, detail in outcome["failures"]:
            kinds_here.add(kind)
            if kind == "changed-outside-edits":
                sub[signature] = sub.get(signature, 0) + 1
            rec = distinct.setdefault((kind, signature), {"kind": kind, "signature": signature, "count": 0,
                                                          "first_index": index, "detail": detail,
                                                          "samples": []})
            rec["count"] += 1
            if len(rec["samples"]) < per_signature:
                rec["samples"].append(index)
        for kind in kinds_here:
            counts[kind] += 1
        counts["inputs-with-failures"] += bool(kinds_here)
        for kind, claim in outcome["notes"]:
            counts[kind] += 1
            if len(broken_p003) < 200:
                broken_p003.append({"index": index, **claim})
        if kinds_here:
            case = make_input(sources, seed, index)
            for m in case["mutations"]:
                name = m.split("(")[0]
                by_mutation[name] = by_mutation.get(name, 0) + 1
        if progress and time.monotonic() - last_report[0] > 30:
            last_report[0] = time.monotonic()
            progress(f"  {counts['inputs']:,} inputs, {counts['inputs-with-failures']:,} with failures, "
                     f"{time.monotonic() - started:.0f} s")

    try:
        pool.run(tasks(), got)
        elapsed = time.monotonic() - started
        # Minimize one input per distinct failure, then a few P003-on-broken examples.
        minimized = []
        budget_end = time.monotonic() + minimize_seconds
        todo = sorted(distinct.values(), key=lambda r: (FAILURE_KINDS.index(r["kind"]), -r["count"]))
        examples = _pick_broken_examples(broken_p003)
        # The first sample of every distinct failure, then the others (up to per_signature):
        # one signature may hide several causes.
        order = [(rec, rec["samples"][k]) for k in range(per_signature) for rec in todo if k < len(rec["samples"])]
        order += [({"kind": "p003-on-broken", "signature": "", "example": e}, e["index"]) for e in examples]
        done_hashes: set = set()
        for rec, index in order:
            case = make_input(sources, seed, index)
            entry = {"kind": rec["kind"], "signature": rec["signature"], "index": index,
                     "path": case["path"], "options": _options_json(case["options"]), "origin": case["origin"],
                     "mutations": case["mutations"], "original_bytes": len(case["data"])}
            data = case["data"]
            left = budget_end - time.monotonic()
            if minimize_failures and left > 1:
                per = min(left, 120.0 if rec["kind"] != "hang" else 240.0)
                data, n_tests = minimize(pool, case["path"], case["data"], case["options"], rec["kind"],
                                         rec["signature"], per, max_tests)
                entry["minimize_tests"] = n_tests
            elif index != rec.get("first_index", index):
                continue        # other samples only when they are minimized
            key = (rec["kind"], hashlib.sha256(data).hexdigest())
            if key in done_hashes:
                continue        # the same minimized input as another sample's
            done_hashes.add(key)
            entry["minimized_bytes"] = len(data)
            # What the minimized input gives (the failure's detail, or the P003 claim).
            final = pool.map([("data", (case["path"], data, case["options"]))])[0]
            details = [d for k, s, d in final["failures"] if k == rec["kind"]]
            entry["detail"] = details[0] if details else rec.get("detail", "")
            if rec["kind"] == "p003-on-broken":
                claims = [c for k, c in final["notes"] if k == "p003-on-broken"]
                entry["claim_minimized"] = claims[0] if claims else None
                entry["detail"] = (f"P003 on the minimized input: {claims[0]['message']}\n" if claims else "") + \
                    f"P003 on the input as found: {rec['example']['message']}"
                entry["claim_original"] = rec["example"]
                entry["still_p003_on_broken"] = final.get("parses") is False and final.get("p003", 0) > 0
            entry["input"] = data.decode("utf-8", "backslashreplace")
            if failures_dir is not None and rec["kind"] != "p003-on-broken":
                entry["file"] = _save(failures_dir, entry, data, seed)
            minimized.append(entry)
            if rec["kind"] != "p003-on-broken":
                rec.setdefault("minimized", []).append(entry.get("file"))
    finally:
        pool.close()
    times.sort(reverse=True)
    secs = sorted(t for t, _ in times)
    slowest = []
    for t, index in times[:10]:
        case = make_input(sources, seed, index)
        slowest.append({"index": index, "seconds": round(t, 3), "bytes": len(case["data"]), "origin": case["origin"],
                        "mutations": case["mutations"]})
    claims = {k: sum(bool(e.get(k)) for e in broken_p003) for k in
              ("output_error_at_named_position", "input_clean_at_position", "input_item_clean")}
    return {
        "counts": counts,
        "changed_outside_edits_by_check": sub,
        "failures_total": sum(counts[k] for k in FAILURE_KINDS),
        "distinct_failures": sorted(distinct.values(), key=lambda r: (FAILURE_KINDS.index(r["kind"]), -r["count"])),
        "minimized": minimized,
        "p003_on_broken": {"count": counts["p003-on-broken"], "claims_checked": len(broken_p003),
                           "claims_true": claims, "first": broken_p003[:20]},
        "failing_inputs_by_mutation": by_mutation,
        "seconds": {"campaign": round(elapsed, 1), "inputs_per_second": round(counts["inputs"] / elapsed, 1),
                    "per_input_max": round(secs[-1], 3) if secs else 0,
                    "per_input_p50": round(secs[len(secs) // 2], 4) if secs else 0,
                    "per_input_p99": round(secs[int(len(secs) * 0.99)], 4) if secs else 0,
                    "per_input_p999": round(secs[int(len(secs) * 0.999)], 4) if secs else 0},
        "slowest": slowest,
        "worker_restarts": pool.restarts,
    }


def _pick_broken_examples(claims: list, n: int = 5) -> list:
    """A few P003-on-broken examples: the ones whose claim checks fail first, then others."""
    doubtful = [c for c in claims if not (c["output_error_at_named_position"] and c["input_clean_at_position"])]
    rest = [c for c in claims if c not in doubtful]
    return (doubtful[:3] + rest)[:n]


def _options_json(options: dict) -> dict:
    return {"rocm_version": ".".join(map(str, options["rocm_version"])),
            "hip_kernel_execution_syntax": options["hip_kernel_execution_syntax"], "roc": options["roc"]}


def _save(folder: Path, entry: dict, data: bytes, seed: int) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(entry["kind"].encode() + b"\0" + data).hexdigest()[:12]
    base = folder / f"{entry['kind']}-{digest}"
    base.with_suffix(".cu").write_bytes(data)
    o = entry["options"]
    flags = [f"--rocm-version {o['rocm_version']}"] + (["--hip-kernel-execution-syntax"] if
                                                       o["hip_kernel_execution_syntax"] else []) + \
        (["--roc"] if o["roc"] else [])
    text = (f"kind:       {entry['kind']}\n"
            f"signature:  {entry['signature']}\n"
            f"path given: {entry['path']} (translate(path, data, options); the file here is {base.name}.cu)\n"
            f"options:    rocm_version={o['rocm_version']} hip_kernel_execution_syntax="
            f"{o['hip_kernel_execution_syntax']} roc={o['roc']}\n"
            f"cli flags:  {' '.join(flags)}\n"
            f"found by:   python bench/fuzz.py --seed {seed}  (input #{entry['index']})\n"
            f"origin:     {entry['origin']}; mutations: {', '.join(entry['mutations'])}\n"
            f"size:       {entry['original_bytes']} bytes, minimized to {entry['minimized_bytes']} bytes "
            f"({entry.get('minimize_tests', 0)} tests)\n"
            f"input:      {data!r}\n\n"
            f"detail:\n{entry['detail']}\n")
    base.with_suffix(".txt").write_text(text, encoding="utf-8")
    cu = base.with_suffix(".cu")
    return cu.relative_to(REPO).as_posix() if cu.is_relative_to(REPO) else str(cu)


def report(results: dict) -> str:
    c = results["counts"]
    s = results["seconds"]
    lines = [f"cu2hip fuzz campaign, {results['date']}",
             f"command: {results['command']}",
             f"seed {results['seed']}, jobs {results['jobs']}, timeout {results['timeout_s']} s per input",
             f"commit: {results['git']['commit']}{'-dirty' if results['git']['dirty'] else ''} "
             f"(translator/ hash {results['translator_hash']['start']} at start, "
             f"{results['translator_hash']['end']} at end; "
             + ("the campaign ran a copy of translator/ made at start)" if results.get("translator_snapshot")
                else "translator/ imported from the working tree)"),
             f"machine: {results['machine']}",
             "",
             f"inputs                  {c['inputs']:>9,}   "
             f"({s['inputs_per_second']:,} inputs/s over {s['campaign']:,} s)",
             f"  that parse            {c['inputs-that-parse']:>9,}",
             f"  changed by translate  {c['inputs-changed']:>9,}",
             f"  skipped (binary, I002){c['skipped-binary']:>9,}",
             f"exceptions              {c['exception']:>9,}",
             f"crashes (worker died)   {c['crash']:>9,}",
             f"hangs (> {results['timeout_s']} s)          {c['hang']:>9,}",
             f"changed-outside-edits   {c['changed-outside-edits']:>9,}   "
             + ", ".join(f"{k}: {v}" for k, v in sorted(results["changed_outside_edits_by_check"].items())),
             f"non-idempotent          {c['non-idempotent']:>9,}",
             f"P003-on-parsing         {c['p003-on-parsing']:>9,}",
             f"P003-on-broken (note)   {c['p003-on-broken']:>9,}",
             f"P005                    {c['p005']:>9,}",
             f"unsound-bound           {c['unsound-bound']:>9,}   (write_between inputs: "
             f"{c.get('write-between', 0):,})",
             f"inputs with a failure   {c['inputs-with-failures']:>9,}",
             "",
             f"time per input (translate + checks + re-translation): p50 {s['per_input_p50']} s, "
             f"p99 {s['per_input_p99']} s, p99.9 {s['per_input_p999']} s, max {s['per_input_max']} s",
             "slowest inputs:"]
    for e in results["slowest"][:5]:
        lines.append(f"  #{e['index']}: {e['seconds']} s, {e['bytes']} bytes, {e['origin']}; "
                     f"{', '.join(e['mutations'])}")
    lines += ["", f"distinct failures: {len(results['distinct_failures'])}"]
    for r in results["distinct_failures"]:
        lines.append(f"  {r['kind']:<22} x{r['count']:<6} {r['signature']}  (first #{r['first_index']}"
                     f"{'; ' + ', '.join(filter(None, r['minimized'])) if r.get('minimized') else ''})")
    if results["minimized"]:
        lines += ["", "minimized inputs:"]
        for m in results["minimized"]:
            lines.append(f"  [{m['kind']}] {m['signature']} -- {m['original_bytes']} -> {m['minimized_bytes']} bytes, "
                         f"options {m['options']}{'; ' + m['file'] if m.get('file') else ''}")
            lines.append(f"      input: {m['input']!r}")
            if m["kind"] == "p003-on-broken":
                cl = m["claim_original"]
                lines.append(f"      {cl['message']}")
                lines.append(f"      claim (unminimized input #{m['index']}): output error at the named position: "
                             f"{cl['output_error_at_named_position']}; input clean at the reported position: "
                             f"{cl['input_clean_at_position']}; its top-level item clean: {cl['input_item_clean']}")
            else:
                first = (m.get("detail") or "").strip().splitlines()
                if first:
                    lines.append(f"      {first[-1][:300]}")
    p = results["p003_on_broken"]
    if p["count"]:
        lines += ["", f"P003 on inputs that do not parse: {p['count']} (claims checked on {p['claims_checked']}): "
                  + ", ".join(f"{k} {v}" for k, v in p["claims_true"].items())]
    if results["failing_inputs_by_mutation"]:
        lines += ["", "mutations in failing inputs: " + ", ".join(
            f"{k} {v}" for k, v in sorted(results["failing_inputs_by_mutation"].items(), key=lambda kv: -kv[1]))]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=None, help="inputs (default 1000 unless --seconds is given)")
    ap.add_argument("--seconds", type=float, default=None, help="stop starting inputs after this long")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the JSON; the report goes next to it as .txt")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    ap.add_argument("--minimize-seconds", type=float, default=600.0, help="time for minimizing, in all")
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--per-signature", type=int, default=3, help="inputs minimized per distinct failure")
    ap.add_argument("--failures-dir", type=Path, default=FAILURES_DIR)
    ap.add_argument("--no-snapshot", action="store_true",
                    help="import translator/ from the working tree instead of a copy made at start")
    ap.add_argument("--kind", default="sources", choices=("sources", "configs", "rules", "options", "state",
                                                          "concurrent", "special", "names", "compdb",
                                                          "buildfiles", "links"),
                    help="what is fuzzed (default: sources; the others: bench/fuzz_inputs.py)")
    args = ap.parse_args(argv)
    if args.kind != "sources":
        return _inputs_campaign(args, argv)
    snapshot = None
    if not args.no_snapshot:
        # Others may edit translator/ while the campaign runs: a lazy import in a worker
        # would then load a half-edited module. The campaign runs a copy made now.
        snapshot = Path(tempfile.mkdtemp(prefix="cu2hip-fuzz-"))
        shutil.copytree(REPO / "translator", snapshot / "translator",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        sys.path.insert(0, str(snapshot))
        if "translator" in sys.modules:
            raise SystemExit("translator was imported before the snapshot")
    count = args.count if args.count is not None or args.seconds is not None else 1000
    git = git_state()
    start_hash = translator_hash(snapshot) if snapshot else translator_hash()
    date = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    print(f"fuzzing: seed {args.seed}, count {count}, seconds {args.seconds}, jobs {args.jobs}", flush=True)
    summary = run_campaign(args.seed, count, args.seconds, args.jobs, args.timeout,
                           minimize_failures=not args.no_minimize, minimize_seconds=args.minimize_seconds,
                           per_signature=args.per_signature,
                           failures_dir=args.failures_dir, progress=lambda m: print(m, flush=True))
    results = {
        "date": date,
        "command": " ".join(["python", *(sys.argv if argv is None else ["bench/fuzz.py", *argv])]),
        "seed": args.seed, "count": count, "seconds_limit": args.seconds, "jobs": args.jobs,
        "timeout_s": args.timeout,
        "git": git, "translator_hash": {"start": start_hash, "end": translator_hash()},
        "translator_snapshot": bool(snapshot),
        "machine": f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        **summary,
    }
    text = report(results)
    print(text, end="")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1, default=str) + "\n", encoding="utf-8")
    args.out.with_suffix(".txt").write_text(text, encoding="utf-8")
    if snapshot:
        shutil.rmtree(snapshot, ignore_errors=True)
    return 1 if summary["failures_total"] else 0


def _inputs_campaign(args, argv) -> int:
    """bench/fuzz_inputs.py's campaign of one kind, recorded as bench/results/fuzz-KIND.*"""
    sys.path.insert(0, str(REPO / "bench"))
    import fuzz_inputs
    count = args.count if args.count is not None else 1000
    date = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    print(f"fuzzing {args.kind}: seed {args.seed}, count {count}, seconds {args.seconds}, jobs {args.jobs}",
          flush=True)
    summary = fuzz_inputs.run_campaign(args.kind, args.seed, count, args.seconds, args.jobs, args.timeout,
                                       progress=lambda m: print(m, flush=True))
    results = {"date": date, "command": " ".join(["python", *(sys.argv if argv is None else ["bench/fuzz.py", *argv])]),
               "seed": args.seed, "count": count, "seconds_limit": args.seconds, "jobs": args.jobs,
               "timeout_s": args.timeout, "git": git_state(), "translator_hash": translator_hash(),
               "machine": f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
               **summary}
    text = fuzz_inputs.report(results)
    print(text, end="")
    out = args.out if args.out != DEFAULT_OUT else DEFAULT_OUT.with_name(f"fuzz-{args.kind}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, default=str) + "\n", encoding="utf-8")
    out.with_suffix(".txt").write_text(text, encoding="utf-8")
    return 1 if summary["failures_total"] else 0


if __name__ == "__main__":
    sys.exit(main())
