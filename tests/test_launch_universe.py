"""The launch universe (translator/universe.py): a kernel is bounded and rebalanced by
every launch the project can make of it, whatever files a command is given. Each test
is a program on which the passes were wrong before (issue 15, item 2)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from translator.cli import main
from translator.corpus import load_manifest

ROOT = Path(__file__).resolve().parent.parent
ROCM = ("--rocm-version", "6.0")
KERNEL = "__global__ void scale(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
         "    if (i < n) x[i] *= 2.0f;\n}\n"


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def _tree(tmp_path: Path, files: dict[str, str], *options: str) -> dict[str, str]:
    src = _write(tmp_path / "src", files)
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", "--no-cache", *ROCM, *options]) in (0, 1)
    return {name: (out / name).read_text() for name in files}


def test_a_kernel_launched_through_a_declaration_in_another_cu_is_bounded_by_both(tmp_path) -> None:
    out = _tree(tmp_path, {
        "kernel.cu": KERNEL + "void small(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }\n",
        "main.cu": "__global__ void scale(float *x, int n);\n"
                   "int main() { float *x = 0; int n = 4096; scale<<<(n + 1023) / 1024, 1024>>>(x, n); }\n"},
        "--no-rebalance")
    assert "__global__ void __launch_bounds__(1024) scale(" in out["kernel.cu"]


def test_a_kernel_launched_through_a_header_declaring_it_is_bounded_by_every_file(tmp_path) -> None:
    out = _tree(tmp_path, {
        "scale.h": "#pragma once\n__global__ void scale(float *x, int n);\n",
        "kernel.cu": '#include "scale.h"\n' + KERNEL + "void a(float *x, int n) { scale<<<n / 64, 64>>>(x, n); }\n",
        "other.cu": '#include "scale.h"\nvoid b(float *x, int n, int t) { scale<<<n / t, t>>>(x, n); }\n',
        "main.cu": '#include "scale.h"\nint main() { float *x = 0; scale<<<4, 512>>>(x, 2048); }\n'},
        "--no-rebalance")
    assert "__launch_bounds__" not in out["kernel.cu"]      # other.cu's block is the caller's


def test_another_programs_kernel_of_the_same_name_is_another_kernel(tmp_path) -> None:
    out = _tree(tmp_path, {
        "one/main.cu": KERNEL + "int main() { float *x = 0; scale<<<4, 128>>>(x, 512); }\n",
        "two/main.cu": KERNEL + "int main() { float *x = 0; scale<<<4, 1024>>>(x, 4096); }\n"}, "--no-rebalance")
    assert "__launch_bounds__(128) scale(" in out["one/main.cu"]
    assert "__launch_bounds__(1024) scale(" in out["two/main.cu"]


def test_a_static_kernel_is_launched_from_its_own_file_only(tmp_path) -> None:
    out = _tree(tmp_path, {
        "a.cu": "static " + KERNEL + "void a(float *x) { scale<<<4, 128>>>(x, 512); }\n",
        "b.cu": "__global__ void scale(float *x, int n);\nvoid b(float *x) { scale<<<4, 1024>>>(x, 512); }\n"},
        "--no-rebalance")
    assert "static __global__ void __launch_bounds__(128) scale(" in out["a.cu"]


def test_one_file_without_main_leaves_a_kernel_of_external_linkage_unbounded(tmp_path, capsys) -> None:
    _write(tmp_path, {"k.cu": KERNEL + "void a(float *x) { scale<<<4, 128>>>(x, 512); }\n"})
    assert main(["translate", str(tmp_path / "k.cu"), "--stdout", "--no-cache", *ROCM]) == 0
    captured = capsys.readouterr()
    assert "__launch_bounds__" not in captured.out
    assert "scale has external linkage: another translation unit of the program may launch it" in captured.err
    assert "set [tool.cu2hip] in its pyproject.toml" in captured.err


def test_one_file_of_a_configured_project_counts_the_projects_launches(tmp_path, capsys) -> None:
    _write(tmp_path, {"pyproject.toml": '[tool.cu2hip]\noutput = "hip"\n',
                      "k.cu": KERNEL + "void a(float *x) { scale<<<4, 128>>>(x, 512); }\n",
                      "m.cu": "__global__ void scale(float *x, int n);\nint main() { scale<<<1, 768>>>(0, 512); }\n"})
    assert main(["translate", str(tmp_path / "k.cu"), "--stdout", "--no-cache", "--no-rebalance", *ROCM]) == 0
    assert "__global__ void __launch_bounds__(768) scale(" in capsys.readouterr().out


def test_a_rebalanced_launch_stays_within_the_bound_other_files_give(tmp_path) -> None:
    out = _tree(tmp_path, {
        "kernel.cu": KERNEL + "void a(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }\n",
        "main.cu": "__global__ void scale(float *x, int n);\n"
                   "int main() { float *x = 0; int n = 4096; scale<<<(n + 127) / 128, 128>>>(x, n); }\n"},
        "--block-size", "512")
    # The bound comes from the input's launches (128); a launch moved to 512 would fail.
    assert "__launch_bounds__(128) scale(" in out["kernel.cu"]
    assert "<<<(n + 127) / 128, 128>>>" in out["kernel.cu"]


def test_a_block_macro_of_an_included_local_header_is_read(tmp_path) -> None:
    out = _tree(tmp_path, {"config.h": "#pragma once\n#define BLOCK 192\n",
                           "k.cu": '#include "config.h"\n' + KERNEL +
                                   "int main() { scale<<<4, BLOCK>>>(0, 768); }\n"}, "--no-rebalance")
    assert "__launch_bounds__(192) scale(" in out["k.cu"]


def test_a_block_macro_under_ifndef_bounds_in_its_own_name(tmp_path) -> None:
    out = _tree(tmp_path, {"config.h": "#pragma once\n#ifndef TPB\n#define TPB 128\n#endif\n",
                           "k.cu": '#include "config.h"\n' + KERNEL + "__global__ void twice(float *x) {}\n"
                                   "int main() { dim3 b(TPB); scale<<<4, b>>>(0, 512); twice<<<4, 2 * TPB>>>(0); }\n"},
                "--no-rebalance")
    assert "__global__ void __launch_bounds__(TPB) scale(" in out["k.cu"]
    assert "__global__ void twice(" in out["k.cu"]


def test_a_commit_of_one_file_rewrites_every_translation_that_reads_it(tmp_path, monkeypatch) -> None:
    """The hook is given the changed files only: the files that include a changed header
    (its macros are theirs) and the kernel's file that a changed launch bounds are
    rewritten with them; an unrelated file is not."""
    _write(tmp_path, {"pyproject.toml": '[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n',
                      "config.h": "#pragma once\n#define BLOCK 192\n",
                      "k.cuh": "#pragma once\n" + KERNEL,
                      "k.cu": '#include "config.h"\n#include "k.cuh"\nint main() { scale<<<4, BLOCK>>>(0, 768); }\n',
                      "other.cu": "void g(float *p) {}\n"})
    monkeypatch.chdir(tmp_path)
    assert main(["translate", ".", "-q", "--no-cache", "--no-rebalance"]) == 0
    (tmp_path / "config.h").write_text("#pragma once\n#define BLOCK 256\n")
    (tmp_path / "hip" / "other.cu").write_text("left alone\n")
    assert main(["translate", "--pre-commit", "--no-cache", "--no-rebalance", "config.h"]) == 1
    assert "__launch_bounds__(256) scale(" in (tmp_path / "hip" / "k.cuh").read_text()
    assert (tmp_path / "hip" / "other.cu").read_text() == "left alone\n"
    assert main(["check", "--no-cache", "--no-rebalance", "config.h"]) == 0


def _projects() -> list[tuple[str, tuple[str, ...]]]:
    """The corpus's programs of several translation units: (folder, its files)."""
    out = []
    for program in load_manifest(ROOT):
        if len(program.sources) > 1:
            folder = ROOT / Path(program.sources[0]).parent
            files = tuple(sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()))
            out.append((str(folder.relative_to(ROOT)), files))
    return out


