"""Invariants of every translation, over every golden fixture and every corpus file.

For each input (collected at import, so new corpus files are picked up):
  (a) the output re-parses with no more error sites than the input;
  (b) translating the output again changes nothing (idempotence);
  (c) the output is the input with exactly the applied edits spliced in, and every byte
      outside the edits is identical;
  (d) no diagnostic points outside the file;
  (e) no P003 (internal error) diagnostic.
Plus a hypothesis test over random CUDA-ish snippets.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_golden import case_options, golden_cases
from translator.buildfiles import BuildSyntaxError, build_kind, parse_cmake, parse_make
from translator.edits import Edit
from translator.frontend import parse, parse_file
from translator.passes import Options
from translator.pipeline import Result, translate
from translator.source import SourceFile

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = REPO_ROOT / "corpus"

# The corpus is translated twice: with the defaults, and with every option that adds rewrites.
CORPUS_OPTIONS = {
    "rocm5.2": Options(rocm_version=(5, 2)),
    "rocm7.0-roc-ggl": Options(rocm_version=(7, 0), roc=True, miopen=True, experimental=True,
                               hip_kernel_execution_syntax=True),
}


@dataclass(frozen=True)
class Subject:
    """One input file and the options it is translated with."""
    name: str
    path: Path
    options: Options


def _subjects() -> list[Subject]:
    subjects = [Subject(f"golden/{case.stem}", case, case_options(case.read_bytes()))
                for case in golden_cases()]
    corpus = sorted(p for p in CORPUS.rglob("*") if (p.suffix in (".cu", ".cuh") or build_kind(p)) and p.is_file())
    subjects += [Subject(f"corpus/{p.relative_to(CORPUS).as_posix()}[{label}]", p, options)
                 for p in corpus for label, options in CORPUS_OPTIONS.items()]
    return subjects


@functools.cache
def _translated(subject: Subject) -> Result:
    return translate(subject.path.name, subject.path.read_bytes(), subject.options)


def _edits_in_order(result: Result) -> list[Edit]:
    """Every applied edit, in the order apply_fixes splices them: by start, an insertion
    before a replacement at the same point, otherwise in the order they were accepted."""
    edits = [e for fix in result.applied for e in fix.edits]
    order = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].start != edits[i].end, i))
    return [edits[i] for i in order]


def _params() -> list:
    return [pytest.param(subject, id=subject.name) for subject in _subjects()]


SUBJECTS = _params()


@pytest.mark.parametrize("subject", SUBJECTS)
def test_reparse_adds_no_error_sites(subject: Subject) -> None:
    result = _translated(subject)
    kind = build_kind(subject.path)
    if kind is not None:    # a build file: its own tokenizer reads the output wherever it read the input
        read = parse_cmake if kind == "cmake" else parse_make
        try:
            read(result.input)
        except BuildSyntaxError:
            return
        read(result.output)
        return
    before = parse_file(result.input).error_sites
    after = parse_file(result.output).error_sites
    assert len(after) <= len(before), [(s.start, s.message) for s in after]


@pytest.mark.parametrize("subject", SUBJECTS)
def test_idempotent(subject: Subject) -> None:
    result = _translated(subject)
    again = translate(subject.path.name, result.output, subject.options)
    assert again.output == result.output
    assert again.applied == []


@pytest.mark.parametrize("subject", _params())
def test_output_is_input_with_applied_edits(subject: Subject) -> None:
    result = _translated(subject)
    data, output = result.input, result.output
    pieces, pos, out_pos = [], 0, 0
    for edit in _edits_in_order(result):
        assert edit.start >= pos, f"applied edits overlap at byte {edit.start}"
        gap = data[pos:edit.start]
        # Every untouched byte is where the splice says it is.
        assert output[out_pos:out_pos + len(gap)] == gap, \
            f"untouched input bytes {pos}..{edit.start} differ in the output at {out_pos}"
        pieces += [gap, edit.text]
        out_pos += len(gap) + len(edit.text)
        pos = edit.end
    pieces.append(data[pos:])
    assert b"".join(pieces) == output


@pytest.mark.parametrize("subject", SUBJECTS)
def test_diagnostics_point_inside_the_file(subject: Subject) -> None:
    result = _translated(subject)
    starts = SourceFile(subject.path.name, result.input).line_starts
    for d in result.diagnostics:
        assert d.path == subject.path.name
        assert 1 <= d.line <= len(starts), d.format()
        line_end = starts[d.line] if d.line < len(starts) else len(result.input)
        assert 1 <= d.col <= line_end - starts[d.line - 1] + 1, d.format()


@pytest.mark.parametrize("subject", SUBJECTS)
def test_no_internal_error(subject: Subject) -> None:
    internal = [d.format() for d in _translated(subject).diagnostics if d.code == "P003"]
    assert internal == []


# ------------------------------------------------------------------ random snippets

CODE_LINES = [
    "#include <cuda_runtime.h>", "#include <cublas_v2.h>", "#include <stdio.h>", '#include "cuda.h"',
    "#pragma once", "#if defined(__CUDACC__)", "#ifdef USE_GRAPHS", "#else", "#endif",
    "#define CHECK(x) do { cudaError_t e_ = (x); (void)e_; } while (0)",
    "#define LAUNCH(n) k<<<((n) + 255) / 256, 256>>>(a, n)", "#define FULL 0xffffffff",
    "__global__ void k(float* a, int n) {", "template <typename T> __global__ void t(T* a) {",
    "__device__ float f(float v) {", "void host(float* p, int n) {", "{", "}", "if (n > 0) {", "} else {",
    "cudaMalloc(&p, n);", "cudaStream_t s;", "cudaMemcpy(p, p, n, cudaMemcpyHostToDevice);",
    "k<<<grid, block, 0, s>>>(a, n);", "t<float><<<1, 64>>>(a);", "t<<<1, 1>>>(p);",
    "v = __shfl_down_sync(0xffffffff, v, 16);", "v = __shfl_xor_sync(mask, v, 1);", "__syncwarp();",
    "unsigned long long m = __activemask();", "cudaMemcpyToSymbol(c, p, 4);",
    "cudaEventCreate(&e, cudaEventDisableTiming);", "cub::DeviceReduce::Sum(t, b, i, o, n);",
    "CHECK(cudaDeviceSynchronize());", "CHECK(cudaFree(p))", "SWAP(int, a, b);", "FOR_EACH(i, n) {",
    "cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &x, A, n, B, n, &y, C, n);",
    "curandState st;", "return cudaGetLastError();", "x = (3 + ;", "int ü = 0;", "float résumé = 1.0f;",
    "int cudaLike = cub_count;",
]
# Strings and comments that mention API names: they must come out byte for byte.
PROTECTED_INLINE = [
    'const char* m = "cudaMalloc failed";', 'const char* u = "ünïcødé cudaFree 🚀";',
    "/* cudaStream_t s; cudaFree(p); */", "/* ünïcødé cudaEvent_t */",
    'const char* r = R"(cudaDeviceSynchronize())";', 'const char* w = "__shfl_down_sync(0xffffffff, v, 16)";',
]
PROTECTED_EOL = ["// cudaMemcpy(d, h, n, cudaMemcpyHostToDevice) in a comment", "// ünïcødé cudaMalloc ✓",
                 "// __syncwarp(); cub::DeviceScan"]
PROTECTED_TEXT = [re.search(rb'R?"[^;]*"|/\*.*\*/|//.*', p.encode()).group() for p in PROTECTED_INLINE + PROTECTED_EOL]
STRING_OR_COMMENT = {"comment", "string_literal", "raw_string_literal", "char_literal"}


def _line(indent: str, code: str, inline: str | None, trailing: str | None, newline: str) -> str:
    if code.startswith("#"):
        inline = None        # a string inside a directive is not a CUDA-ish line
    return indent + code + (" " + inline if inline else "") + (" " + trailing if trailing else "") + newline


LINES = st.builds(_line, st.sampled_from(["", "  ", "\t", "\t\t"]),
                  st.sampled_from(CODE_LINES + PROTECTED_INLINE),
                  st.none() | st.sampled_from(PROTECTED_INLINE), st.none() | st.sampled_from(PROTECTED_EOL),
                  st.sampled_from(["\n", "\r\n"]))
OPTIONS = st.builds(Options, rocm_version=st.sampled_from([(5, 2), (6, 2), (7, 0)]), roc=st.booleans(),
                    hip_kernel_execution_syntax=st.booleans())


def _seen_as_string_or_comment(tree, data: bytes, text: bytes) -> int:
    """How many occurrences of `text` the parser itself reads as one string or comment."""
    count = 0
    for match in re.finditer(re.escape(text), data):
        node = tree.root_node.descendant_for_byte_range(match.start(), match.end())
        count += node is not None and node.type in STRING_OR_COMMENT and \
            (node.start_byte, node.end_byte) == match.span()
    return count


@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=14), OPTIONS, st.booleans())
def test_random_snippets(lines: list[str], options: Options, final_newline: bool) -> None:
    source = "".join(lines).encode("utf-8")
    if not final_newline:
        source = source.rstrip(b"\r\n")
    result = translate("snippet.cu", source, options)   # never raises
    tree = parse(source)
    clean = not tree.root_node.has_error
    for text in PROTECTED_TEXT:
        kept = result.output.count(text)
        assert kept <= source.count(text)
        # Every string or comment the parser saw is untouched.
        assert kept >= _seen_as_string_or_comment(tree, source, text), text
        if clean:
            assert kept == source.count(text), text
    # Idempotence, broken snippets included.
    again = translate("snippet.cu", result.output, options)
    assert again.output == result.output
