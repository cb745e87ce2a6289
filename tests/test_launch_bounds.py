"""The launch-bounds pass: host-side values, bounds from every launch (in a file and across
a tree), CUDA's second argument in HIP's terms, the attributes HIP lacks, and hipcc's
verdict: the corpus's register-heavy kernels spill without bounds and do not with them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.frontend import parse_file
from translator.ir import build_ir
from translator.ir.host_values import HostValues
from translator.passes import Options
from translator.pipeline import translate

ROOT = Path(__file__).resolve().parent.parent
HIP = Options(rocm_version=(5, 2), fuse=False, rebalance=False)     # rebalancing: tests/test_rebalance.py

DECLARATIONS = """#define BLOCK 128
#define TWICE (2 * BLOCK)
#define NOTED 192 // threads per block
#define BOXED /* threads */ 320
#define WHO_KNOWS(x) x
enum { kThreads = 64, kNext };
struct Cfg { static constexpr int kBlock = 256; };
namespace cfg { const int kWarps = 4; }
constexpr int WARPS = 4;
__global__ void k(float *x) {}
template <int BS> void run_t(float *x) { k<<<1, BS>>>(x); }
void g(float *x) { run_t<64>(x); run_t<32 * 4>(x); }
"""


def _block(body: str, declarations: str = DECLARATIONS) -> tuple[tuple[int, ...], str]:
    source = declarations + "void f(float *x, int n, int bs) {\n" + body + "\n}\n"
    parsed = parse_file(source.encode())
    module = build_ir("t.cu", parsed)
    site = module.launches[-1]
    value = HostValues(parsed).block_size(site)
    return value.values, value.reason


@pytest.mark.parametrize("body, values", [
    ("k<<<1, 256>>>(x);", (256,)),
    ("k<<<1, 0x80>>>(x);", (128,)),
    ("const int t = 2 * BLOCK; k<<<1, t>>>(x);", (256,)),
    ("int t = 96; k<<<n, t>>>(x);", (96,)),                   # never written: its initializer
    ("k<<<1, TWICE>>>(x);", (256,)),
    ("k<<<1, kNext>>>(x);", (65,)),
    ("k<<<1, Cfg::kBlock>>>(x);", (256,)),
    ("k<<<1, cfg::kWarps * 32>>>(x);", (128,)),
    ("k<<<1, dim3(WARPS * 32)>>>(x);", (128,)),
    ("dim3 b(16, 16); k<<<1, b>>>(x);", (256,)),
    ("dim3 b{8, 8, 2}; k<<<1, b>>>(x);", (128,)),
    ("k<<<1, kThreads + sizeof(float4)>>>(x);", (80,)),
    ("k<<<1, (int)(sizeof(double) * 16)>>>(x);", (128,)),
    ("k<<<1, std::min(1024, 4 * 64)>>>(x);", (256,)),
    ("k<<<1, WARPS > 2 ? 256 : 128>>>(x);", (256,)),
    ("k<<<1, NOTED>>>(x);", (192,)),                         # a macro's comments are not its value
    ("k<<<1, BOXED>>>(x);", (320,)),
    ("dim3 b(64); k<<<(n + b.x - 1) / b.x, b.x>>>(x);", (64,)),
    # The most vexing parse: tree-sitter reads these as function declarations.
    ("dim3 b(WARPS*kThreads); k<<<1, b>>>(x);", (256,)),            # `WARPS *kThreads`, a "parameter"
    ("dim3 b(kThreads, WARPS); k<<<1, b.y * b.x>>>(x);", (256,)),
    ("const dim3 b(BLOCK); k<<<1, b>>>(x);", (128,)),
    # A local whose block or for has ended is not the name at the launch.
    ("{ int WARPS = 64; n -= WARPS; } k<<<1, WARPS * 32>>>(x);", (128,)),
    ("for (int WARPS = 0; WARPS < 2; WARPS++) n += WARPS; k<<<1, WARPS * 32>>>(x);", (128,)),
    ("dim3 b(32); if (n) { dim3 b(64); k<<<1, b>>>(x); } k<<<1, b>>>(x);", (32,)),
])
def test_block_sizes_the_file_determines(body, values) -> None:
    assert _block(body) == (values, "")


def test_a_template_argument_takes_the_values_of_every_call() -> None:
    parsed = parse_file(DECLARATIONS.encode())
    module = build_ir("t.cu", parsed)
    assert HostValues(parsed).block_size(module.launches[0]).values == (64, 128)


@pytest.mark.parametrize("body, reason", [
    ("k<<<1, bs>>>(x);", "'bs' is a parameter of f: its value comes from the caller"),
    ("int t = 64; t *= 2; k<<<1, t>>>(x);", "'t' may be written at run time in f: 't' is assigned (*=) at line 14"),
    ("int t = 64; int *p = &t; k<<<1, t>>>(x);",
     "'t' may be written at run time in f: the address of 't' is taken: it may be written through it at line 14"),
    ("const int t = bs * 2; k<<<1, t>>>(x);",
     "'t' depends on a value known at run time ('bs' is a parameter of f: its value comes from the caller)"),
    ("k<<<1, threads()>>>(x);", "'threads()' is a call: its value is known at run time"),
    ("k<<<1, NOWHERE>>>(x);", "'NOWHERE' is not declared in this file"),
    ("k<<<1, WHO_KNOWS(3)>>>(x);", "'WHO_KNOWS(3)' is a call: its value is known at run time"),
    ("k<<<1, 256 / (BLOCK - 128)>>>(x);", "a division by zero"),
    ("k<<<1, sizeof(Mine)>>>(x);", "the size of 'Mine' is not known here"),
    ("unsigned lt[2] = {16, 16}; dim3 b(lt[0], lt[1]); k<<<1, b>>>(x);",
     "'lt[0]' is not a constant expression cu2hip can evaluate"),
    ("dim3 b(BLOCK*bs); k<<<1, b>>>(x);", "'bs' is a parameter of f: its value comes from the caller"),
])
def test_block_sizes_known_only_at_run_time_say_why(body, reason) -> None:
    assert _block(body) == ((), reason)


def _translate(source: str, options: Options = HIP):
    result = translate("t.cu", source.encode(), options)
    return result.output.decode(), [d.format() for d in result.diagnostics]


def test_a_kernel_is_bounded_by_its_largest_launch_of_every_kind() -> None:
    source = """#include <hip/hip_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void f(float *x) {
    k<<<1, 64>>>(x);
    hipLaunchKernelGGL(k, dim3(1), dim3(128), 0, 0, x);
    void *args[] = {&x};
    hipLaunchKernel((const void *)k, dim3(1), dim3(96), args, 0, 0);
}
"""
    output, diagnostics = _translate(source)
    assert output == source.replace("void k(", "void __launch_bounds__(128) k(")
    assert diagnostics == []
    assert _translate(output) == (output, [])           # a second run has nothing to do


def test_a_launch_of_unknown_size_or_a_kernel_used_as_a_value_leaves_the_kernel_unbounded() -> None:
    source = """__global__ void k(float *x) { x[threadIdx.x] = 0; }
