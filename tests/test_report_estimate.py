"""The static register estimate (translator.ir.registers) and the report's per-kernel
`estimate` and `launch_changes` fields: exact counts for kernels small enough to count
by hand, the CDNA VGPR caps, the spill the corpus's register-heavy kernels make without
bounds, and the fields in JSON, Markdown and HTML."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.diagnostics import Diagnostic
from translator.edits import Edit, Fix
from translator.frontend import parse_file
from translator.ir import build_ir
from translator.ir.registers import BASE, estimate, kernel_demand, vgpr_cap
from translator.output.kernels import function_name, launch_changes

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ROOT / "corpus" / "kernels" / "register_heavy.cu"

SMALL = b"""
__global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
__global__ void uniform(float *y, float a, int n) {
  int k = n * 2;
  float b = a + k;
  y[0] = b;
}
__global__ void wide(const double *x, double *y) {
  int i = threadIdx.x;
  double v = x[i];
  double w = v * v;
  y[i] = v + w;
}
#define TAPS 8 // the comment is not part of the value
__global__ void arrays(const float *x, float *y, int m) {
  int i = threadIdx.x;
  float r[TAPS];
  float s[4];
  for (int k = 0; k < TAPS; ++k) r[k] = x[i + k];
  for (int k = 0; k < m; ++k) s[k] = 0;
  y[i] = r[0] + r[7];
}
__global__ void grid(const float *x, float *y, int m) {
  int i = threadIdx.x;
  float r[2][3];
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 3; ++j) r[k][j] = x[i + j];
  float q[2][3];
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < m; ++j) q[k][j] = x[i + j];
  y[i] = r[1][2] + q[0][0];
}
__shared__ float tile[16][17];
__global__ void lds(float *y) {
  int tx = threadIdx.x, ty = threadIdx.y;
  y[ty * 16 + tx] = tile[ty][tx] + tile[ty][tx + 1] + tile[ty + 1][tx];
}
__device__ float twice(float v) { float t = v + v; return t; }
__global__ void calls(const float *x, float *y) {
  int i = threadIdx.x;
  y[i] = twice(x[i]);
}
__global__ void diverge(const int *x, int *y) {
  int flag = 0;
  if (threadIdx.x == 0) flag = 1;
  y[blockIdx.x] = flag;
}
"""


def demands(source: bytes) -> dict:
    parsed = parse_file(source)
    return {k.name: kernel_demand(parsed, k) for k in build_ir("t.cu", parsed).kernels}


def test_the_counts_of_small_kernels_are_the_ones_counted_by_hand() -> None:
    found = demands(SMALL)
    assert BASE == 0
    # i (1) + the read of x[i]: its 64-bit address (2) and value (1); y[i]'s address reuses x[i]'s.
    assert found["scale"].values == 4
    # k and b depend on parameters alone: SGPRs; y[0] is a uniform address.
    assert found["uniform"].values == 0
    # i (1) + v (2) + w (2) + y[i]'s address (2).
    assert found["wide"].values == 7
    # i (1) + r, 8 elements in registers (its loop has a constant trip count) + x[i + k]'s address and
    # value (3); s is indexed by a run-time loop: scratch memory, counted 0.
    assert (found["arrays"].values, found["arrays"].scratch) == (12, ("s",))
    # i (1) + r, 2 x 3 in registers (6) + x[i + j]'s address and value (3); q's inner loop runs m times.
    assert (found["grid"].values, found["grid"].scratch) == (10, ("q",))
    # tx, ty (2) + three values read from a __shared__ array (3) through one LDS address (1), which y's
    # 64-bit address outgrows (2 in all).
    assert found["lds"].values == 7
    # i (1) + x[i]'s address and value (3) + twice inlined: its per-lane parameter and local (2).
    assert found["calls"].values == 6
    # flag is written under a per-lane condition: per lane (1); y[blockIdx.x] is a uniform address.
    assert found["diverge"].values == 1


def test_the_caps_are_cdnas_workgroup_rule() -> None:
    assert [vgpr_cap(t) for t in (None, 1024, 768, 640, 512, 320, 256, 64)] == [128, 128, 168, 168, 256, 256,
                                                                               256, 256]
    # HIP's second argument is the minimum waves per SIMD: 512 / waves.
    assert (vgpr_cap(256, 4), vgpr_cap(128, 8), vgpr_cap(1024, 2)) == (128, 64, 128)


def test_register_heavy_spills_without_bounds_and_not_with_its_launches() -> None:
    parsed = parse_file(HEAVY.read_bytes())
    kernels = {k.name: k for k in build_ir(str(HEAVY), parsed).kernels}
    demand = kernel_demand(parsed, kernels["heavy_literal"])
    # i (1) + out[i]'s address (2) + mix inlined: i (1), r[160] in registers (its loops have constant
    # trip counts), in[i + k]'s address and value (3).
    assert demand.values == 167 and demand.scratch == ()
    unbounded, bounded = estimate(demand), estimate(demand, 256)
    assert (unbounded.vgprs, unbounded.spill, unbounded.cap) == (128, True, 128)
    assert (bounded.vgprs, bounded.spill, bounded.cap) == (167, False, 256)


def test_a_kernel_in_a_macro_has_no_estimate_and_says_why() -> None:
    source = b"#define K(name) __global__ void name(float *x) { x[threadIdx.x] = 0; }\nK(zero)\n"
    parsed = parse_file(source, lambda body: True)
    found = [kernel_demand(parsed, k) for k in build_ir("t.cu", parsed).kernels]
    assert found and all(d.values is None and d.reason == "it is defined in a macro" for d in found)
    e = estimate(found[0])
    assert (e.vgprs, e.spill, e.to_json()["reason"]) == (None, None, "it is defined in a macro")


PROJECT = """#include <cuda_runtime.h>
__global__ void fixed(float *x) { x[threadIdx.x] = 0; }
__global__ void chosen(float *x) { x[threadIdx.x] = 1; }
void run(float *x) {
  fixed<<<4, 256>>>(x);
}
void other(float *x, int threads) {
  chosen<<<4, threads>>>(x);
}
"""


def report(args: list[str], capsys) -> str:
    assert main(["report", *args, "--no-compile", "--rocm-version", "5.2"]) == 0
    return capsys.readouterr().out


def test_json_has_the_estimate_and_the_launch_changes_of_each_kernel(tmp_path, capsys) -> None:
    source = tmp_path / "k.cu"
    source.write_text(PROJECT)
    doc = json.loads(report([str(tmp_path), "--format", "json"], capsys))
    assert set(doc) >= {"kernels", "missing"}
    fixed, chosen = doc["kernels"]
    assert fixed["estimate"] == {"vgprs": 2, "spill": False, "demand": 2, "cap": 256, "max_threads": 256,
                                 "scratch_arrays": []}
    assert chosen["estimate"] == {"vgprs": 2, "spill": False, "demand": 2, "cap": 128, "max_threads": 1024,
                                  "scratch_arrays": []}
    # The bound written for `fixed` is in its bounds column, not among its changes; `chosen`'s refusal is.
    assert fixed["launch_changes"] == []
    assert chosen["launch_changes"] == [{
        "code": "L002", "message": f"chosen is not bounded: at {source}:8:3, 'threads' is a parameter of other: "
                                   "its value comes from the caller"}]


def test_json_markdown_and_html_show_the_predicted_spill_of_register_heavy(capsys) -> None:
    doc = json.loads(report([str(HEAVY), "--format", "json"], capsys))
    by_name = {k["kernel"]: k for k in doc["kernels"]}
    assert by_name["heavy_runtime"]["estimate"] == {"vgprs": 128, "spill": True, "demand": 167, "cap": 128,
                                                    "max_threads": 1024, "scratch_arrays": []}
    assert by_name["heavy_literal"]["estimate"]["vgprs"] == 167 and not by_name["heavy_literal"]["estimate"]["spill"]
    assert [c["code"] for c in by_name["heavy_runtime"]["launch_changes"]].count("L002") == 1

    markdown = report([str(HEAVY), "--format", "markdown"], capsys)
    assert "| Occupancy | Estimate | Launch changes |" in markdown
    row = next(line for line in markdown.splitlines() if "| heavy_runtime |" in line)
    assert "| 128 VGPRs, spill predicted (demand 167, cap 128) |" in row and "L002: heavy_runtime is not bounded" in row

    text = report([str(HEAVY), "--format", "text"], capsys)
    assert "; estimate 128 VGPRs, spill predicted (demand 167, cap 128)" in text

    page = report([str(HEAVY), "--format", "html"], capsys)
    assert "<h2>Estimated VGPRs beside hipcc's</h2>" in page
    assert '<rect class="spill" x="200"' in page and ">128 (spill predicted)</text>" in page
    assert "<td>128 (spill predicted: demand 167, cap 128)</td>" in page
    assert "<th>Estimated VGPRs</th><th>Launch changes</th>" in page


def test_launch_changes_are_the_topic_findings_about_the_kernel_less_the_bounds_shown() -> None:
    bounds_fix = Fix((Edit(10, 10, b"__launch_bounds__(256) "),), "X001", "why")
    findings = {"topic": [
        Diagnostic("a.cu", 2, 1, "note", "k is bounded", "X001", fix=bounds_fix, subject="k"),
        Diagnostic("a.cu", 3, 1, "note", "k's launch moves to 256 threads", "X002", subject="k"),
        Diagnostic("a.cu", 4, 1, "note", "about another kernel", "X002", subject="j"),
        Diagnostic("b.cu", 4, 1, "note", "k of another file", "X002", subject="k"),
        Diagnostic("a.cu", 5, 1, "note", "no subject", "X003"),
    ]}
    table = [{"file": "a.cu", "kernel": "k", "bounds": "256"}, {"file": "a.cu", "kernel": "j", "bounds": None}]
    launch_changes(table, findings)
    assert table[0]["launch_changes"] == [{"code": "X002", "message": "k's launch moves to 256 threads"}]
    assert table[1]["launch_changes"] == [{"code": "X002", "message": "about another kernel"}]


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_compile_the_predicted_spill_is_hipccs(capsys) -> None:
    assert main(["report", str(HEAVY), "--format", "json", "--rocm-version", "5.2", "-j", "2"]) == 0
    by_name = {k["kernel"]: k for k in json.loads(capsys.readouterr().out)["kernels"]}
    runtime, literal = by_name["heavy_runtime"], by_name["heavy_literal"]
    assert runtime["estimate"]["spill"] and runtime["vgpr_spills"] > 0
    assert runtime["estimate"]["vgprs"] == runtime["vgprs"] == 128
    assert not literal["estimate"]["spill"] and literal["vgpr_spills"] == 0
    assert abs(literal["estimate"]["vgprs"] - literal["vgprs"]) <= 0.25 * literal["vgprs"]


def test_mangled_names_of_static_template_and_namespaced_kernels() -> None:
    assert function_name("_Z5heavyPKfPfi") == "heavy"
    assert function_name("_ZL12two_tu_heavyPKfPfii") == "two_tu_heavy"
    assert function_name("_Z12block_reduceIfLi256E5SumOpEvPKT_PS1_iS1_T1_") == "block_reduce"
    assert function_name("_ZN2ns1kEPf") == "k"
    assert function_name("plain") == "plain"


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_compile_a_header_kernel_gets_the_figures_of_a_file_that_includes_it(capsys) -> None:
    """A header's template or static kernel has no code of its own: hipcc emits it in the
    files that launch it, which have no kernel of their own."""
    tree = ROOT / "corpus" / "kernels" / "two_tu"
    assert main(["report", str(tree), "--format", "json", "--rocm-version", "5.2", "-j", "2"]) == 0
    rows = json.loads(capsys.readouterr().out)["kernels"]
    assert [(Path(k["file"]).name, k["kernel"], k["bounds"]) for k in rows] == [("heavy.cuh", "two_tu_heavy", "256")]
    assert rows[0]["vgprs"] > 128 and rows[0]["vgpr_spills"] == 0
    assert rows[0]["without"]["vgprs"] == 128 and rows[0]["without"]["vgpr_spills"] > 0


INCLUDE_PATH = ROOT / "tests" / "projects" / "include_path"


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_compile_a_kernel_whose_header_only_the_include_path_finds(capsys, tmp_path) -> None:
    """scale.cu includes "scale_config.h" from common/inc, and the header needs BLOCK from
    the build: only the project's -I and -D (or its compile_commands.json) compile it."""
    base = ["report", str(INCLUDE_PATH), "--format", "json", "--rocm-version", "5.2", "-j", "1", "--no-cache"]
    assert main(base) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(k["kernel"], k["vgprs"]) for k in doc["kernels"]] == [("scale", None)]
    assert any("scale.cu (with the optimizing passes) did not compile" in m and "scale_config.h" in m
               for m in doc["missing"])
    assert main(base + ["-I", str(INCLUDE_PATH / "common" / "inc"), "-D", "BLOCK=128"]) == 0
    row = json.loads(capsys.readouterr().out)["kernels"][0]
    assert isinstance(row["vgprs"], int) and row["vgprs"] > 0 and isinstance(row["without"]["vgprs"], int)
    database = tmp_path / "build"
    database.mkdir()
    (database / "compile_commands.json").write_text(json.dumps([{
        "directory": str(INCLUDE_PATH),
        "command": "nvcc -Icommon/inc -D BLOCK=128 -std=c++17 -c src/scale.cu -o scale.o",
        "file": "src/scale.cu"}]))
    assert main(base + ["-p", str(database)]) == 0
    row = json.loads(capsys.readouterr().out)["kernels"][0]
    assert isinstance(row["vgprs"], int) and row["vgprs"] > 0


