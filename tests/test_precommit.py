"""The real `pre-commit` tool runs both hooks of .pre-commit-hooks.yaml from a clone of
this repository, in a temporary git repository, as a team would use them."""

from __future__ import annotations

import os
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


def snapshot_of_this_repository(dest: Path) -> str:
    """This working tree (tracked and untracked files git does not ignore) committed in a
    repository of its own: pre-commit installs hooks from a revision."""
    files = git(ROOT, "ls-files", "-co", "--exclude-standard", "-z").split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "snapshot")
    return git(dest, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    hooks = tmp_path_factory.mktemp("cu2hip-hooks")
    rev = snapshot_of_this_repository(hooks)
    project = tmp_path_factory.mktemp("project")
    git(project, "init", "-q")
    (project / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n')
    (project / "src").mkdir()
    (project / "src" / "k.cu").write_text("#include <cuda_runtime.h>\nvoid f(float *p) { cudaFree(p); }\n")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n  - id: cu2hip\n  - id: cu2hip-lint\n")
    git(project, "add", "-A")
    return project


def pre_commit(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(project.parent / "pre-commit-home"),
           "PRE_COMMIT_COLOR": "never"}
    return subprocess.run([str(PRE_COMMIT), "run", *args], cwd=project, capture_output=True, text=True, env=env,
                          timeout=900)


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