@pytest.mark.parametrize("folder, files", _projects(), ids=[f for f, _ in _projects()])
def test_translating_any_subset_of_a_project_writes_the_same_bytes_as_a_full_run(tmp_path, folder, files,
                                                                                monkeypatch) -> None:
    project = tmp_path / "project"
    shutil.copytree(ROOT / folder, project)
    (project / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n')
    monkeypatch.chdir(project)
    assert main(["translate", ".", "-q", "--no-cache"]) in (0, 1)
    full = {name: (project / "hip" / name).read_bytes() for name in files}
    assert any(b"__launch_bounds__" in text for text in full.values())
    subsets = [s for r in range(1, len(files) + 1) for s in itertools.combinations(files, r)]
    for subset in subsets:
        for name in subset:
            (project / "hip" / name).write_bytes(b"stale\n")
        # As the hook runs it: the staged files only, each rewritten.
        assert main(["translate", "--pre-commit", "--no-cache", *subset]) == 1
        for name in subset:
            assert (project / "hip" / name).read_bytes() == full[name], (subset, name)


LONG_SIGNATURE = ("__global__ void stencil(\n" + "".join(
    f"    float *__restrict__ p{i},   // input/output {i} (see update(), step {i})\n" for i in range(12))
    + "    int n) /* the { of the body is past byte 400 */\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) p0[i] += p1[i];\n}\n")


def test_a_kernel_whose_signature_is_longer_than_400_bytes_is_a_definition(tmp_path) -> None:
    """hotspot's calc_temp has 13 commented parameters; its `{` is past byte 400, and the
    kernel was taken as declared only: its launches from the file that includes it were
    never indexed (L003, launched from no translated file)."""
    assert LONG_SIGNATURE.index("{") > 400
    out = _tree(tmp_path, {"kernel.h": LONG_SIGNATURE,
                           "main.cu": '#include "kernel.h"\nint main() { dim3 b(16, 16);\n'
                                      "    stencil<<<4, b>>>(" + "0, " * 12 + "1024); }\n"}, "--no-rebalance")
    assert "__global__ void __launch_bounds__(256) stencil(" in out["kernel.h"]


@pytest.mark.parametrize("text, defined, declared", [
    (LONG_SIGNATURE, {"stencil"}, set()),
    # A comment or a string in the signature names no kernel, and its braces end nothing.
    ("__global__ /* not f(x) { */ void k(int x) {}", {"k"}, set()),
    ("__global__ // g(x);\nvoid k(int x) {}", {"k"}, set()),
    ('__global__ void k(const char *s = "a(b) {;") {}', {"k"}, set()),
    ("__global__ void k(char c = '{', char d = ';') {}", {"k"}, set()),
    # Attributes and their arguments.
    ("__global__ void __launch_bounds__(256, 2) k(float *x) {}", {"k"}, set()),
    ("__global__ void __attribute__((amdgpu_flat_work_group_size(1, 256))) k(float *x) {}", {"k"}, set()),
    ('[[deprecated("use k2")]] __global__ void k(float *x);', set(), {"k"}),
    ('__global__ [[deprecated("use k2")]] void k(float *x);', set(), {"k"}),
    # A default argument's braces or call are inside the parameters.
    ("__global__ void k(float *x, int n = f(3), S s = {}) {}", {"k"}, set()),
    # A declaration then a definition; one never reaching its end is declared.
    ("__global__ void a(float *x);\n__global__ void b(float *x) {}\n__global__ void c(float *x", {"b"}, {"a", "c"}),
    # __global__ in a comment is no kernel.
    ("// __global__ void old(float *x) {}\nvoid h() {}", set(), set()),
])
def test_kernels_of_reads_a_signature_to_its_end(text, defined, declared) -> None:
    from translator.universe import kernels_of
    kernels = kernels_of(text.encode())
    assert set(kernels.defined) == defined
    assert set(kernels.declared) == declared


def test_the_index_holds_each_launch_once_however_many_definitions_it_reaches(tmp_path) -> None:
    # Four copies of one program in one project: each copy's main declares scale and
    # launches it, and reaches every copy's definition (4 x 4 entries' launches). Each
    # launch is one fact, shared by the entries (issue 23: 73,792 entries of 6-tuples
    # were 9 MiB of a 75 MiB peak).
    from translator.universe import launch_index
    jobs = []
    for k in range(4):
        for name, text in (("kernel.cu", KERNEL),
                           ("main.cu", "__global__ void scale(float *x, int n);\n"
                                       f"int main() {{ float *x = 0; scale<<<4, {64 * (k + 1)}>>>(x, 256); }}\n")):
            path = tmp_path / f"c{k}" / name
            jobs.append((path, f"c{k}/{name}", text.encode()))
    index = launch_index(jobs, None)
    assert [(kernel, home, [(where, sizes) for _, where, sizes, _, _ in facts]) for kernel, home, facts in index] == [
        ("scale", f"c{k}/kernel.cu", [(f"c{m}/main.cu:2:28", (64 * (m + 1),)) for m in range(4)]) for k in range(4)]
    assert len({id(fact) for _, _, facts in index for fact in facts}) == 4


# A launching function template of a header (or of a .cu another file includes): its
# template arguments are every includer's (issue 28).
RUN_HEADER = "#pragma once\n" + KERNEL + \
    "template <int BS>\nvoid run(float *x, int n) { scale<<<(n + BS - 1) / BS, BS>>>(x, n); }\n"


def test_a_header_template_is_bounded_by_the_largest_argument_of_its_includers(tmp_path) -> None:
    out = _tree(tmp_path, {"run.cuh": RUN_HEADER,
                           "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<128>(x, 4096); }\n',
                           "main.cu": '#include "run.cuh"\nint main() { float *x = 0; run<512>(x, 4096); }\n'},
                "--no-rebalance")
    assert "__global__ void __launch_bounds__(512) scale(" in out["run.cuh"]


def test_an_included_cu_template_counts_its_own_calls_and_its_includers(tmp_path) -> None:
    out = _tree(tmp_path, {"kernels.cu": RUN_HEADER.replace("#pragma once\n", "") +
                                         "void own(float *x) { run<768>(x, 64); }\n",
                           "main.cu": '#include "kernels.cu"\nint main() { float *x = 0; run<256>(x, 4096); }\n'},
                "--no-rebalance")
    assert "__global__ void __launch_bounds__(768) scale(" in out["kernels.cu"]


def test_an_includer_through_another_header_counts(tmp_path) -> None:
    out = _tree(tmp_path, {"run.cuh": RUN_HEADER,
                           "wrap.h": '#pragma once\n#include "run.cuh"\n',
                           "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<128>(x, 4096); }\n',
                           "main.cu": '#include "wrap.h"\nint main() { float *x = 0; run<1024>(x, 4096); }\n'},
                "--no-rebalance")
    assert "__global__ void __launch_bounds__(1024) scale(" in out["run.cuh"]


@pytest.mark.parametrize("main_cu, reason", [
    ('#include "run.cuh"\nint main() { float *x = 0;\n  auto f = &run<256>; f(x, 4096); }\n',
     "main.cu: run is named at line 3 other than in a call or explicit instantiation"),
    ('#include "run.cuh"\ntemplate <int B> struct Tag {};\ntemplate <int BS> void run(float *x, Tag<BS>) {}\n'
     "int main() { float *x = 0; run(x, Tag<256>()); }\n", "main.cu: run is named at line 3"),
    ('#include "run.cuh"\n#define RUN(x) run<64>(x, 64)\nint main() { float *x = 0; RUN(x); }\n',
     "main.cu: the macro RUN names run"),
])
def test_a_header_template_one_includer_uses_another_way_is_not_bounded(tmp_path, capsys, main_cu, reason) -> None:
    out = _tree(tmp_path, {"run.cuh": RUN_HEADER,
                           "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<128>(x, 4096); }\n',
                           "main.cu": main_cu}, "--no-rebalance")
    assert "__launch_bounds__" not in out["run.cuh"]
    err = capsys.readouterr().err
    assert "scale is not bounded" in err and reason in err, err


def test_a_header_template_an_includer_calls_with_a_deduced_argument_is_not_bounded(tmp_path, capsys) -> None:
    header = RUN_HEADER.replace("template <int BS>\nvoid run(float *x, int n)",
                                "template <int BS> struct Tag {};\ntemplate <int BS>\nvoid run(float *x, int n, Tag<BS>)")
    out = _tree(tmp_path, {"run.cuh": header,
                           "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<128>(x, 4096, Tag<128>()); }\n',
                           "main.cu": '#include "run.cuh"\nint main() { run(0, 64, Tag<1024>()); }\n'},
                "--no-rebalance")
    assert "__launch_bounds__" not in out["run.cuh"]
    err = capsys.readouterr().err
    assert "main.cu: the call of run at line 2 does not write 'BS' (its arguments deduce it" in err, err


def test_a_header_template_translated_alone_is_not_bounded(tmp_path, capsys) -> None:
    _write(tmp_path, {"run.cuh": RUN_HEADER,
                      "main.cu": '#include "run.cuh"\nint main() { float *x = 0; run<512>(x, 4096); }\n'})
    assert main(["translate", str(tmp_path / "run.cuh"), "--stdout", "--no-cache", "--no-rebalance", *ROCM]) == 0
    captured = capsys.readouterr()
    assert "__launch_bounds__" not in captured.out
    assert "run is defined in a header (run.cuh), which files cu2hip does not see may include" in captured.err


def test_a_header_template_called_by_another_header_template_follows_its_calls(tmp_path) -> None:
    out = _tree(tmp_path, {"run.cuh": RUN_HEADER,
                           "outer.cuh": '#pragma once\n#include "run.cuh"\n'
                                        "template <int N>\nvoid outer(float *x) { run<N>(x, 4096); }\n",
                           "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<64>(x, 4096); }\n',
                           "main.cu": '#include "outer.cuh"\nint main() { float *x = 0; outer<256>(x); }\n'},
                "--no-rebalance")
    assert "__global__ void __launch_bounds__(256) scale(" in out["run.cuh"]


def test_a_header_template_whose_caller_template_is_not_all_known_is_not_bounded(tmp_path, capsys) -> None:
    out = _tree(tmp_path, {"run.cuh": RUN_HEADER,
                           "outer.cuh": '#pragma once\n#include "run.cuh"\n'
                                        "template <int N>\nvoid outer(float *x) { run<N>(x, 4096); }\n",
                           "main.cu": '#include "outer.cuh"\n'
                                      "int main() { float *x = 0; outer<256>(x); auto f = &outer<512>; }\n"},
                "--no-rebalance")
    assert "__launch_bounds__" not in out["run.cuh"]
    assert "main.cu: outer is named at line 2 other than in a call" in capsys.readouterr().err


def test_a_header_templates_launch_moves_only_when_every_includer_gives_one_block(tmp_path) -> None:
    one = _tree(tmp_path / "one", {"run.cuh": RUN_HEADER,
                                   "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<1024>(x, 4096); }\n',
                                   "main.cu": '#include "run.cuh"\nint main() { run<1024>(0, 64); }\n'})
    assert "scale<<<(n + 255) / 256, 256>>>(x, n)" in one["run.cuh"]
    assert "__launch_bounds__(256) scale(" in one["run.cuh"]
    two = _tree(tmp_path / "two", {"run.cuh": RUN_HEADER,
                                   "a.cu": '#include "run.cuh"\nvoid a(float *x) { run<512>(x, 4096); }\n',
                                   "main.cu": '#include "run.cuh"\nint main() { run<1024>(0, 64); }\n'})
    assert "scale<<<(n + BS - 1) / BS, BS>>>(x, n)" in two["run.cuh"]
    assert "__launch_bounds__(1024) scale(" in two["run.cuh"]


def test_a_change_in_an_includer_translates_the_header_again(tmp_path, monkeypatch) -> None:
    """The header's translation reads its includers' calls: its cache key holds them."""
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    src = _write(tmp_path / "src", {"run.cuh": RUN_HEADER,
                                    "main.cu": '#include "run.cuh"\nint main() { run<128>(0, 64); }\n'})
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", *ROCM, "--no-rebalance"]) == 0
    assert "__launch_bounds__(128) scale(" in (out / "run.cuh").read_text()
    (src / "main.cu").write_text('#include "run.cuh"\nint main() { run<384>(0, 64); }\n')
    assert main(["translate", str(src), "-o", str(out), "-q", *ROCM, "--no-rebalance"]) == 0
    assert "__launch_bounds__(384) scale(" in (out / "run.cuh").read_text()


def test_a_change_in_an_includer_bounds_a_kernel_of_another_header_again(tmp_path, monkeypatch) -> None:
    """The kernel's file reads the template's file's launch facts from the index: their
    cache entry is keyed by the template index's entries of that file."""
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    src = _write(tmp_path / "src", {
        "scale.cuh": "#pragma once\n" + KERNEL,
        "run.cuh": '#pragma once\n#include "scale.cuh"\n'
                   "template <int BS>\nvoid run(float *x, int n) { scale<<<(n + BS - 1) / BS, BS>>>(x, n); }\n",
        "main.cu": '#include "run.cuh"\nint main() { run<128>(0, 64); }\n'})
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", *ROCM, "--no-rebalance"]) == 0
    assert "__launch_bounds__(128) scale(" in (out / "scale.cuh").read_text()
    (src / "main.cu").write_text('#include "run.cuh"\nint main() { run<384>(0, 64); }\n')
    assert main(["translate", str(src), "-o", str(out), "-q", *ROCM, "--no-rebalance"]) == 0
    assert "__launch_bounds__(384) scale(" in (out / "scale.cuh").read_text()


def test_a_commit_of_an_includer_rewrites_the_headers_template_translation(tmp_path, monkeypatch, capsys) -> None:
    _write(tmp_path, {"pyproject.toml": '[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n',
                      "run.cuh": RUN_HEADER,
                      "main.cu": '#include "run.cuh"\nint main() { run<128>(0, 64); }\n'})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["translate", ".", "-q", "--no-rebalance"]) == 0
    assert "__launch_bounds__(128) scale(" in (tmp_path / "hip" / "run.cuh").read_text()
    (tmp_path / "main.cu").write_text('#include "run.cuh"\nint main() { run<640>(0, 64); }\n')
    assert main(["translate", "--pre-commit", "--no-rebalance", "main.cu"]) == 1
    assert "__launch_bounds__(640) scale(" in (tmp_path / "hip" / "run.cuh").read_text()
    # One file of the configured project, alone: its includers are the project's.
    capsys.readouterr()
    assert main(["translate", "run.cuh", "--stdout", "-q", "--no-rebalance"]) == 0
    assert "__launch_bounds__(640) scale(" in capsys.readouterr().out