def test_missing_header_reads_clangs_and_gccs_messages() -> None:
    from translator.toolchain import MissingHeader, missing_header
    assert missing_header("In file included from a.cu:1:\n/p/inc/h.h:4:10: fatal error: 'cuda_runtime.h' file "
                          "not found\n#include <cuda_runtime.h>\n") == MissingHeader("/p/inc/h.h", 4, 10, "cuda_runtime.h")
    assert missing_header("src/k.cu:2:10: fatal error: sub/cfg.h: No such file or directory\n") == \
        MissingHeader("src/k.cu", 2, 10, "sub/cfg.h")
    assert missing_header("k.cu:2:1: error: unknown type name 'x'\n") is None


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_compile_says_which_header_is_missing_where_it_is_and_the_option_that_adds_it(capsys, tmp_path) -> None:
    """`report src/` of a repository whose header is in common/inc: without -I, the header
    is found in the repository and -I named; with -p but common/inc not an input, the
    header is compiled as CUDA, and the folder to add to the inputs is named."""
    project = tmp_path / "proj"
    shutil.copytree(INCLUDE_PATH, project)
    (project / ".git").mkdir()
    header = project / "common" / "inc" / "scale_config.h"
    header.write_text(header.read_text().replace("#pragma once\n", "#pragma once\n#include <cuda_runtime.h>\n"))
    line = header.read_text().splitlines().index("#include <cuda_runtime.h>") + 1
    scale = project / "src" / "scale.cu"
    base = ["report", str(project / "src"), "--format", "json", "--rocm-version", "5.2", "-j", "1", "--no-cache"]
    assert main(base) == 0
    missing = json.loads(capsys.readouterr().out)["missing"]
    folder = project / "common" / "inc"
    assert missing[:2] == [
        f"{scale} ({v} the optimizing passes) did not compile for gfx90a: {scale}:2:10: 'scale_config.h' was not "
        f"found: {header} has it; add -I {folder} (or -p BUILD_DIR with the build's compile_commands.json), and "
        f"{folder} to the inputs if its headers use CUDA" for v in ("with", "without")]
    database = tmp_path / "build"
    database.mkdir()
    (database / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "command": "nvcc -Icommon/inc -D BLOCK=128 -std=c++17 -c src/scale.cu",
        "file": "src/scale.cu"}]))
    assert main(base + ["-p", str(database)]) == 0
    missing = json.loads(capsys.readouterr().out)["missing"]
    assert missing[:2] == [
        f"{scale} ({v} the optimizing passes) did not compile for gfx90a: {header}:{line}:10: 'cuda_runtime.h' was "
        f"not found: {header} is CUDA, compiled untranslated because its folder is not an input: add {folder} to "
        "the inputs of `cu2hip report` (its translation is then searched first)" for v in ("with", "without")]
    # With the folder as an input, its translation is compiled and every figure is there.
    assert main([*base[:2], str(folder), *base[2:], "-p", str(database)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert isinstance(doc["kernels"][0]["vgprs"], int) and not any("gfx90a" in m for m in doc["missing"])


def test_compile_context_reads_every_spelling_of_a_compile_command(tmp_path) -> None:
    from translator.compile_context import ContextError, load, parse_arguments
    ctx = parse_arguments(["nvcc", "-I", "a", "-Ib", "-isystem", "/c", "--include-path=d", "-DX", "-D", "Y=2",
                           "--define-macro", "Z", "-std=c++20", "-c", "k.cu"], "/proj")
    assert ctx.include_dirs == ("/proj/a", "/proj/b", "/c", "/proj/d")
    assert ctx.defines == ("X", "Y=2", "Z") and ctx.std == "c++20"
    (tmp_path / "compile_commands.json").write_text("{}")
    with pytest.raises(ContextError, match="want a JSON array"):
        load(database=str(tmp_path))
    with pytest.raises(ContextError, match="cannot read"):
        load(database=str(tmp_path / "nosuch"))
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": "/p", "arguments": ["cc", "-Iinc", "-DA", "x.cu"], "file": "x.cu"}]))
    context = load(["/top"], ["B"], None, str(tmp_path))
    assert context.for_file("/p/x.cu").include_dirs == ("/top", "/p/inc")
    assert context.for_file("/p/x.cu").defines == ("B", "A")
    assert context.for_file("/p/other.cuh").include_dirs == ("/top", "/p/inc")     # not listed: every folder
    assert context.for_file("/p/other.cuh").defines == ("B",)


def test_compile_context_reads_response_files_and_skips_nothing_else(tmp_path) -> None:
    from translator.compile_context import cuda_toolkit, parse_arguments
    (tmp_path / "CMakeFiles").mkdir()
    (tmp_path / "CMakeFiles" / "includes_CUDA.rsp").write_text('-I"/p/include" -isystem="/opt/cuda/include"\n')
    (tmp_path / "more.rsp").write_text("-DFROM_AT=1\n")
    ctx = parse_arguments(["nvcc", "--options-file", "CMakeFiles/includes_CUDA.rsp", "@more.rsp",
                           "--options-file", "missing.rsp", "-c", "k.cu"], str(tmp_path))
    assert ctx.include_dirs == ("/p/include", "/opt/cuda/include") and ctx.defines == ("FROM_AT=1",)
    (tmp_path / "cuda" / "include").mkdir(parents=True)
    (tmp_path / "cuda" / "include" / "cuda_runtime.h").write_text("")
    assert cuda_toolkit(str(tmp_path / "cuda" / "include")) and not cuda_toolkit(str(tmp_path))


def test_mangled_name_of_a_static_kernel_in_a_namespace() -> None:
    assert function_name("_ZN5statsL10sum_kernelEPKfPfi") == "sum_kernel"


CMAKE_PROJECT = ROOT / "corpus" / "projects" / "cmake_stats"


@pytest.mark.skipif(toolchain.hipcc() is None or toolchain.nvcc() is None or shutil.which("cmake") is None,
                    reason="needs hipcc, nvcc and cmake")
def test_compile_report_reads_the_cmake_projects_compile_commands(capsys, tmp_path) -> None:
    """`report -p build/` on the corpus's CMake project: every kernel gets hipcc's figures
    (and nvcc's), its headers found through the include folders CMake wrote to a
    response file; without the database none compiles."""
    build = tmp_path / "build"
    done = subprocess.run(["cmake", "-S", str(CMAKE_PROJECT), "-B", str(build), "-DCMAKE_CUDA_ARCHITECTURES=90",
                           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", f"-DCMAKE_CUDA_COMPILER={toolchain.nvcc()}"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    base = ["report", str(CMAKE_PROJECT), "--format", "json", "--rocm-version", "5.2", "-j", "2", "--no-cache"]
    assert main(base + ["-p", str(build)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(k["kernel"] for k in doc["kernels"]) == ["scale_add_kernel", "sum_kernel", "transform"]
    assert all(isinstance(k["vgprs"], int) and isinstance(k["nvcc_registers"], int) for k in doc["kernels"])
    assert doc["missing"] == []
    assert main(base) == 0
    assert all(k["vgprs"] is None for k in json.loads(capsys.readouterr().out)["kernels"])
