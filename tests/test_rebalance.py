"""The rebalancing pass: which kernels are block-size agnostic and why not, which grids are
ceiling divisions, the options, a second run, and the compilers' verdict on what it
writes. (The byte-exact rewrites and every refusal are goldens in
tests/passes/L007_rebalance; the corpus program corpus/kernels/rebalance_launches.cu runs
on a GPU through the corpus runner.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.frontend import node_at, parse_file
from translator.ir import build_ir
from translator.ir.block_agnostic import Agnostic, NotAgnostic, analyse
from translator.ir.grids import ceil_division
from translator.ir.host_values import HostValues
from translator.passes import Options
from translator.pipeline import translate

from test_golden import case_options

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "passes" / "L007_rebalance"
GID = "int i = blockIdx.x * blockDim.x + threadIdx.x;"


def _verdict(body: str, params: str = "float *x, int n", extra: str = "") -> Agnostic | NotAgnostic:
    parsed = parse_file(f"{extra}__global__ void k({params}) {{ {body} }}\n".encode())
    kernel = next(k for k in build_ir("t.cu", parsed).kernels if k.name == "k")
    return analyse(parsed, kernel)


@pytest.mark.parametrize("body, form, bound", [
    (f"{GID} if (i < n) x[i] = 0;", "guard", "n"),
    (f"{GID} if (i >= n) return; x[i] = x[i > 0 ? i - 1 : 0];", "guard", "n"),
    (f"{GID} if (i < n) atomicAdd(&x[0], x[i]);", "guard", "n"),
    ("for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0;",
     "grid-stride", "n"),
    (f"{GID} if (i < n * 2) x[i] = 0;", "guard", "n * 2"),
    ("const long g = blockIdx.x * blockDim.x + threadIdx.x; const long s = blockDim.x * gridDim.x;\n"
     "for (long i = g; i < n; i += s) x[i] = 0;", "grid-stride", "n"),
])
def test_kernels_whose_work_depends_on_the_global_id_alone_are_agnostic(body, form, bound) -> None:
    verdict = _verdict(body)
    assert isinstance(verdict, Agnostic)
    assert (verdict.form, verdict.bound, verdict.bound_params) == (form, bound, (1,))


@pytest.mark.parametrize("body, extra, reason", [
    (f"__shared__ float s[256]; {GID} if (i < n) {{ s[threadIdx.x] = x[i]; x[i] = s[0]; }}", "",
     "it uses shared memory (s): its threads cooperate within a block"),
    (f"extern __shared__ float s[]; {GID} if (i < n) x[i] = s[0];", "",
     "it uses shared memory (s, sized by the block): its threads cooperate within a block"),
    (f"{GID} if (i < n) {{ x[i] = 1; __syncthreads(); }}", "", "it synchronizes its block (__syncthreads())"),
    (f"{GID} if (i < n) x[i] = __shfl_down_sync(0xffffffff, x[i], 1);", "",
     "it uses a warp operation (__shfl_down_sync(0xffffffff, x[i], 1)), whose lanes depend on the block's shape"),
    (f"{GID} if (i < n) x[i] = threadIdx.y;", "",
     "it uses threadIdx.y beyond the global thread id (two-dimensional indexing)"),
    (f"{GID} if (i < n) x[i] = blockDim.x;", "", "it uses blockDim.x beyond the global thread id (the block's geometry)"),
    (f"{GID} if (i < n) x[i] = lane();", "__device__ float lane() { return threadIdx.x & 31; }\n",
     "it calls lane, which uses threadIdx"),
    (f"{GID} if (i < n) x[i] = outer();",
     "__device__ float inner() { return warpSize; }\n__device__ float outer() { return inner(); }\n",
     "it calls inner, which uses warpSize"),
    ("int s = blockDim.x * gridDim.x; for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) {"
     " int k = 0; k += s; x[i] = k; }", "", "its grid-stride loop uses 's' beyond its start and step"),
    ("int s = gridDim.x * blockDim.x; for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) x[i] = W;",
     "#define W s\n", "its grid-stride loop uses the macro W, which names 's' beyond its start and step"),
    ("x[threadIdx.x] = 0;", "", "its body is not one of the shapes whose work depends on the global thread id "
     "alone (an index from the global thread id, then a guard against a bound, or a grid-stride loop)"),
])
def test_kernels_that_see_their_block_are_not_agnostic_and_say_why(body, extra, reason) -> None:
    verdict = _verdict(body, extra=extra)
    assert isinstance(verdict, NotAgnostic)
    assert verdict.reason == reason


@pytest.mark.parametrize("grid, count, divisor", [
    ("(n + 255) / 256", "n", 256),
    ("(n + 256 - 1) / 256", "n", 256),
    ("(n + (B - 1)) / B", "n", 128),
    ("(n - 1) / B + 1", "n", 128),
    ("((size_t)rows * cols + B - 1) / B", "(size_t)rows * cols", 128),
    ("dim3((n + 127) / 128)", None, None),         # the dim3 is unwrapped by components(), not here
    ("n / 128", None, None),
    ("(n + 127) / 256", None, None),
    ("(n + 128) / 128", None, None),
])
def test_ceiling_divisions_are_recognised_in_each_form(grid, count, divisor) -> None:
    source = f"#define B 128\nvoid f(int n, int rows, int cols) {{ int g = {grid}; }}\n".encode()
    parsed = parse_file(source)
    start = source.index(grid.encode())
    node = node_at(parsed.main.root, start, start + len(grid))
    found = ceil_division(HostValues(parsed), node)
    if count is None:
        assert found is None
    else:
        assert found is not None
        assert (source[found.count.start_byte:found.count.end_byte].decode(), found.divisor) == (count, divisor)


def test_a_second_run_over_rebalanced_output_changes_nothing() -> None:
    for case in sorted(GOLDENS.glob("*.cu")):
        options = case_options(case.read_bytes())
        first = translate(case.name, case.read_bytes(), options)
        again = translate(case.name, first.output, options)
        assert again.output == first.output, case.name
        assert not [d for d in again.diagnostics if d.code in ("L007", "L008")], case.name


def test_launches_moved_to_one_configuration_then_fuse() -> None:
    source = (
        "__global__ void scale(const float *x, float *y, float a, int n) {\n"
        f"    {GID}\n    if (i < n) y[i] = a * x[i];\n}}\n"
        "__global__ void shift(const float *y, float *z, float b, int n) {\n"
        f"    {GID}\n    if (i < n) z[i] = y[i] + b;\n}}\n"
        "void run(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z, int n) {\n"
        "    scale<<<(n + 1023) / 1024, 1024>>>(x, y, 2.0f, n);\n"
        "    shift<<<(n + 1023) / 1024, 1024>>>(y, z, 1.0f, n);\n}\n")
    result = translate("t.cu", source.encode(), Options(target="cuda", ignore=("L001",)))
    assert result.output.decode().endswith(
        "    fused_scale_shift<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n, z, 1.0f);\n}\n")
    assert [d.code for d in result.diagnostics] == ["L007", "F001", "L007"]     # in source order


def test_ignoring_the_device_grid_keeps_the_fixed_grid_and_moves_the_block() -> None:
    source = ("__global__ void k(float *x, int n) {\n"
              "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 0;\n"
              "}\nvoid f(float *x, int n) { k<<<32, 128>>>(x, n); }\n")
    result = translate("t.cu", source.encode(), Options(target="cuda", ignore=("L001", "L008")))
    assert result.output.decode() == source.replace("k<<<32, 128>>>", "k<<<32, 256>>>")


def test_block_size_option_and_configuration(tmp_path, capsys) -> None:
    source = tmp_path / "a.cu"
    source.write_text("__global__ void k(float *x, int n) {\n    " + GID + "\n    if (i < n) x[i] = 0;\n}\n"
                      "void f(float *x, int n) { k<<<(n + 1023) / 1024, 1024>>>(x, n); }\n")
    assert main(["translate", str(source), "--stdout", "--target", "cuda", "--block-size", "100"]) == 2
    assert "--block-size must be a multiple of 64 from 64 to 1024" in capsys.readouterr().err
    assert main(["translate", str(source), "--stdout", "--target", "cuda", "--block-size", "512", "--ignore", "L001"]) == 0
    assert "k<<<(n + 511) / 512, 512>>>" in capsys.readouterr().out
    (tmp_path / "pyproject.toml").write_text("[tool.cu2hip]\nrebalance = false\n")
    assert main(["translate", str(source), "--stdout", "--target", "cuda", "--ignore", "L001"]) == 0
    assert "k<<<(n + 1023) / 1024, 1024>>>" in capsys.readouterr().out
    assert main(["translate", str(source), "--stdout", "--target", "cuda", "--ignore", "L001", "--rebalance"]) == 0
    assert "k<<<(n + 255) / 256, 256>>>" in capsys.readouterr().out
    (tmp_path / "pyproject.toml").write_text("[tool.cu2hip]\nblock-size = 96\n")
    assert main(["translate", str(source), "--stdout", "--target", "cuda"]) == 2
    assert "a multiple of 64 from 64 to 1024" in capsys.readouterr().err


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
@pytest.mark.parametrize("case", ["rebalance_grid_stride", "rebalance_guard_forms", "rebalance_refused"])
def test_rebalanced_hip_compiles_for_gfx90a(case, tmp_path) -> None:
    (tmp_path / f"{case}.hip").write_bytes((GOLDENS / f"{case}.hip").read_bytes())
    check = toolchain.hip_syntax_check(tmp_path / f"{case}.hip")
    assert check.ok, check.output


@pytest.mark.skipif(toolchain.nvcc() is None, reason="nvcc is not installed (pip install nvidia-cuda-nvcc)")
def test_rebalanced_cuda_compiles_with_nvcc(tmp_path) -> None:
    (tmp_path / "rebalance_target_cuda.cu").write_bytes((GOLDENS / "rebalance_target_cuda.hip").read_bytes())
    check = toolchain.nvcc_compile_check(tmp_path / "rebalance_target_cuda.cu")
    assert check.ok, check.output


def test_no_function_is_inserted_into_code_that_does_not_parse() -> None:
    # Found by bench/fuzz.py: the resident-blocks function inserted before a top-level
    # item with a parse error joined the error (P003). The block still moves.
    source = (b"__global__ void saxpy(float *y, int n) {\n"
              b"    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = 0;\n"
              b"}\n{ saxpy<<<2, 128>>>(y, n);\n")
    result = translate("t.cu", source, Options(target="cuda", ignore=("L001",)))
    assert b"cu2hip_resident_blocks" not in result.output
    assert "P003" not in {d.code for d in result.diagnostics}


def test_a_launch_never_moves_past_the_kernels_launch_bounds() -> None:
    # A bound already written (by hand, or by a first run) caps the block: moving the
    # launch to 256 threads would make it fail (found by bench/fuzz.py).
    source = ("__global__ void __launch_bounds__(128) k(float *x, int n) {\n    " + GID + "\n    if (i < n) x[i] = 0;\n}\n"
              "void f(float *x, int n) { k<<<(n + 63) / 64, 64>>>(x, n); }\n")
    result = translate("t.cu", source.encode(), Options(target="cuda"))
    assert result.output.decode() == source
    assert [d.format() for d in result.diagnostics] == [
        "t.cu:5:46: note: k keeps 64 threads per block: its __launch_bounds__(128) allows 128 threads per block at "
        "most, fewer than 256 [L009]"]


def test_the_resident_blocks_function_keeps_the_files_line_endings() -> None:
    source = ("__global__ void s(float *y, int n) {\r"
              "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = 0;\r"
              "}\rvoid f(float *y, int n) { s<<<32, 256>>>(y, n); }\r")
    output = translate("t.cu", source.encode(), Options(target="cuda", ignore=("L001",))).output
    assert b"cu2hip_resident_blocks(256)" in output and b"\n" not in output


TEMPLATED = ("template <typename T, typename A>\n__global__ void twice(const T *x, T *y, int n) {\n"
             "    " + GID + "\n    if (i < n) y[i] = static_cast<T>(static_cast<A>(x[i]) * 2);\n}\n"
             "struct Big { double v; };\n"
             "template <typename T>\nvoid eval(const T *x, T *y, int n) { twice<T, T><<<(n + 511) / 512, 512>>>(x, y, n); }\n")


@pytest.mark.parametrize("calls, moved", [
    ("eval<float>(x, y, n);", True),                        # vol2col's eval<float>
    ("eval<float>(x, y, n); eval<double>((const double *)x, (double *)y, n);", True),     # each the same way
    ("eval<Big>((const Big *)x, (Big *)y, n);", False),      # a class's operators could see the block
    ("eval(x, y, n);", True),                                # deduced from `const T *x`: float
    ("eval(x + 0, y + 0, n);", False),                       # deduced from expressions: not read
])
def test_a_launch_in_a_function_template_moves_when_every_instantiation_gives_arithmetic_types(calls, moved) -> None:
    source = TEMPLATED + "void run(const float *x, float *y, int n) { " + calls + " }\n"
    result = translate("t.cu", source.encode(), Options(target="cuda", ignore=("L001",)))
    assert ("twice<T, T><<<(n + 255) / 256, 256>>>" in result.output.decode()) == moved
    notes = [d.message for d in result.diagnostics if d.code == "L009"]
    if moved:
        assert notes == []
    elif "Big" in calls:
        assert notes == ["twice keeps 512 threads per block: it is a template launched with <T, T> (<Big, Big> in "
                         "an instantiation): only one arithmetic type name per type parameter (T, A), each written "
                         "out, is known to be the body's meaning"]
    else:
        assert notes == ["twice keeps 512 threads per block: it is launched with <T, T> in a function template: 'T' "
                         "is a template parameter of eval, whose instantiations are not all known: the call of eval "
                         "at line 9 does not write it (its arguments deduce it, or it has no default)"]


def test_a_launch_in_a_headers_function_template_stays() -> None:
    source = TEMPLATED + "void run(const float *x, float *y, int n) { eval<float>(x, y, n); }\n"
    result = translate("t.cuh", source.encode(), Options(target="cuda", ignore=("L001",)))
    assert result.output.decode() == source
    assert [d.message for d in result.diagnostics if d.code == "L009"] == [
        "twice keeps 512 threads per block: it is launched with <T, T> in a function template: 'T' is a template "
        "parameter of eval, whose instantiations are not all known: eval is defined in a header (t.cuh), which files "
        "cu2hip does not see may include and call it with other arguments"]


@pytest.mark.parametrize("body", [
    "dim3 block; block.x = 128; dim3 grid; grid.x = (n + block.x - 1) / block.x; k<<<grid, block>>>(x, n);",
    "dim3 block(1, 1, 1); block.x = 128; k<<<(n + 127) / 128, block>>>(x, n);",
    "dim3 grid; grid.x = (n + 127) / 128; k<<<grid, 128>>>(x, n);",
    # Its y member makes it two-dimensional: `block` would be read as one x of 128.
    "dim3 block(1, 1, 1); block.x = 64; block.y = 2; k<<<(n + 127) / 128, block>>>(x, n);",
])
def test_a_launch_of_a_dim3_written_member_by_member_keeps_its_configuration(body) -> None:
    # Moving it would mean rewriting the member's assignment and the grid's division
    # (issue 28): the launch stays, bounded, with the reason.
    source = ("__global__ void k(float *x, int n) {\n    " + GID + "\n    if (i < n) x[i] = 0;\n}\n"
              "void f(float *x, int n) { " + body + " }\n")
    result = translate("t.cu", source.encode(), Options(target="cuda"))
    assert result.output.decode() == source.replace("void k(", "void __launch_bounds__(128) k(")
    name = "grid" if body.startswith("dim3 grid") else "block"
    assert [d.message for d in result.diagnostics] == [
        f"k keeps 128 threads per block: its {name} is the dim3 '{name}', whose members are assigned one by one "
        f"({name}.x = ...): cu2hip does not rewrite those assignments"]