__global__ void j(float *x) { x[threadIdx.x] = 0; }
void (*saved)(float *) = j;
void f(float *x, int threads) {
    k<<<1, 64>>>(x);
    k<<<1, threads>>>(x);
    j<<<1, 64>>>(x);
}
"""
    output, diagnostics = _translate(source)
    assert output == "#include <hip/hip_runtime.h>\n" + source
    assert diagnostics == [
        "t.cu:1:17: warning: k is not bounded: at t.cu:6:5, 'threads' is a parameter of f: its value comes from "
        "the caller [L002]",
        "t.cu:2:17: warning: j is not bounded: at t.cu:3:26, j is used as a value here (passed to a call or "
        "stored): the launches through it cannot be counted [L002]"]


def test_a_dim3_of_a_product_of_macros_bounds_its_kernel() -> None:
    """`dim3 thr(NTX*NTY);` is a function declaration to tree-sitter (a parameter `NTX *NTY`):
    the launch's block was "'thr' is not declared in this file" (L002)."""
    source = """#include <hip/hip_runtime.h>
#define NTX 16
#define NTY 16
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void f(float *x, int n) {
    dim3 thr(NTX*NTY);
    dim3 blk(n / (NTX*NTY));
    k<<<blk, thr>>>(x);
}
"""
    output, diagnostics = _translate(source)
    assert output == source.replace("void k(", "void __launch_bounds__(256) k(")
    assert diagnostics == []