def test_another_header_the_includer_reads_is_read_for_calls(tmp_path, capsys) -> None:
    """outer.cuh calls run<N> without including run.cuh: main.cu includes both. Its
    call is one of run's instantiations: run's values follow outer's (not indexed here:
    outer.cuh reaches no launching template), so the header stays unbounded."""
    out = _tree(tmp_path, {"run.cuh": RUN_HEADER,
                           "outer.cuh": "#pragma once\ntemplate <int N>\nvoid outer(float *x) { run<N>(x, 4096); }\n",
                           "main.cu": '#include "run.cuh"\n#include "outer.cuh"\n'
                                      "int main() { float *x = 0; run<64>(x, 64); outer<1024>(x); }\n"},
                "--no-rebalance")
    assert "__launch_bounds__" not in out["run.cuh"]
    assert "the calls of outer (" in capsys.readouterr().err


def test_a_file_including_a_header_of_the_same_name_by_an_include_path_blocks_it(tmp_path, capsys) -> None:
    out = _tree(tmp_path, {"lib/run.cuh": RUN_HEADER,
                           "lib/a.cu": '#include "run.cuh"\nvoid a(float *x) { run<128>(x, 4096); }\n',
                           "app/main.cu": '#include <run.cuh>\nint main() { float *x = 0; run<1024>(x, 4096); }\n'},
                "--no-rebalance")
    assert "__launch_bounds__" not in out["lib/run.cuh"]
    assert "includes 'run.cuh', which cu2hip does not resolve to" in capsys.readouterr().err


