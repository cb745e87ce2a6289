"""Shared pytest configuration: the --update-goldens option and the repository root."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens", action="store_true", default=False,
        help="rewrite the expected .hip/.diag files of the golden fixtures from the current "
             "translation instead of comparing (review the diff before committing)")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def bench_reach():
    """bench/reach.py as a module (bench/ is not a package)."""
    import importlib.util
    path = Path(__file__).resolve().parent.parent / "bench" / "reach.py"
    spec = importlib.util.spec_from_file_location("bench_reach", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory):
    """The translation cache of the tests' runs (subprocesses included) is theirs alone."""
    import os
    os.environ["CU2HIP_CACHE_DIR"] = str(tmp_path_factory.mktemp("cu2hip-cache"))
    yield


@pytest.fixture(autouse=True)
def _no_user_rules_left():
    """User rules a test declared leave the catalog with it."""
    yield
    from translator.rules import forget
    forget()