@pytest.mark.parametrize("source", [
    # A local of the kernel's own name (HeCBench's entropy).
    "__global__ void k(float *e) { float k = 0; e[threadIdx.x] = k; }\nvoid f(float *x) { k<<<1, 256>>>(x); }\n",
    # The kernel's own parameter of its name (HeCBench's lb_keogh).
    "__global__ void k(const float *x, float *__restrict__ k) { k[threadIdx.x] = x[0]; }\n"
    "void f(float *x) { k<<<1, 256>>>(x, x); }\n",
    # A parameter of the kernel's name, in another function's definition and a declaration.
    "__global__ void k(float *e) { e[threadIdx.x] = 0; }\nvoid g(float *__restrict__ k);\n"
    "void g(float *__restrict__ k) { k[0] = 1; }\nvoid f(float *x) { k<<<1, 256>>>(x); g(x); }\n",
    # A for's, a lambda's, a range-for's and a condition's.
    "__global__ void k(float *e) { e[threadIdx.x] = 0; }\nvoid f(float *x, int *v) {\n"
    "    for (int k = 0; k < 2; k++) x[k] = k;\n    auto l = [](int k) { return k; };\n"
    "    for (int k : {1, 2}) x[k] = l(k);\n    if (int k = v[0]) x[k] = 0;\n    k<<<1, 256>>>(x);\n}\n",
])
def test_a_local_or_parameter_of_a_kernels_name_is_not_the_kernel(source) -> None:
    """A declaration in the kernel's body or a parameter list shadows the kernel: its uses
    are not the kernel used as a value (L002 was "k is used as a value here")."""
    output, diagnostics = _translate("#include <hip/hip_runtime.h>\n" + source)
    assert "__global__ void __launch_bounds__(256) k(" in output
    assert diagnostics == []


def test_the_kernel_used_where_no_declaration_shadows_it_is_still_a_value() -> None:
    source = """#include <hip/hip_runtime.h>
__global__ void k(float *e) { e[threadIdx.x] = 0; }
void g(int k) { }
void f(float *x) {
    { float k = 0; x[0] = k; }
    void *p = (void *)k;
    k<<<1, 256>>>(x);
}
"""
    output, diagnostics = _translate(source)
    assert output == source
    assert diagnostics == ["t.cu:2:17: warning: k is not bounded: at t.cu:6:23, k is used as a value here (passed "
                           "to a call or stored): the launches through it cannot be counted [L002]"]


