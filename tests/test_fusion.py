"""The fusion pass: its analyses, each legality condition, the corpus's chains, and the
compilers' verdict on what it writes. (The byte-exact rewrites are goldens in
tests/passes/F001_fuse_chain and F002_not_fused; running the chains on a GPU is
test_corpus_chains_pass_on_the_gpu, marked gpu.)"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import jinja2
import pytest

from translator import toolchain
from translator.corpus import load_manifest
from translator.frontend import parse_file
from translator.ir import build_ir
from translator.ir.elementwise import Refusal, Stage, analyse, device_functions
from translator.ir.statements import launch_blocks, pointers
from translator.passes import Options
from translator.pipeline import translate
from translator.render import render

ROOT = Path(__file__).resolve().parent.parent
CUDA = Options(target="cuda", ignore=("L",))      # launch bounds are tests/test_launch_bounds.py's
GID = "int i = blockIdx.x * blockDim.x + threadIdx.x;"


def _stage(source: str, name: str = "k") -> Stage | Refusal:
    parsed = parse_file(source.encode())
    module = build_ir("t.cu", parsed)
    kernel = next(k for k in module.kernels if k.name == name)
    return analyse(parsed, kernel, device_functions(parsed))


@pytest.mark.parametrize("body, form, index, bound", [
    (f"{GID} if (i < n) x[i] = 0;", "guard", "i", "n"),
    (f"{GID} if (i >= n) return; x[i] = 0;", "guard", "i", "n"),
    ("const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (n > j) { x[j] = 0; }", "guard", "j", "n"),
    ("int i = threadIdx.x + blockDim.x * blockIdx.x; if (n <= i) return; x[i] = 0;", "guard", "i", "n"),
    ("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0;",
     "grid-stride", "i", "n"),
    ("const size_t g = blockIdx.x * blockDim.x + threadIdx.x; const size_t s = gridDim.x * blockDim.x;\n"
     "for (size_t j = g; j < n; j += s) x[j] = 0;", "grid-stride", "j", "n"),
    ("int s = blockDim.x * gridDim.x; for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += s) x[i] = 0;",
     "grid-stride", "i", "n"),
])
def test_elementwise_shapes(body, form, index, bound) -> None:
    stage = _stage(f"__global__ void k(float *x, int n) {{ {body} }}\n")
    assert isinstance(stage, Stage), stage
    assert (stage.form, stage.index, stage.bound) == (form, index, bound)
    assert [(a.param, a.mode) for a in stage.accesses] == [("x", "write")]


@pytest.mark.parametrize("body, reason", [
    (f"{GID} if (i < n) x[i + 1] = 0;", "it reads or writes x[i+1], not its own element x[i]"),
    (f"{GID} if (i < n) atomicAdd(x, 1.0f);", "it uses an atomic (atomicAdd(x, 1.0f))"),
    (f"__shared__ float s[32]; {GID} if (i < n) x[i] = s[0];", "it uses shared memory (s)"),
    (f"{GID} if (i < n) {{ x[i] = 0; __syncthreads(); }}", "it uses a barrier (__syncthreads())"),
    (f"{GID} if (i < n) x[i] = __shfl_down_sync(0xffffffff, x[i], 1);",
     "it uses a warp operation (__shfl_down_sync(0xffffffff, x[i], 1))"),
    (f"{GID} if (i < n) {{ if (x[i] < 0) return; x[i] = 1; }}", "it returns early inside its guard"),
    (f"{GID} if (i < n) x[i] = threadIdx.x;", "it uses threadIdx beyond the global thread id"),
    (f"{GID} if (i < n) {{ float *p = x; p[i] = 0; }}", "it uses the pointer 'x' other than as x[i] (*p = x)"),
    (f"{GID} if (i < n) x[i] = *x;", "it dereferences a pointer (*x)"),
    # Every declarator of a declaration declares its name (the second is no use of the pointer).
    (f"{GID} if (i < n) {{ float a, x; x = 2.0f; a = x; }}", "it declares 'x', the name of a parameter or of the index"),
    (f"{GID} if (i < n) {{ n = 0; x[i] = 0; }}", "it assigns its parameter 'n'"),
    (f"{GID} if (i < n) x[i] = g[i];", "it reads or writes memory it was not given as a parameter (g[i])"),
    (f"{GID} if (i < m) x[i] = 0;", "its guard's bound 'm' uses 'm', not a scalar parameter"),
    (f"{GID} x[i] = 0;", "its body is not one of the elementwise shapes (an index from the global thread id, then "
                         "a guard against a bound, or a grid-stride loop)"),
    ("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 32) x[i] = 0;",
     "its loop is not a grid-stride loop (`i < n; i += blockDim.x * gridDim.x`)"),
    ("int s = blockDim.x * gridDim.x; for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) x[i] = s;",
     "its grid-stride loop uses 's' beyond its start and step"),
    ("int s = blockDim.x * gridDim.x; for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) x[i] = W;",
     "its grid-stride loop uses the macro W, which names 's' beyond its start and step"),
    ("short g = blockIdx.x * blockDim.x + threadIdx.x; for (int i = g; i < n; i += blockDim.x * gridDim.x) x[i] = 0;",
     "its grid-stride loop's index is int and 'g' is short: the loop's values may not be the canonical loop's"),
    ("int g = blockIdx.x * blockDim.x + threadIdx.x; for (int i = g; i < n; i += blockDim.x * gridDim.x) x[i] = 0; "
     "x[g] = 1;", "its body is not one of the elementwise shapes (an index from the global thread id, then a guard "
                  "against a bound, or a grid-stride loop)"),
    ("int s = blockDim.x; for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) x[i] = 0;",
     "its body is not one of the elementwise shapes (an index from the global thread id, then a guard against a "
     "bound, or a grid-stride loop)"),
    (f"{GID} if (i < n) x[i] = helper(x);", "it calls helper, which takes a pointer or reference"),
    (f"{GID} if (i < n) x[i] = norm(x[i]);", "it calls norm, which uses atomicAdd"),
])
def test_non_elementwise_kernels_say_why(body, reason) -> None:
    source = ("#define W (s + 1)\n__device__ float g[4]; __device__ float helper(const float *p) { return p[0]; }\n"
              "__device__ float total;\n__device__ float norm(float v) { atomicAdd(&total, v); return v; }\n"
              f"__device__ int m;\n__global__ void k(float *x, int n) {{ {body} }}\n")
    stage = _stage(source)
    assert isinstance(stage, Refusal) and stage.reason == reason


X2, Y2 = "int x = blockIdx.x * blockDim.x + threadIdx.x;", "int y = threadIdx.y + blockDim.y * blockIdx.y;"


@pytest.mark.parametrize("body", [
    f"{X2} {Y2} if (x < w && y < h) p[y * w + x] = (float)(x + y);",
    f"{Y2} {X2} if (h > y && x < w) {{ p[x + w * y] = 0; }}",
    f"{X2} {Y2} if (x >= w || y >= h) return; p[x + y * w] = 0;",
])
def test_two_dimensional_elementwise_shapes(body) -> None:
    stage = _stage(f"__global__ void k(float *p, int w, int h) {{ {body} }}\n")
    assert isinstance(stage, Stage), stage
    assert (stage.form, stage.index, stage.index_y, stage.bound, stage.bound_y) == ("guard-2d", "x", "y", "w", "h")
    assert [(a.param, a.mode) for a in stage.accesses] == [("p", "write")]


@pytest.mark.parametrize("body, reason", [
    (f"{X2} {Y2} if (x < w && y < h) p[y * w + x + 1] = 0;", "it reads or writes p[y*w+x+1], not its own element "
                                                              "p[y*w+x]"),
    (f"{X2} {Y2} if (x < w && y < h) p[x * h + y] = 0;", "it reads or writes p[x*h+y], not its own element p[y*w+x]"),
    (f"{X2} {Y2} if (x < w && y < h) p[y * h + x] = 0;", "it reads or writes p[y*h+x], not its own element p[y*w+x]"),
    (f"{X2} {Y2} if (x < w - 1 && y < h) p[y * w + x] = 0;",
     "its columns' bound 'w - 1' is not a parameter: its elements `y * width + x` are not known to be one per thread"),
    (f"{X2} {Y2} if (x < w && y < h) {{ y = 0; p[y * w + x] = 0; }}", "it assigns its index"),
    ("int x = blockIdx.x * blockDim.x + threadIdx.x; int y = blockIdx.x * blockDim.x + threadIdx.x; "
     "if (x < w && y < h) p[y * w + x] = 0;", "its body is not one of the elementwise shapes (an index from the global "
                                             "thread id, then a guard against a bound, or a grid-stride loop)"),
])
def test_two_dimensional_kernels_that_are_not_elementwise_say_why(body, reason) -> None:
    stage = _stage(f"__global__ void k(float *p, int w, int h) {{ {body} }}\n")
    assert isinstance(stage, Refusal) and stage.reason == reason


def _fusion_notes(source: str) -> list[str]:
    result = translate("t.cu", source.encode(), CUDA)
    return [f"{d.code} {d.message}" for d in result.diagnostics if d.code in ("F001", "F002")]


_TWO_D = """__global__ void a(float *__restrict__ p, {w} w, int h) {{
    int x = blockIdx.x * blockDim.x + threadIdx.x; int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) p[y * w + x] = 1.0f;
}}
__global__ void b(float *__restrict__ p, int w, int h) {{
    {second}
}}
void run(float *__restrict__ p, int w, int h, dim3 g, dim3 t) {{
    a<<<g, t>>>(p, w, h);
    b<<<g, t>>>(p, w, h);
}}
"""


@pytest.mark.parametrize("width, second, note", [
    ("int", "int x = blockIdx.x * blockDim.x + threadIdx.x; int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "    if (x >= w || y >= h) return; p[y * w + x] *= 2.0f;", "F001 fused a, b into fused_a_b"),
    ("long", "int x = blockIdx.x * blockDim.x + threadIdx.x; int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
             "    if (x >= w || y >= h) return; p[y * w + x] *= 2.0f;",
     "F002 launch of b not fused with the launch of a before it: the widths of the rows differ in type (w in a, w in b)"),
    ("int", "int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < w) p[i] *= 2.0f;",
     "F002 launch of b not fused with the launch of a before it: a is a guard-2d kernel and b a guard one"),
])
def test_two_dimensional_chains(width, second, note) -> None:
    notes = _fusion_notes(_TWO_D.format(w=width, second=second))
    assert any(n.startswith(note) for n in notes), notes


def test_a_helper_is_callable_when_it_is_elementwise_itself() -> None:
    source = ("__device__ float sq(float v) { return v * v; }\n"
              "__device__ float lane(float v) { return v + threadIdx.x; }\n"
              f"__global__ void k(float *x, int n) {{ {GID} if (i < n) x[i] = sq(x[i]); }}\n"
              f"__global__ void j(float *x, int n) {{ {GID} if (i < n) x[i] = lane(x[i]); }}\n")
    stage = _stage(source)
    assert isinstance(stage, Stage) and stage.helpers == {"sq"}
    assert _stage(source, "j").reason == "it calls lane, which uses threadIdx"


def test_statements_between_launches_are_classified() -> None:
    source = """#define CHECK(x) do { if ((x) != cudaSuccess) { printf("bad"); exit(1); } } while (0)
