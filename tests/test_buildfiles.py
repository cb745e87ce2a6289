"""The build files' front end (translator/buildfiles.py): which files are build files, the
CMake and Make tokenizers' exact spans, the word splitter, and that no input makes the
build-file pass raise."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from translator.buildfiles import (BuildSyntaxError, build_kind, parse_cmake, parse_make, words)
from translator.pipeline import translate


@pytest.mark.parametrize("path, kind", [
    ("CMakeLists.txt", "cmake"), ("cmake/FindThing.cmake", "cmake"), ("Makefile", "make"), ("makefile", "make"),
    ("GNUmakefile", "make"), ("rules.mk", "make"), ("main.cu", None), ("CMakeCache.txt", None),
    ("Makefile.am", None), ("notes.txt", None)])
def test_build_files_are_known_by_name(path, kind) -> None:
    assert build_kind(path) == kind


def test_cmake_arguments_of_each_form_keep_their_spans() -> None:
    data = b'set(A "x y" [==[raw ) "]==] ${B}/c $<$<CONFIG:Debug>:-g> (nested) \\;)  # comment\n#[[block\n]]\n'
    f = parse_cmake(data)
    (cmd,) = f.commands
    assert cmd.name == b"set" and data[cmd.start:cmd.end] == data[:data.index(b"  #")]
    assert [(a.kind, a.text) for a in cmd.args] == [
        ("unquoted", b"A"), ("quoted", b"x y"), ("bracket", b'raw ) "'), ("unquoted", b"${B}/c"),
        ("unquoted", b"$<$<CONFIG:Debug>:-g>"), ("unquoted", b"nested"), ("unquoted", b"\\;")]
    for a in cmd.args:
        assert data[a.inner[0]:a.inner[1]] == a.text
    assert [data[s:e] for s, e in f.comments] == [b"# comment", b"#[[block\n]]"]


@pytest.mark.parametrize("data, offset, message", [
    (b"project(app\n", 7, "'(' is not closed"),
    (b'set(A "open)\n', 6, "quoted argument is not closed"),
    (b"set(A [[open)\n", 6, "bracket argument is not closed"),
    (b"#[[ open\nset(A)\n", 0, "bracket comment is not closed"),
    (b"set A\n", 4, "expected '(' after set"),
    (b"(x)\n", 0, "expected a command name"),
])
def test_cmake_that_cannot_be_read_is_a_located_error(data, offset, message) -> None:
    with pytest.raises(BuildSyntaxError) as caught:
        parse_cmake(data)
    assert caught.value.offset == offset and caught.value.message.startswith(message)


def test_make_lines_are_classified_with_continuations_joined() -> None:
    data = (b"A := 1 \\\n  2  # note\noverride B += x\napp: C = -G\napp: main.o ; echo one\n"
            b"\trecipe $(A)\nifeq ($(A),1)\nendif\ndefine BODY\n\tnvcc x\nendef\n")
    f = parse_make(data)
    kinds = [(line.kind, line.name) for line in f.lines]
    assert kinds == [("assign", b"A"), ("assign", b"B"), ("assign", b"C"), ("rule", b""), ("recipe", b""),
                     ("directive", b""), ("directive", b""), ("directive", b"BODY"), ("define", b"BODY"),
                     ("directive", b"")]
    first = f.lines[0]
    assert data[first.value[0]:first.value[1]] == b"1 \\\n  2"
    assert data[f.lines[3].value[0]:f.lines[3].value[1]] == b" echo one"
    assert [data[s:e] for s, e in f.comments] == [b"# note"]


def test_a_tab_line_outside_a_rule_is_not_a_recipe() -> None:
    assert [line.kind for line in parse_make(b"\tA = 1\n").lines] == ["assign"]
    assert [line.kind for line in parse_make(b"app:\n\tA = 1\n").lines] == ["rule", "recipe"]


def test_words_keep_references_quotes_and_genexes_whole() -> None:
    data = b'-I$(shell echo a b) "-D X" -Xcompiler=\'-a -b\' $<$<CONFIG:Debug>:-g -O0> \\\n  last;x'
    assert [w.text for w in words(data, 0, len(data))] == [
        b"-I$(shell echo a b)", b'"-D X"', b"-Xcompiler='-a -b'", b"$<$<CONFIG:Debug>:-g -O0>", b"last;x"]
    assert [w.text for w in words(data, 0, len(data), semicolons=True)][-2:] == [b"last", b"x"]


_CMAKE_TOKENS = st.sampled_from([
    "project(", "enable_language(", "CUDA", "LANGUAGES", ")", "(", " ", "\n", '"', "${CUDA_LIBRARIES}",
    "CUDA::cublas", "CMAKE_CUDA_FLAGS", "-arch=sm_80", "--use_fast_math", "add_executable(", "main.cu", "#",
    "[[", "]]", "set(", "CMAKE_CUDA_ARCHITECTURES", "80", "find_package(", "CUDAToolkit", "OPTIONS", "\\",
    "cuda_add_library(", "$<$<COMPILE_LANGUAGE:CUDA>:", ">", ";", "cmake_minimum_required(", "VERSION", "3.1"])
_MAKE_TOKENS = st.sampled_from([
    "NVCC", " = ", ":= ", "nvcc", "$(NVCC)", "\t", "\n", " ", "\\\n", ":", "app", "-gencode", "arch=compute_80,code=sm_80",
    "-Xcompiler", "-t", "0", "-lcublas", "-G", "define X\n", "endef\n", "#", ";", "&&", "$(", ")", "-rdc=true",
    "'", '"', "-o", "$@", "-lnvidia-ml", "cuobjdump"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CMAKE_TOKENS, max_size=40).map("".join), st.lists(_MAKE_TOKENS, max_size=40).map("".join))
def test_no_build_file_makes_the_pass_raise_and_a_second_run_changes_nothing(cmake, make) -> None:
    for path, text in (("CMakeLists.txt", cmake), ("Makefile", make)):
        result = translate(path, text.encode())          # never raises
        again = translate(path, result.output)
        assert again.output == result.output, (text, result.output)
        if path == "Makefile":
            parse_make(result.output)
        else:
            try:
                parse_cmake(result.input)
            except BuildSyntaxError:
                assert result.output == result.input
                continue
            parse_cmake(result.output)


def test_a_cmake_file_with_a_utf8_bom_is_translated_with_the_bom_kept() -> None:
    data = b"\xef\xbb\xbfcmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n"
    result = translate("CMakeLists.txt", data)
    assert result.output == b"\xef\xbb\xbfcmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\n"
    assert not result.diagnostics


def test_recipes_after_a_recipeprefix_are_nvcc_commands() -> None:
    data = b".RECIPEPREFIX = >\nNVCC = nvcc\napp: main.cu\n> $(NVCC) -lineinfo -o $@ $<\n"
    assert [line.kind for line in parse_make(data).lines] == ["assign", "assign", "rule", "recipe"]
    assert translate("Makefile", data).output == (b".RECIPEPREFIX = >\nNVCC = hipcc\napp: main.cu\n"
                                                  b"> $(NVCC) -o $@ $<\n")


def test_shell_options_and_genexes_nested_in_a_cuda_genex_are_nvcc_flags() -> None:
    data = (b'project(p LANGUAGES CUDA)\ntarget_compile_options(app PRIVATE '
            b'"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -fopenmp,-Wall>" '
            b'$<$<COMPILE_LANGUAGE:CUDA>:$<$<CONFIG:Debug>:-lineinfo -G>> "SHELL:-Xcompiler -Wextra")\n')
    result = translate("CMakeLists.txt", data)
    assert result.output == (b'project(p LANGUAGES HIP)\ntarget_compile_options(app PRIVATE '
                             b'"$<$<COMPILE_LANGUAGE:HIP>:SHELL:-fopenmp -Wall>" '
                             b'$<$<COMPILE_LANGUAGE:HIP>:$<$<CONFIG:Debug>:-G>> "SHELL:-Wextra")\n')
    assert [d.code for d in result.diagnostics] == ["B024"]


_FAST_MATH_SIDES = b"""#include <hip/hip_runtime.h>
#include <cmath>
#if defined(__HIP_DEVICE_COMPILE__)
#  ifndef __FAST_MATH__
#    error "device code without fast math"
#  endif
#elif defined(__FAST_MATH__)
#  error "host code with fast math: a host std::isnan check would change"
#endif
__global__ void k(float *x) { x[0] = x[0] / 3.0f; }
bool host_nan(float v) { return std::isnan(v); }
"""


@pytest.mark.skipif(shutil.which("hipcc") is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_use_fast_math_becomes_fast_math_of_the_device_code_only(tmp_path) -> None:
    """nvcc's --use_fast_math is the device code's; hipcc's -ffast-math alone reaches the
    host compile too (its __FAST_MATH__ and its std::isnan). The mapped flags, given to
    hipcc, define __FAST_MATH__ in the device compile and not in the host one."""
    data = b"NVCC = nvcc\napp: k.cu\n\t$(NVCC) --use_fast_math -c k.cu\n"
    recipe = translate("Makefile", data).output.splitlines()[-1].decode()
    flags = recipe.split()[1:-2]
    assert flags == ["-Xarch_device", "-ffast-math"], recipe
    (tmp_path / "k.hip").write_bytes(_FAST_MATH_SIDES)
    done = subprocess.run(["hipcc", *flags, "--offload-arch=gfx90a", "-c", "k.hip", "-o", "k.o"], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert done.returncode == 0, done.stderr


def test_source_and_target_compile_option_properties_are_translated_or_reported() -> None:
    # A source's COMPILE_OPTIONS/COMPILE_FLAGS and a target's COMPILE_OPTIONS hold nvcc flags
    # too: mapped (--ftz, --use_fast_math), dropped (-lineinfo) or reported (B024), never
    # kept silently; a replacement of two words stays one option in every kind of list.
    data = (b'project(p LANGUAGES CUDA)\nadd_executable(app k.cu)\n'
            b'set_source_files_properties(k.cu PROPERTIES COMPILE_OPTIONS "-maxrregcount=32;--ftz=true;-G")\n'
            b'set_source_files_properties(k.cu PROPERTIES COMPILE_OPTIONS --use_fast_math COMPILE_FLAGS "--use_fast_math -G")\n'
            b'set_property(SOURCE k.cu APPEND PROPERTY COMPILE_OPTIONS -lineinfo)\n'
            b'set_target_properties(app PROPERTIES COMPILE_OPTIONS --use_fast_math)\n'
            b'target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math> --use_fast_math)\n')
    result = translate("CMakeLists.txt", data)
    assert result.output == (
        b'project(p LANGUAGES HIP)\nadd_executable(app k.cu)\n'
        b'set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n'
        b'set_source_files_properties(k.cu PROPERTIES COMPILE_OPTIONS "-maxrregcount=32;-fgpu-flush-denormals-to-zero;-G")\n'
        b'set_source_files_properties(k.cu PROPERTIES COMPILE_OPTIONS "-Xarch_device;-ffast-math" '
        b'COMPILE_FLAGS "-Xarch_device -ffast-math -G")\n'
        b'set_property(SOURCE k.cu APPEND PROPERTY COMPILE_OPTIONS)\n'
        b'set_target_properties(app PROPERTIES COMPILE_OPTIONS "SHELL:-Xarch_device -ffast-math")\n'
        b'target_compile_options(app PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:SHELL:-Xarch_device -ffast-math>" '
        b'"SHELL:-Xarch_device -ffast-math")\n')
    assert sorted(d.code for d in result.diagnostics if d.severity == "warning") == ["B024", "B024", "B024"]


@pytest.mark.parametrize("finder", [b"which", b"command -v", b"type -P"])
def test_a_make_variable_that_finds_nvcc_on_path_is_hipcc_and_its_commands_nvccs(finder) -> None:
    # NVCC := $(shell which nvcc) (cuda-samples' and many Makefiles' shape): the variable
    # holds nvcc, so its commands' flags are nvcc's, and a `--generate-code` list made by
    # $(foreach ...) is the AMD target once.
    data = (b"NVCC := $(shell " + finder + b" nvcc)\nSMS ?= 60 70 80\n"
            b"GENCODE_FLAGS := $(foreach sm,$(SMS),--generate-code arch=compute_$(sm),code=sm_$(sm))\n"
            b"app: a.cu\n\t$(NVCC) $(GENCODE_FLAGS) -lineinfo -o app a.cu\n")
    result = translate("Makefile", data)
    assert result.output == (b"NVCC := $(shell " + finder + b" hipcc)\nSMS ?= 60 70 80\n"
                             b"GENCODE_FLAGS := --offload-arch=gfx90a\n"
                             b"app: a.cu\n\t$(NVCC) $(GENCODE_FLAGS) -o app a.cu\n")
    assert sorted({f.rule for f in result.applied}) == ["B020", "B022", "B023"]
    # A $(shell ...) that runs something else is not nvcc.
    other = b"NVCC := $(shell which clang)\napp: a.cu\n\t$(NVCC) -lineinfo -o app a.cu\n"
    assert translate("Makefile", other).output == other