@pytest.mark.parametrize("header, use, bound", [
    (RUN_HEADER, "template void run<640>(float *, int);\n", 640),
    (RUN_HEADER.replace("template <int BS>", "template <int BS = 320>"), "void b(float *x) { run(x, 64); }\n", 320),
    (RUN_HEADER.replace("template <int BS>", "template <int BS = 320>"), "void b(float *x) { run<>(x, 64); }\n", 320),
])
def test_an_includers_explicit_instantiation_or_default_counts(tmp_path, header, use, bound) -> None:
    out = _tree(tmp_path, {"run.cuh": header, "b.cu": '#include "run.cuh"\n' + use,
                           "main.cu": '#include "run.cuh"\nint main() { float *x = 0; run<128>(x, 4096); }\n'},
                "--no-rebalance")
    assert f"__global__ void __launch_bounds__({bound}) scale(" in out["run.cuh"]


def test_another_header_of_the_same_name_that_a_file_reads_blocks_nothing(tmp_path) -> None:
    out = _tree(tmp_path, {"lib/run.cuh": RUN_HEADER,
                           "lib/main.cu": '#include "run.cuh"\nint main() { float *x = 0; run<256>(x, 4096); }\n',
                           "app/run.cuh": "#pragma once\nvoid other();\n",
                           "app/a.cu": '#include "run.cuh"\nvoid a() { other(); }\n'},
                "--no-rebalance")
    assert "__global__ void __launch_bounds__(256) scale(" in out["lib/run.cuh"]