@pytest.mark.parametrize("bounds, converted, diagnostic", [
    ("(128, 8)", "(128, 4 /* waves per EU: CUDA's 8 blocks per SM */)",
     "k: 8 blocks of 128 threads per SM are 4 waves per SIMD on CDNA; HIP reads the argument as waves per EU"),
    ("(256, 2)", "(256, 2 /* waves per EU: CUDA's 2 blocks per SM */)",
     "k: 2 blocks of 256 threads per SM are 2 waves per SIMD on CDNA; HIP reads the argument as waves per EU"),
    ("(256, 1)", "(256)", "k: 1 blocks of 256 threads per SM is at most 1 wave per SIMD on CDNA: no constraint, "
                          "dropped"),
    ("(MAXT, MINB)", "(MAXT)", "k: the minimum of MINB blocks per SM is dropped ('MAXT' is not declared in this "
                               "file): HIP would read it as a minimum of waves per EU"),
])
def test_cudas_minimum_blocks_per_sm_becomes_hips_waves_per_eu(bounds, converted, diagnostic) -> None:
    source = f"__global__ void __launch_bounds__{bounds} k(float *x) {{ x[threadIdx.x] = 0; }}\n"
    result = translate("t.cu", source.encode(), HIP)
    assert result.output.decode() == "#include <hip/hip_runtime.h>\n" + source.replace(bounds, converted)
    assert [f.reason for f in result.applied if f.rule == "L004"] == [diagnostic]
    again = translate("t.cu", result.output, HIP)
    assert again.output == result.output
    # CUDA keeps CUDA's meaning.
    assert translate("t.cu", source.encode(), dataclasses.replace(HIP, target="cuda")).output == source.encode()


def test_a_tree_bounds_a_header_kernel_by_every_file_and_says_which_kernels_no_file_launches(tmp_path, capsys) -> None:
    project = ROOT / "tests" / "projects" / "two_tu"
    out = tmp_path / "hip"
    assert main(["translate", str(project), "-o", str(out), "--rocm-version", "5.2"]) == 0
    header = (out / "kernels.cuh").read_text()
    assert "__global__ void __launch_bounds__(256) scale(float *x, float s, int n) {" in header
    assert "__global__ void unused(float *x)" in header
    err = capsys.readouterr().err
    assert f"{project / 'kernels.cuh'}:8:17: note: unused is launched from no translated file: not bounded (HIP " \
           "compiles it for blocks of 1024 threads) [L003]" in err
    # The header alone knows none of its launches: nothing is bounded, nothing said.
    alone = translate("kernels.cuh", (project / "kernels.cuh").read_bytes(), HIP)
    assert b"__launch_bounds__" not in alone.output and not alone.diagnostics


def test_a_header_kernel_counts_only_the_files_that_include_it(tmp_path, capsys) -> None:
    """Two programs in one tree, each with a kernel `k`: the header's is launched with 128
    threads by the file that includes it; the other program's own `k`, with 1024, is
    another kernel (counting it would bound one by the other, too small for one of them)."""
    project = tmp_path / "src"
    (project / "one").mkdir(parents=True)
    (project / "two").mkdir()
    kernel = "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
    (project / "one" / "k.cuh").write_text(kernel)
    (project / "one" / "a.cu").write_text('#include "k.cuh"\nvoid a(float *x) { k<<<1, 128>>>(x); }\n')
    (project / "two" / "b.cu").write_text(kernel + "void b(float *x) { k<<<1, 1024>>>(x); }\n")
    out = tmp_path / "hip"
    assert main(["translate", str(project), "-o", str(out), "--rocm-version", "5.2", "--no-rebalance"]) == 0
    assert (out / "one" / "k.cuh").read_text() == \
        "#include <hip/hip_runtime.h>\n" + kernel.replace("void k(", "void __launch_bounds__(128) k(")
    assert (out / "two" / "b.cu").read_text().startswith(
        "#include <hip/hip_runtime.h>\n" + kernel.replace("void k(", "void __launch_bounds__(1024) k("))
    assert "L002" not in capsys.readouterr().err


