"""Regression tests for the reliability issue (text): macros named after CUDA APIs, P003
on inputs that already fail to parse, and CR-only line endings. Each test is named after
the behaviour it pins."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import translator.passes.hipify.renames as renames
from translator.edits import Edit
from translator.passes import Options
from translator.pipeline import Result, translate
from translator.source import SourceFile


def run(source: bytes, **options) -> Result:
    return translate("r.cu", source, Options(rocm_version=(6, 0), **options))


def internal_errors(result: Result) -> list[str]:
    return [d.format() for d in result.diagnostics if d.code == "P003"]


def assert_idempotent(source: bytes, **options) -> Result:
    first = run(source, **options)
    again = run(first.output, **options)
    assert again.output == first.output, (first.output, again.output)
    assert again.applied == []
    return first


# ------------------------------------------------ 1. a macro named after a CUDA API

@pytest.mark.parametrize("body", [b"", b" __host__", b" __host__ __device__"])
def test_a_qualifier_macro_named_after_a_cuda_api_is_renamed_at_its_uses_as_at_its_definition(body) -> None:
    source = b"#define cudaStream_t" + body + b"\nvoid f(cudaStream_t s);\n"
    result = assert_idempotent(source)
    assert result.output == b"#include <hip/hip_runtime.h>\n#define hipStream_t" + body + \
        b"\nvoid f(hipStream_t s);\n"
    assert internal_errors(result) == []


def test_a_tree_wide_qualifier_macro_named_after_a_cuda_api_is_renamed_at_its_uses() -> None:
    # The tree's other file defines `#define cudaStream_t`: its definition there is
    # renamed, so its uses here must be too.
    source = b"void f(cudaStream_t s);\nstruct S { cudaStream_t s; };\n"
    macros = frozenset({b"cudaStream_t", b"HD"})
    result = assert_idempotent(source, qualifier_macros=macros)
    assert result.output == b"#include <hip/hip_runtime.h>\nvoid f(hipStream_t s);\nstruct S { hipStream_t s; };\n"
    # A qualifier macro the tables do not know is still blanked for the parse.
    kernel = b"HD inline void up(int *h) { cudaMemcpyToSymbol(c, h, 4); }\n"
    translated = run(kernel, qualifier_macros=macros)
    assert b"hipMemcpyToSymbol(HIP_SYMBOL(c), h, 4)" in translated.output
    assert not [d for d in translated.diagnostics if d.code == "P001"]


def test_a_tree_defining_a_cuda_api_as_an_empty_macro_is_renamed_consistently(tmp_path: Path) -> None:
    tree = tmp_path / "src"
    tree.mkdir()
    (tree / "defs.h").write_bytes(b"#pragma once\n#define cudaStream_t\n")
    (tree / "k.cu").write_bytes(b'#include "defs.h"\nvoid f(cudaStream_t s) { cudaStreamSynchronize(s); }\n')
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "translator", "translate", str(tree), "-o", str(out),
                           "--rocm-version", "6.0"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"#define hipStream_t\n" in (out / "defs.h").read_bytes()
    assert b"void f(hipStream_t s) { hipStreamSynchronize(s); }" in (out / "k.cu").read_bytes()


# ------------------------------------------------ 2. P003 means what it says

BROKEN_INPUTS = [
    pytest.param(b"((((((())))))) cudaError_t;", {}, id="a-rename-moves-a-missing-semicolon"),
    pytest.param(b"#ifdef p\n#include<hip/hip_runtime.h>\n#include<cuda_runtime.h>\n", {},
                 id="a-removed-include-in-an-unclosed-ifdef"),
    pytest.param(b"[[y\nd<<<d,k>>>() 0;", {}, id="an-unclosed-attribute"),
    pytest.param(b"[[y\nd<<<d,k>>>() 0;", {"hip_kernel_execution_syntax": True},
                 id="a-launch-rewritten-after-an-unclosed-attribute"),
    pytest.param(b"x d(cuFloatComplex , cuFloatComplex b, cuFloatComplex\xfb'H\xbd(cuCmul", {},
                 id="a-name-the-first-round-cannot-see"),
    pytest.param(b"#ifdef G\n#define C(x) do { cudaError_t e_ = (x); } while (0)\n{\n#pragma once\n#endif", {},
                 id="a-brace-only-the-if-configurations-parse"),
    pytest.param(b"#include <cublas_v2.h>\n#include <stdio.\n#include <cublas_v2.h>\n\n"
                 b"cudaEventCreate(&e, cudaEventDisableTiming);\n", {},
                 id="a-broken-include-reaching-past-a-removed-line"),
]


@pytest.mark.parametrize(("source", "options"), BROKEN_INPUTS)
def test_no_p003_where_the_input_already_failed_to_parse(source: bytes, options: dict) -> None:
    result = assert_idempotent(source, **options)
    assert internal_errors(result) == []


def test_a_cuda_name_hidden_by_parse_recovery_is_renamed_in_one_run() -> None:
    result = assert_idempotent(b"x d(cuFloatComplex , cuFloatComplex b, cuFloatComplex\xfb'H\xbd(cuCmul")
    assert b"hipCmul" in result.output and b"cuFloatComplex" not in result.output


@pytest.mark.parametrize("source", [
    b"void f() { cudaFree(0); }\n",                                  # an input that parses
    b"int x = ;\nvoid f() { cudaFree(0); }\n",                       # broken elsewhere
    b"#ifndef G\n#define G\nint x = ;\nvoid f() { cudaFree(0); }\n#endif\n",
])
def test_an_edit_that_breaks_code_the_input_parsed_is_still_p003(source: bytes, monkeypatch) -> None:
    # A deliberately wrong rename (an unbalanced parenthesis): the check must still see it.
    monkeypatch.setattr(renames, "_edit", lambda span, text: Edit(span[0], span[1], text.encode() + b"(("))
    assert internal_errors(run(source)) != []


# ------------------------------------------------ 3. CR-only line endings

CR_ONLY = (b"// a classic Mac OS file\r"
           b"void f(float *p) {\r"
           b"  cudaMalloc(&p, 4);   // a comment\r"
           b"  cudaThreadSynchronize();\r"
           b"  cudaFree(p);\r"
           b"}\r")


def test_a_cr_only_file_is_translated_after_its_first_comment() -> None:
    result = assert_idempotent(CR_ONLY)
    assert result.output == (b"#include <hip/hip_runtime.h>\r"
                             b"// a classic Mac OS file\r"
                             b"void f(float *p) {\r"
                             b"  hipMalloc(&p, 4);   // a comment\r"
                             b"  hipDeviceSynchronize();\r"
                             b"  hipFree(p);\r"
                             b"}\r")
    assert b"\n" not in result.output
    assert internal_errors(result) == []


def test_a_cr_only_file_gets_diagnostics_at_its_own_lines() -> None:
    result = run(CR_ONLY)
    deprecated = [d for d in result.diagnostics if d.code == "H012"]
    assert [(d.line, d.col) for d in deprecated] == [(4, 3)]
    assert {(d.line, d.col) for d in result.diagnostics if d.code == "P001"} == set()


def test_a_cr_only_file_keeps_its_suppression_comments_to_their_lines() -> None:
    source = b"void f() {\r  cudaThreadSynchronize(); // cu2hip: ignore[H012]\r  cudaFree(0);\r}\r"
    result = run(source)
    assert [d.code for d in result.diagnostics if d.code in ("H012", "S001")] == []
    assert b"hipFree(0)" in result.output


def test_source_positions_and_newline_count_lone_crs() -> None:
    cr = SourceFile("m.cu", b"a\rbb\rccc")
    assert cr.newline == b"\r"
    assert cr.line_starts == [0, 2, 5]
    assert cr.position(6) == (3, 2)
    mixed = SourceFile("m.cu", b"a\r\nb\nc\rd")
    assert mixed.line_starts == [0, 3, 5, 7]
    assert SourceFile("m.cu", b"a\r\nb\r\n").newline == b"\r\n"
    assert SourceFile("m.cu", b"a\nb\n").newline == b"\n"


def test_a_cr_only_file_with_an_include_or_a_second_round_gets_one_include() -> None:
    for source in (b"// c\r#include <cuda_runtime.h>\rvoid f() { cudaFree(0); }\r",
                   b"#pragma once\r// c\rvoid f() { cudaFree(0); }\r",
                   b"__global__ void k() {}\rvoid f() { k<<<1, 1>>>(); }\r"):
        result = assert_idempotent(source, hip_kernel_execution_syntax=True)
        assert result.output.count(b"#include <hip/hip_runtime.h>") == 1, result.output
        assert not [d for d in result.diagnostics if d.code in ("P003", "P005")]