__global__ void k(float *x, int n) {}
void f(float *x, int n, cudaStream_t s) {
    float *y;
    cudaMalloc(&y, n * 4);
    k<<<1, 32>>>(x, n);
    int m = std::min(n, 4) * 2;
    CHECK(cudaGetLastError());
    cudaGetLastError();
    k<<<1, 32>>>(x, m);
    x[0] = 1;
    CHECK(cudaMemcpy(x, y, 4, cudaMemcpyDefault));
    if (m) m++;
    k<<<1, 32>>>(y, m);
}
"""
    parsed = parse_file(source.encode())
    module = build_ir("t.cu", parsed)
    (block,) = launch_blocks(parsed, module)
    kinds = [(s.kind, s.what, sorted(s.assigns)) for s in block.statements]
    assert kinds == [("launch", "", []), ("transparent", "", ["m"]), ("check", "", []), ("check", "", []),
                     ("launch", "", []), ("barrier", "a memory access (x[0])", []),
                     ("barrier", "a call of cudaMemcpy (in CHECK(...))", []), ("barrier", "an if", []),
                     ("launch", "", [])]
    facts = pointers(parsed, block.function_span)
    assert facts.allocated == {"y"} and facts.locals == {"y", "m"}
    assert [u.role for u in facts.uses["y"]] == ["declare", "allocate", "other", "other"]


def test_restrict_parameters_and_single_allocations_are_distinct_others_are_not() -> None:
    source = """void f(float *__restrict__ a, float *__restrict__ b, float *c) {
    float *d, *e;
    cudaMalloc(&d, 4);
    cudaMalloc((void **)&e, 4);
    e = d;
}
"""
    parsed = parse_file(source.encode())
    function = parsed.main.root.children[0]
    facts = pointers(parsed, (function.start_byte, function.end_byte))
    assert facts.restricted == {"a", "b"} and facts.allocated == {"d"}     # e is assigned again


def _fused(source: str, options: Options = CUDA):
    result = translate("t.cu", source.encode(), options)
    return result.output.decode(), [d.format() for d in result.diagnostics], {f.rule for f in result.applied}


KERNELS = """__global__ void a(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] + 1; }
__global__ void b(float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2; }
__global__ void s(float *y, int n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] *= 2; }
__global__ void w(float *y, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2; }
__global__ void r(const float *y, float *sum, int n) { __shared__ float p[64]; int i = blockIdx.x * blockDim.x + threadIdx.x; p[threadIdx.x] = i < n ? y[i] : 0; __syncthreads(); if (threadIdx.x == 0) atomicAdd(sum, p[0]); }
__global__ void rw(float *y, float *sum, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { y[i] = 0; atomicAdd(sum, 1.0f); } }
__global__ void ru(const float *y, float *sum, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; atomicAdd(sum, y[i]); }
"""


@pytest.mark.parametrize("launches, message", [
    ("a<<<g, 64>>>(x, y, n);\n    b<<<g, 64, 0, st>>>(y, n);", "the streams differ (0 and st)"),
    ("a<<<g, 64>>>(x, y, n);\n    b<<<g, 64, 16>>>(y, n);", "the dynamic shared memory sizes differ (0 and 16)"),
    ("a<<<g, 64>>>(x, y, n);\n    b<<<g + 1, 64>>>(y, n);", "the grids differ (g and g+1)"),
    ("a<<<g, 64>>>(x, y, n);\n    s<<<g, 64>>>(y, n);", "a is a guard kernel and s a grid-stride one"),
    ("a<<<g, 64>>>(x, y, n);\n    w<<<g, 64>>>(y, n);", "the index types differ (int in a, unsigned in w)"),
    ("a<<<g, 64>>>(x, y, n);\n    g = g * 2;\n    b<<<g, 64>>>(y, n);",
     "'g', an argument of the launch of a, is modified between the launches"),
    ("a<<<g, 64>>>(x, y, n);\n    helper();\n    b<<<g, 64>>>(y, n);", "a call of helper between the launches"),
    ("a<<<g, 64>>>(x, y, n);\n    b<<<g, 64>>>(x, n);",
     "'x' is written and 'y' may point into the same memory (not provably distinct allocations)"),
    ("s<<<g, 64>>>(y, n);\n    r<<<g, 64>>>(y, sum, n);",
     "r is not elementwise (it uses shared memory (p)) and does not only reduce what the chain computes: s is a "
     "grid-stride kernel: a reduction cannot take its loop"),
    ("b<<<g, 64>>>(y, n);\n    rw<<<g, 64>>>(y, sum, n);",
     "rw is not elementwise (it uses an atomic (atomicAdd(sum, 1.0f))) and does not only reduce what the chain "
     "computes: it writes y[i], which the chain computes"),
    ("b<<<g, 64>>>(y, n);\n    ru<<<g, 64>>>(y, sum, n);",
     "ru is not elementwise (it uses an atomic (atomicAdd(sum, y[i]))) and does not only reduce what the chain "
     "computes: it reads y[i] outside a guard i < n"),
])
def test_each_refusal_names_its_reason(launches, message) -> None:
    source = KERNELS + ("void helper();\nvoid f(const float *__restrict__ x, float *__restrict__ y, "
                        f"float *__restrict__ sum, int n, int g, cudaStream_t st) {{\n    {launches}\n}}\n")
    source = source.replace("float *__restrict__ y", "float *y") if "(x, n)" in launches else source
    output, diagnostics, applied = _fused(source)
    assert output == source and not applied
    second = launches.splitlines()[-1].strip()
    kernel, line = second.split("<<<")[0], source.count("\n", 0, source.index(second)) + 1
    first = launches.split("<<<")[0]
    assert diagnostics == [f"t.cu:{line}:5: note: launch of {kernel} not fused with the launch of {first} before "
                           f"it: {message} [F002]"]


def test_no_fuse_and_the_configuration_turn_fusion_off(tmp_path, capsys) -> None:
    from translator.cli import main
    source = KERNELS + "void f(float *__restrict__ y, int n) {\n    b<<<n, 64>>>(y, n);\n    b<<<n, 64>>>(y, n);\n}\n"
    output, _, applied = _fused(source)
    assert applied == {"F001"} and "fused_b<<<n, 64>>>(y, n);" in output
    assert _fused(source, Options(target="cuda", fuse=False, ignore=("L",)))[0] == source
    (tmp_path / "t.cu").write_text(source)
    assert main(["translate", str(tmp_path / "t.cu"), "--stdout", "--target", "cuda", "--no-fuse", "-q", "--ignore", "L"]) == 0
    assert capsys.readouterr().out == source
    (tmp_path / "cu2hip.toml").write_text("fuse = false\ntarget = \"cuda\"\nignore = [\"L\"]\n")
    assert main(["translate", str(tmp_path / "t.cu"), "--stdout", "-q"]) == 0
    assert capsys.readouterr().out == source
    assert main(["translate", str(tmp_path / "t.cu"), "--stdout", "-q", "--fuse"]) == 0
    assert "fused_b" in capsys.readouterr().out


def test_templates_refuse_missing_values() -> None:
    with pytest.raises(jinja2.UndefinedError):
        render("fused_elementwise.cu.j2", name="f")


CORPUS = [p for p in load_manifest(ROOT) if p.path.startswith("corpus/fusion/")]
# What each negative corpus chain's F002 must say (its first comment says why it must not fuse).
REFUSALS = {
    "neg_copy_between": "a call of cudaMemcpy (in CHECK(...)) between the launches",
    "neg_neighbour_read": "not its own element",
    "neg_two_streams": "the streams differ",
    "neg_atomic_accumulator": "accumulate is not elementwise: it uses an atomic",
    "neg_aliasing": "may point into the same memory",
    "neg_cublas_between": "a call of cublasSscal",
}


@pytest.mark.parametrize("program", CORPUS, ids=lambda p: Path(p.path).stem)
def test_corpus_chains_are_fused_and_the_others_are_not(program) -> None:
    name = Path(program.path).stem
    source = (ROOT / program.path).read_bytes()
    result = translate(program.path, source, CUDA)
    notes = [d.message for d in result.diagnostics if d.code == "F002"]
    if name.startswith("neg_"):
        assert result.output == source, f"{name} must not be fused"
        assert any(REFUSALS[name] in n for n in notes), notes
        assert source.split(b"\n", 1)[0].startswith(b"// must not fuse:")
    else:
        # The timestep loop's fused launch is then the loop's one launch: R012 captures it.
        expected = ["F001", "R012"] if name == "chain_timestep_loop" else ["F001"]
        assert [f.rule for f in result.applied] == expected, notes
        assert not notes


def _compile_cuda(path: Path) -> toolchain.CompileResult:
    return toolchain.nvcc_compile_check(path, include_dirs=tuple(filter(None, [os.environ.get("CU2HIP_CUDA_INCLUDE")])))


@pytest.mark.skipif(toolchain.nvcc() is None, reason="nvcc is not installed (pip install nvidia-cuda-nvcc)")
@pytest.mark.parametrize("case", sorted((ROOT / "tests" / "passes" / "F001_fuse_chain").glob("*.cu")), ids=lambda p: p.stem)
def test_fused_cuda_compiles_with_nvcc(case, tmp_path) -> None:
    result = translate(case.name, case.read_bytes(), CUDA)
    assert "F001" in {f.rule for f in result.applied}
    (tmp_path / case.name).write_bytes(result.output)
    check = _compile_cuda(tmp_path / case.name)
    assert check.ok, check.output


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
@pytest.mark.parametrize("case", sorted((ROOT / "tests" / "passes" / "F001_fuse_chain").glob("*.cu")), ids=lambda p: p.stem)
def test_fused_hip_compiles_for_gfx90a(case, tmp_path) -> None:
    result = translate(case.name, case.read_bytes(), Options(rocm_version=(5, 2)))
    assert "F001" in {f.rule for f in result.applied}
    (tmp_path / (case.stem + ".hip")).write_bytes(result.output)
    check = toolchain.hip_syntax_check(tmp_path / (case.stem + ".hip"))
    assert check.ok, check.output


def _gpu() -> bool:
    return shutil.which("nvidia-smi") is not None and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu() or toolchain.nvcc() is None, reason="needs an NVIDIA GPU and nvcc")
@pytest.mark.parametrize("program", CORPUS, ids=lambda p: Path(p.path).stem)
def test_corpus_chains_pass_on_the_gpu(program, tmp_path) -> None:
    """The --target cuda translation of every corpus chain still passes its self-check."""
    source = ROOT / program.path
    fused = tmp_path / source.name
    fused.write_bytes(translate(program.path, source.read_bytes(), CUDA).output)
    binary = tmp_path / "a.out"
    libs = [f"-l{lib}" for lib in program.libs if lib != "cuda"]
    build = subprocess.run([toolchain.nvcc(), "-O2", "-arch=sm_90", "-o", str(binary), str(fused), *libs],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("PASS"), run.stdout + run.stderr


def test_report_lists_chains_fused_and_refused(tmp_path, capsys) -> None:
    from translator.cli import main
    import json
    (tmp_path / "t.cu").write_text(KERNELS + "void f(float *__restrict__ y, int n, cudaStream_t st) {\n"
                                   "    b<<<n, 64>>>(y, n);\n    b<<<n, 64>>>(y, n);\n    b<<<n, 64, 0, st>>>(y, n);\n}\n")
    assert main(["report", str(tmp_path / "t.cu"), "--target", "cuda", "--ignore", "L", "--no-compile"]) == 0
    path = str(tmp_path / "t.cu")
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        "fusion: 2 findings, 1 applied",
        f"  {path}:10:5: applied: fused b, b into fused_b: one launch instead of 2; every store kept (y) [F001]",
        f"  {path}:11:5: not applied: launch of b not fused with the launch of b before it: the streams differ "
        "(0 and st) [F002]",
        "launch-bounds: 0 findings, 0 applied"]
    assert out[4:6] == ["runtime: 0 findings, 0 applied", "warp-size: 0 findings, 0 applied"]
    assert out[6].startswith("kernels: 7 ") and out[-1] == "missing: --no-compile: no compiler figures"
    assert main(["report", path, "--format", "json", "--ignore", "L", "--no-compile"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(f["rule"], f["line"], f["applied"]) for f in doc["topics"]["fusion"]] == \
        [("F001", 10, True), ("F002", 11, False)]
    assert main(["report", path, "--format", "markdown", "--no-fuse", "--ignore", "L", "--no-compile"]) == 0
    assert capsys.readouterr().out.startswith("## cu2hip report\n\n### fusion\n\nNothing found.\n\n"
                                              "### launch-bounds\n\nNothing found.\n\n### runtime\n\nNothing found.\n\n"
                                              "### warp-size\n\n"
                                              "Nothing found.\n\n### kernels")


def test_the_wheel_ships_the_templates(tmp_path) -> None:
    """templates/ (and grammars/) are links in a checkout: the wheel must hold copies, which
    translator.render loads through importlib.resources."""
    import sys
    import zipfile
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = tmp_path.glob("cu2hip-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"translator/templates/{p.name}" for p in (ROOT / "templates").glob("*.j2")}
    assert shipped and shipped <= names
    assert "translator/grammars/cu2hip-rules.lark" in names
    assert "translator/data/debian-hip.cmake" in names   # `cu2hip toolchain-file`


def test_a_chain_refused_for_an_include_in_a_kernel_stays_refused_in_a_second_run() -> None:
    """The include inside the kernel is kept (renamed) in the HIP output, so a second run
    refuses the chain for the same reason (found by bench/fuzz.py)."""
    source = ("#include <cuda_runtime.h>\n"
              "__global__ void a(float *y, int n) {\n#include <cuda_runtime.h>\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += 1;\n}\n"
              "__global__ void b(float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2; }\n"
              "void run(float *__restrict__ y, int n) {\n  a<<<(n + 255) / 256, 256>>>(y, n);\n"
              "  b<<<(n + 255) / 256, 256>>>(y, n);\n}\n")
    options = Options(rocm_version=(5, 2), ignore=("L",))
    first = translate("t.cu", source.encode(), options)
    assert "F001" not in {f.rule for f in first.applied}
    assert first.output.count(b"#include <hip/hip_runtime.h>") == 2
    assert translate("t.cu", first.output, options).output == first.output


_TEMPLATE_PAIR = """
template <typename T> __global__ void first(T *a, int n) { %s if (i < n) a[i] = a[i] * T(2); }
template <typename T> __global__ void second(T *a, int n) { %s if (i < n) a[i] = a[i] + T(1); }
void run(int n) {
    %s
    first%s<<<(n + 255) / 256, 256>>>(a, n);
    second%s<<<(n + 255) / 256, 256>>>(a, n);
}
"""


@pytest.mark.parametrize("declaration, args, refusal", [
    ("float *a;", "<float>", None),
    ("float *a;", "", None),                                   # deduced from float *a: T is float
    ("double *a;", "<double>", None),
    ("unsigned *a;", "<unsigned>", None),
    ("long long *a;", "<long long>", "it is a template launched with <long long>"),      # two words
    ("float *a;", "<Real>", "it is a template launched with <Real>"),                  # not a known word
    ("const float *a;", "", "this launch deduces"),            # T would be const float, not the word
    ("auto *a = (float *)0;", "", "this launch deduces"),      # the pointee is not written
    ("float **a;", "", "this launch deduces"),                 # a pointer to pointer: T is float *
])
def test_template_kernels_fuse_only_with_arithmetic_types_written_or_deduced(declaration, args, refusal) -> None:
    source = _TEMPLATE_PAIR % (GID, GID, declaration, args, args)
    result = translate("t.cu", source.encode(), CUDA)
    fused = [d for d in result.diagnostics if d.code == "F001"]
    refused = [d.message for d in result.diagnostics if d.code == "F002"]
    if refusal is None:
        assert len(fused) == 1 and not refused, refused
        word = (args[1:-1] if args else declaration.split()[0])
        assert f"__global__ void fused_first_second({word} *a, int n)" in result.output.decode()
        assert f"a_v * {word}(2)" in result.output.decode() and f"a_v + {word}(1)" in result.output.decode()
    else:
        assert not fused and len(refused) == 1 and refusal in refused[0], refused


# --- pointers into an allocation at an offset (`&x[off]`, `x + off`) --------------------------
#
# HeCBench's qem launches its chain once per stream on chunks of its buffers:
# `QRdel<<<g, b, 0, stream[i]>>>(n, &d_A[offset], ..., &d_Q[offset])`, then QuarticSolver on
# the same chunks. A pointer into a local that one cudaMalloc sets stays in that allocation:
# two such bases are distinct memory at any offsets, and one pointer text whose names do not
# change between the launches is one pointer.

OFFSET_KERNELS = """__global__ void a(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] + 1; }
__global__ void b(float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2; }
int off_of(int s);
"""


def _chunked(launches: str, before: str = "") -> str:
    return OFFSET_KERNELS + (
        "void f(float *p, int total, int chunk, int ns, cudaStream_t *st) {\n    float *x, *y, *z;\n"
        "    cudaMalloc(&x, total * 4);\n    cudaMalloc(&y, total * 4);\n    cudaMalloc(&z, total * 4);\n"
        f"{before}    int g = (chunk + 63) / 64;\n    for (int s = 0; s < ns; ++s) {{\n        int off = s * chunk;\n"
        f"        {launches}\n    }}\n    cudaFree(x);\n    cudaFree(y);\n    cudaFree(z);\n}}\n")


@pytest.mark.parametrize("launches, fused", [
    ("a<<<g, 64, 0, st[s]>>>(&x[off], &y[off], chunk);\n        b<<<g, 64, 0, st[s]>>>(&y[off], chunk);",
     "fused_a_b<<<g, 64, 0, st[s]>>>(&x[off], &y[off], chunk);"),
    ("a<<<g, 64, 0, st[s]>>>(x + off, y + off, chunk);\n        b<<<g, 64, 0, st[s]>>>(y + off, chunk);",
     "fused_a_b<<<g, 64, 0, st[s]>>>(x + off, y + off, chunk);"),
    ("a<<<g, 64, 0, st[s]>>>(&x[s * chunk], &y[off], chunk);\n        b<<<g, 64, 0, st[s]>>>(&z[off + 1], chunk);",
     "fused_a_b<<<g, 64, 0, st[s]>>>(&x[s * chunk], &y[off], chunk, &z[off + 1]);"),
    ("a<<<g, 64, 0, st[s]>>>(p, &y[off], chunk);\n        b<<<g, 64, 0, st[s]>>>(&y[off], chunk);",
     "fused_a_b<<<g, 64, 0, st[s]>>>(p, &y[off], chunk);"),
])
def test_pointers_into_distinct_allocations_at_an_offset_fuse(launches, fused) -> None:
    source = _chunked(launches)
    output, diagnostics, applied = _fused(source)
    assert applied == {"F001"}, diagnostics
    assert output.count("<<<") == 1 and f"        {fused}\n" in output
    # The fused kernel indexes through the pointers as passed: one parameter per pointer text.
    assert "__global__ void fused_a_b(const float *x, float *y, int n" in output


@pytest.mark.parametrize("launches, before, message", [
    ("a<<<g, 64>>>(&x[off], &y[off], chunk);\n        off += 1;\n        b<<<g, 64>>>(&y[off], chunk);", "",
     "'off', an argument of the launch of a, is modified between the launches"),
    ("a<<<g, 64>>>(&x[off], &y[off], chunk);\n        b<<<g, 64>>>(&y[off + 1], chunk);", "",
     "'&y[off+1]' is written and '&y[off]' may point into the same memory ('&y[off+1]' and '&y[off]' both point "
     "into 'y', which one allocation of this function sets: at different offsets they may overlap)"),
    ("a<<<g, 64>>>(&x[off], &y[off], chunk);\n        b<<<g, 64>>>(y, chunk);", "",
     "'&y[off]' is written and 'y' may point into the same memory ('&y[off]' and 'y' both point into 'y', which "
     "one allocation of this function sets: at different offsets they may overlap)"),
    ("a<<<g, 64>>>(&x[off], &y[off], chunk);\n        b<<<g, 64>>>(&y[off], chunk);", "    y = z + 1;\n",
     "'&y[off]' is written and '&x[off]' may point into the same memory ('y' is assigned or its address taken "
     "in f)"),
    ("a<<<g, 64>>>(&x[off], &p[off], chunk);\n        b<<<g, 64>>>(&p[off], chunk);", "",
     "'&p[off]' is written and '&x[off]' may point into the same memory ('&p[off]' points into 'p', which is not "
     "a local that one allocation of this function sets: where it points is not known)"),
    ("a<<<g, 64>>>(&x[off_of(s)], &y[off], chunk);\n        b<<<g, 64>>>(&y[off], chunk);", "",
     "'&y[off]' is written and '&x[off_of(s)]' may point into the same memory ('&x[off_of(s)]' is not a plain "
     "name (pointer arithmetic, a member, a call, a macro's expansion): where it points is not known)"),
    ("a<<<g, 64>>>(&x[off], &y[x - y], chunk);\n        b<<<g, 64>>>(&y[x - y], chunk);", "",
     "'&y[x-y]' is written and '&x[off]' may point into the same memory ('&y[x-y]' is not a plain name (pointer "
     "arithmetic, a member, a call, a macro's expansion): where it points is not known)"),
])
def test_pointers_at_an_offset_that_may_overlap_are_refused(launches, before, message) -> None:
    source = _chunked(launches, before)
    output, diagnostics, applied = _fused(source)
    assert output == source and not applied
    second = launches.splitlines()[-1].strip()
    line = source.count("\n", 0, source.index(second)) + 1
    assert diagnostics == [f"t.cu:{line}:9: note: launch of b not fused with the launch of a before it: {message} "
                           "[F002]"]


def test_a_pointer_into_an_allocation_a_chain_already_reads_is_checked_against_it() -> None:
    # The third launch writes one element past the chunk the first launch reads: the chain
    # of the first two stays, and the third is refused against the first's argument.
    launches = ("a<<<g, 64>>>(&x[off], &z[off], chunk);\n        b<<<g, 64>>>(&y[off], chunk);\n"
                "        b<<<g, 64>>>(&x[off + 1], chunk);")
    output, diagnostics, applied = _fused(_chunked(launches))
    assert applied == {"F001"}
    assert "        fused_a_b<<<g, 64>>>(&x[off], &z[off], chunk, &y[off]);\n        b<<<g, 64>>>(&x[off + 1], chunk);\n" \
        in output
    assert [d for d in diagnostics if "[F002]" in d] == [
        "t.cu:14:9: note: launch of b not fused with the launch of b before it: '&x[off+1]' is written and '&x[off]' "
        "may point into the same memory ('&x[off+1]' and '&x[off]' both point into 'x', which one allocation of this "
        "function sets: at different offsets they may overlap) [F002]"]


@pytest.mark.parametrize("key, form", [
    ("&x[off]", ("x", "off")), ("x+off", ("x", "off")), ("&x[(s+1)*chunk-2]", ("x", "(s+1)*chunk-2")),
    ("x+(size_t)s*chunk", ("x", "(size_t)s*chunk")),
    ("&x[idx[s]]", None), ("&x[f(s)]", None), ("x+f(s)", None), ("x+s++", None), ("&x[--s]", None),
    ("&x[s.off]", None), ("x+p->off", None), ("&x[off]+1", None), ("x+(s", None), ("x+s)", None), ("x", None),
    ("&x[a=1]", None), ("&x[s,1]", None),
])
def test_offset_forms_are_host_arithmetic_only(key, form) -> None:
    from translator.ir.statements import offset_form
    assert offset_form(key) == form


def test_an_offset_that_names_an_allocation_is_no_offset_into_the_base() -> None:
    source = b"void f(float *p, int n) {\n    float *x, *y;\n    cudaMalloc(&x, n * 4);\n    cudaMalloc(&y, n * 4);\n}\n"
    parsed = parse_file(source)
    function = parsed.main.root.children[0]
    facts = pointers(parsed, (function.start_byte, function.end_byte))
    assert [facts.base_of(k) for k in ("x", "&x[n]", "x+(y-x)", "&p[n]", "p", "&y[n-1]")] == \
        ["x", "x", None, None, None, "y"]
    assert facts.distinct("&x[n]", "&y[n]").known and facts.distinct("&x[n]", "p").known
    assert not facts.distinct("&x[n]", "x").known and not facts.distinct("&x[n]", "&x[n+1]").known


def test_a_stage_defined_in_an_included_cu_file_is_named_where_it_is(tmp_path, capsys, monkeypatch) -> None:
    from translator.cli import main
    # HeCBench's lud includes its kernels' .cu: the launching file holds no definition, and
    # the refusal names the file that does (the fused kernel is written from the launching
    # file's own definitions).
    kernels = ("__global__ void scale(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
               "if (i < n) x[i] *= 2.0f; }\n"
               "__global__ void shift(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
               "if (i < n) x[i] += 1.0f; }\n")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "kernels.cu").write_text(kernels)
    (tmp_path / "p" / "main.cu").write_text(
        '#include "kernels.cu"\nint main() {\n  float* x; int n = 1000;\n  cudaMalloc(&x, n * sizeof(float));\n'
        "  scale<<<(n + 255) / 256, 256>>>(x, n);\n  shift<<<(n + 255) / 256, 256>>>(x, n);\n"
        "  cudaDeviceSynchronize();\n  return 0;\n}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "p", "--no-cache", "--select", "F"]) in (0, 1)
    err = capsys.readouterr().err
    assert ("p/main.cu:6:3: note: launch of shift not fused with the launch of scale before it: scale: its "
            "definition is not in this file but in p/kernels.cu: a fused kernel is written from the launching "
            "file's own definitions [F002]") in err


FUSABLE_TEMPLATES = (
    "template <typename T>\n__global__ void scale(const T *x, T *y, T a, int n) {\n"
    f"    {GID}\n    if (i < n) y[i] = a * x[i];\n}}\n"
    "template <typename T>\n__global__ void shift(const T *y, T *z, T b, int n) {\n"
    f"    {GID}\n    if (i < n) z[i] = y[i] + b;\n}}\n"
    "template <typename T>\nvoid run(const T *__restrict__ x, T *__restrict__ y, T *__restrict__ z, int n) {\n"
    "    scale<T><<<(n + 255) / 256, 256>>>(x, y, 2, n);\n"
    "    shift<T><<<(n + 255) / 256, 256>>>(y, z, 1, n);\n}\n")


def test_a_chain_in_a_function_template_fuses_for_its_one_instantiation_only() -> None:
    one = FUSABLE_TEMPLATES + "void g(float *x, float *y, float *z, int n) { run<float>(x, y, z, n); }\n"
    result = translate("t.cu", one.encode(), Options(target="cuda", ignore=("L001",)))
    assert "__global__ void fused_scale_shift(const float *x, float *y, float a, int n, float *z, float b)" \
        in result.output.decode()
    assert "    fused_scale_shift<<<(n + 255) / 256, 256>>>(x, y, 2, n, z, 1);\n" in result.output.decode()
    two = one.replace("run<float>(x, y, z, n);", "run<float>(x, y, z, n); run<double>((double *)x, (double *)y, "
                                                 "(double *)z, n);")
    result = translate("t.cu", two.encode(), Options(target="cuda", ignore=("L001",)))
    assert result.output.decode() == two
    assert [d.message for d in result.diagnostics] == [
        "launch of shift not fused with the launch of scale before it: scale is not elementwise: it is launched from "
        "a function template whose instantiations give it several types (T = float; T = double): one kernel written "
        "out is one of them"]
