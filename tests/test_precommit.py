"""The real `pre-commit` tool runs both hooks of .pre-commit-hooks.yaml from a clone of
this repository, in a temporary git repository, as a team would use them: configured
with the README's snippet as written (its `repo:` placeholder given the clone's path;
`rev: main`, the clone's branch: the repository has no release tags), and pinned by
`pre-commit autoupdate` as the README says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

pytestmark = pytest.mark.skipif(shutil.which("git") is None or not PRE_COMMIT.exists(),
                                reason="needs git and pre-commit (pip install -e '.[test]')")

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def readme_snippet() -> str:
    """The .pre-commit-config.yaml of the README's Pre-commit section, as written."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## Pre-commit\n"):]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_readme_snippet_names_a_revision_of_this_repository() -> None:
    """The snippet's rev is a revision git finds here (a branch, with no release tag to
    name: `v0.1.0` named none)."""
    rev = re.search(r"^  rev: (\S+)$", readme_snippet(), re.M).group(1)
    found = [subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"], cwd=ROOT,
                            capture_output=True).returncode == 0 for name in (rev, f"origin/{rev}")]
    assert any(found), rev


def snapshot_of_this_repository(dest: Path) -> str:
    """This working tree (tracked and untracked files git does not ignore) committed on
    the branch `main` of a repository of its own, untagged, as this one is: pre-commit
    installs hooks from a revision."""
    files = git(ROOT, "ls-files", "-co", "--exclude-standard", "-z").split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "snapshot")
    return git(dest, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    hooks = tmp_path_factory.mktemp("cu2hip-hooks")
    snapshot_of_this_repository(hooks)
    project = tmp_path_factory.mktemp("project")
    git(project, "init", "-q")
    (project / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n')
    (project / "src").mkdir()
    (project / "src" / "k.cu").write_text("#include <cuda_runtime.h>\nvoid f(float *p) { cudaFree(p); }\n")
    snippet = readme_snippet()
    assert snippet.count("- repo: <the URL of this repository>\n") == 1, snippet
    (project / ".pre-commit-config.yaml").write_text(
        snippet.replace("- repo: <the URL of this repository>\n", f"- repo: {hooks}\n"))
    git(project, "add", "-A")
    return project


def pre_commit(project: Path, *args: str, command: str = "run") -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(project.parent / "pre-commit-home"),
           "PRE_COMMIT_COLOR": "never"}
    return subprocess.run([str(PRE_COMMIT), command, *args], cwd=project, capture_output=True, text=True, env=env,
                          timeout=900)


MUTABLE = "appears to be a mutable reference (moving tag / branch)"


def test_the_snippet_as_written_runs_and_autoupdate_pins_it_to_the_latest_commit(tmp_path: Path) -> None:
    """`rev: main` installs and runs the hooks, with pre-commit's warning; `pre-commit
    autoupdate` (no tag to find) writes the full SHA of the latest commit in its place,
    and the hooks run from it without the warning."""
    hooks = tmp_path / "cu2hip-hooks"
    hooks.mkdir()
    head = snapshot_of_this_repository(hooks)
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    (project / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n')
    (project / "k.cu").write_text("void f(float *p) { cudaFree(p); }\n")
    config = project / ".pre-commit-config.yaml"
    config.write_text(readme_snippet().replace("- repo: <the URL of this repository>\n", f"- repo: {hooks}\n"))
    git(project, "add", "-A")
    first = pre_commit(project, "--all-files")
    assert first.returncode == 1 and "Rewriting hip/k.cu\n" in first.stdout, first.stdout + first.stderr
    warning = f"[WARNING] The 'rev' field of repo '{hooks}' {MUTABLE}."
    assert warning in first.stdout
    update = pre_commit(project, command="autoupdate")
    assert update.returncode == 0, update.stdout + update.stderr
    assert update.stdout.splitlines()[-1] == f"[{hooks}] updating main -> {head}"
    assert config.read_text() == readme_snippet().replace("- repo: <the URL of this repository>\n",
                                                          f"- repo: {hooks}\n").replace("rev: main", f"rev: {head}")
    git(project, "add", "-A")
    pinned = pre_commit(project, "--all-files")
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    assert MUTABLE not in pinned.stdout + pinned.stderr


def test_hooks_regenerate_then_pass_then_catch_an_edit(project: Path) -> None:
    first = pre_commit(project, "--all-files")
    assert first.returncode == 1, first.stdout + first.stderr
    assert "Rewriting hip/src/k.cu\n" in first.stdout
    assert (project / "hip" / "src" / "k.cu").read_text() == \
        "#include <hip/hip_runtime.h>\nvoid f(float *p) { hipFree(p); }\n"
    git(project, "add", "-A")
    second = pre_commit(project, "--all-files")
    assert second.returncode == 0, second.stdout + second.stderr
    (project / "src" / "k.cu").write_text("#include <cuda_runtime.h>\nvoid f(float *p) { cudaFree(p); "
                                          "cudaDeviceSynchronize(); }\n")
    git(project, "add", "-A")
    third = pre_commit(project, "--all-files")
    assert third.returncode == 1 and "Rewriting" in third.stdout, third.stdout + third.stderr
    assert "hipDeviceSynchronize()" in (project / "hip" / "src" / "k.cu").read_text()


def test_lint_hook_fails_on_an_error_and_writes_nothing(project: Path) -> None:
    bad = project / "src" / "bad.cu"
    bad.write_text("void g(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n")
    git(project, "add", "-A")
    lint = pre_commit(project, "cu2hip-lint", "--files", "src/bad.cu")
    assert lint.returncode == 1
    assert "error: 'cudaArrayGetPlane' has no HIP equivalent [H010]" in lint.stdout
    assert not (project / "hip" / "src" / "bad.cu").exists()


def test_a_launch_changed_in_one_file_rewrites_the_header_kernel_it_bounds(project: Path) -> None:
    """A commit of a.cu alone, whose launch of kern.cuh's kernel grew from 128 to 1024
    threads: the lint hook names the header's stale translation and the command that
    rewrites it, and the regenerating hook rewrites it with the new bound."""
    shared = project / "shared"
    shared.mkdir()
    (shared / "kern.cuh").write_text(
        "#pragma once\n__global__ void kern(float *p, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    __shared__ float s[4];\n"
        "    if (i < n) { s[0] = p[i]; __syncthreads(); p[i] = s[0] * 2.0f; }\n}\n")
    (shared / "a.cu").write_text('#include "kern.cuh"\n'
                                 "void run_a(float *p, int n) { kern<<<(n + 127) / 128, 128>>>(p, n); }\n")
    (shared / "b.cu").write_text('#include "kern.cuh"\n'
                                 "void run_b(float *p, int n) { kern<<<(n + 511) / 512, 512>>>(p, n); }\n")
    files = ("--files", "shared/kern.cuh", "shared/a.cu", "shared/b.cu")
    git(project, "add", "-A")
    pre_commit(project, *files)
    git(project, "add", "-A")
    header = project / "hip" / "shared" / "kern.cuh"
    assert "__launch_bounds__(512) kern" in header.read_text()
    assert pre_commit(project, *files).returncode == 0
    (shared / "a.cu").write_text('#include "kern.cuh"\n'
                                 "void run_a(float *p, int n) { kern<<<(n + 1023) / 1024, 1024>>>(p, n); }\n")
    git(project, "add", "-A")
    lint = pre_commit(project, "cu2hip-lint", "--files", "shared/a.cu")
    assert lint.returncode == 1, lint.stdout
    assert "hip/shared/kern.cuh: stale: the translation of shared/kern.cuh differs" in lint.stdout
    assert "cu2hip: 2 translations out of date; run: cu2hip translate shared/a.cu shared/kern.cuh\n" in lint.stdout
    hook = pre_commit(project, "cu2hip", "--files", "shared/a.cu")
    assert hook.returncode == 1
    assert "Rewriting hip/shared/a.cu\n" in hook.stdout and "Rewriting hip/shared/kern.cuh\n" in hook.stdout
    assert "__launch_bounds__(1024) kern" in header.read_text()
    git(project, "add", "-A")
    assert pre_commit(project, "--files", "shared/a.cu").returncode == 0


def test_hooks_take_build_files(project: Path) -> None:
    """CMakeLists.txt and a Makefile are translated by the hook, and checked by the lint."""
    (project / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\n"
                                            "project(demo LANGUAGES CXX CUDA)\nadd_executable(demo src/k.cu)\n")
    (project / "Makefile").write_text("NVCC = nvcc\nk: src/k.cu\n\t$(NVCC) -O2 -o k src/k.cu\n")
    git(project, "add", "-A")
    lint = pre_commit(project, "cu2hip-lint", "--files", "CMakeLists.txt", "Makefile")
    assert lint.returncode == 1, lint.stdout
    assert "hip/CMakeLists.txt: missing" in lint.stdout and "hip/Makefile: missing" in lint.stdout
    hook = pre_commit(project, "cu2hip", "--files", "CMakeLists.txt", "Makefile")
    assert hook.returncode == 1, hook.stdout
    assert "Rewriting hip/CMakeLists.txt\n" in hook.stdout and "Rewriting hip/Makefile\n" in hook.stdout
    assert "project(demo LANGUAGES CXX HIP)" in (project / "hip" / "CMakeLists.txt").read_text()
    assert "NVCC = hipcc" in (project / "hip" / "Makefile").read_text()
    git(project, "add", "-A")
    assert pre_commit(project, "--files", "CMakeLists.txt", "Makefile").returncode == 0


def test_hook_types_take_every_file_cu2hip_translates() -> None:
    """pre-commit passes a hook the files whose identify tags meet its `types_or`: each
    suffix and build-file name the workspace translates must have one of them."""
    from identify import identify

    from translator.workspace import CUDA_SUFFIXES, CXX_SUFFIXES
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    kinds = [set(re.findall(r"[\w+]+", m)) for m in re.findall(r"types_or: \[(.*)\]", hooks)]
    assert len(kinds) == 2
    names = [f"x{s}" for s in sorted(CUDA_SUFFIXES | CXX_SUFFIXES)] + \
        ["CMakeLists.txt", "x.cmake", "Makefile", "makefile", "GNUmakefile", "x.mk"]
    for types in kinds:
        assert [n for n in names if not identify.tags_from_filename(n) & types] == []