def test_attributes_hip_lacks_are_errors_at_the_attribute() -> None:
    source = "__global__ void __maxnreg__(32) k(float *x) { x[threadIdx.x] = 0; }\n" \
             "__global__ void __cluster_dims__(2, 1, 1) c(float *x) { x[threadIdx.x] = 0; }\n" \
             "void f(float *x) { k<<<1, 32>>>(x); c<<<2, 32>>>(x); }\n"
    output, diagnostics = _translate(source)
    assert diagnostics == [
        "t.cu:1:17: error: __maxnreg__(32) has no HIP equivalent; see `cu2hip rules L005` [L005]",
        "t.cu:2:17: error: __cluster_dims__(2, 1, 1) has no HIP equivalent; see `cu2hip rules L006` [L006]"]
    # The kernels parse as kernels (the attributes are read as blanks) and are bounded.
    assert "__maxnreg__(32) __launch_bounds__(32) k(" in output
    assert "__cluster_dims__(2, 1, 1) __launch_bounds__(32) c(" in output


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_register_heavy_kernels_spill_without_bounds_and_not_with_them(tmp_path) -> None:
    source = ROOT / "corpus" / "kernels" / "register_heavy.cu"
    figures = {}
    for name, options in (("without", dataclasses.replace(HIP, ignore=("L",))), ("with", HIP)):
        path = tmp_path / f"{name}.hip"
        path.write_bytes(translate(source.name, source.read_bytes(), options).output)
        result, kernels = toolchain.hip_kernel_resources(path)
        assert result.ok, result.output[-3000:]
        figures[name] = {k.kernel: k for k in kernels}
    bounded = [k for k in figures["with"] if "runtime" not in k]
    assert len(bounded) == 5
    for kernel in bounded:
        before, after = figures["without"][kernel], figures["with"][kernel]
        assert before.vgprs == 128 and before.vgpr_spills > 0 and before.scratch_bytes > 0, before
        assert after.vgprs > 128 and after.vgpr_spills == 0 and after.scratch_bytes == 0, after
    (runtime,) = [k for k in figures["with"] if "runtime" in k]
    assert figures["with"][runtime].vgpr_spills > 0      # left as it was: diagnosed, not guessed


def test_report_lists_every_kernel_with_its_launches_and_bounds(tmp_path, capsys) -> None:
    import json
    project = ROOT / "tests" / "projects" / "two_tu"
    assert main(["report", str(project), "--format", "json", "--no-compile", "--rocm-version", "5.2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(k["file"].rsplit("/", 1)[-1], k["line"], k["kernel"], k["launch_sizes"], k["launches"], k["bounds"])
            for k in doc["kernels"]] == [("kernels.cuh", 3, "scale", [128, 256], 2, "256"),
                                         ("kernels.cuh", 8, "unused", [], 0, None)]
    assert doc["missing"] == ["--no-compile: no compiler figures"]
    assert [f["rule"] for f in doc["topics"]["launch-bounds"]] == ["L001", "L003"]


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_report_gives_hipccs_figures_with_and_without_the_passes(capsys) -> None:
    import json
    source = ROOT / "corpus" / "kernels" / "register_heavy.cu"
    assert main(["report", str(source), "--format", "json", "--rocm-version", "5.2", "-j", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    by_name = {k["kernel"]: k for k in doc["kernels"]}
    assert doc["missing"] == [] and len(by_name) == 6
    literal, runtime = by_name["heavy_literal"], by_name["heavy_runtime"]
    assert literal["bounds"] == "256" and literal["launch_sizes"] == [256]
    assert literal["vgprs"] > 128 and literal["spills"] == 0 and literal["scratch_bytes"] == 0
    assert literal["without"]["vgprs"] == 128 and literal["without"]["vgpr_spills"] > 0
    assert runtime["bounds"] is None and runtime["unknown"].endswith("its value comes from the caller)")
    assert runtime["vgprs"] == 128 and runtime["spills"] > 0


def test_report_html_is_one_page_with_a_chart_per_figure(capsys) -> None:
    source = ROOT / "tests" / "projects" / "two_tu"
    assert main(["report", str(source), "--format", "html", "--no-compile", "--rocm-version", "5.2"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<h2>VGPRs per kernel</h2>\n<p>VGPRs per kernel: no figures.</p>" in page    # --no-compile
    assert "<td>scale</td><td>128, 256</td><td>256</td>" in page
    assert "<li>--no-compile: no compiler figures</li>" in page
