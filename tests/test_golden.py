"""Byte-exact golden fixtures: tests/passes/<ID>_<name>/<case>.cu -> <case>.hip + <case>.diag.
Build files too: `<case>.cmake` (CMake) and `<case>.mk` (Make) -> `<case>.cmake.hip`,
`<case>.mk.hip` + `<case>.diag`, their options on a first line `# cu2hip-options: ...`.

- `<case>.hip` is the expected translation; a missing `.hip` means "must be unchanged".
- `<case>.diag` lists every expected diagnostic, one `d.format()` per line, in the order
  the translator reports them (path shown as `<case>.cu`); missing or empty means none.
- Options come from an optional first line `// cu2hip-options: --rocm-version 6.2 --roc ...`
  (also `--target cuda` and `--no-fuse`)
  (default: --rocm-version 5.2, a fixed target so that goldens do not depend on the
  machine's hipcc); `--only PASS` runs one pass alone, `--select`/`--ignore IDS` filter codes.

`pytest --update-goldens` rewrites .hip/.diag from the current translation; review the
diff.
"""

from __future__ import annotations

import argparse
import difflib
import shlex
from pathlib import Path

import pytest

from translator.mapping import Version, parse_version
from translator.cli import add_pass_options
from translator.passes import pass_options, Options
from translator.pipeline import translate

GOLDEN_ROOT = Path(__file__).resolve().parent / "passes"
OPTIONS_PREFIX = b"// cu2hip-options:"
BUILD_OPTIONS_PREFIX = b"# cu2hip-options:"
# The suffixes of golden inputs: CUDA, and the build files (translator.buildfiles.build_kind).
CASE_SUFFIXES = (".cu", ".cmake", ".mk")
DEFAULT_ROCM_VERSION: Version = (5, 2)



def _version(text: str) -> Version:
    version = parse_version(text)
    if version is None:
        raise argparse.ArgumentTypeError("empty version")
    return version


def case_options(source: bytes) -> Options:
    """The Options a case asks for on its first line, else the defaults."""
    first_line = source.split(b"\n", 1)[0].rstrip(b"\r")
    words: list[str] = []
    for prefix in (OPTIONS_PREFIX, BUILD_OPTIONS_PREFIX):
        if first_line.startswith(prefix):
            words = shlex.split(first_line[len(prefix):].decode("utf-8"))
    parser = argparse.ArgumentParser(prog="cu2hip-options", add_help=False)
    parser.add_argument("--rocm-version", type=_version, default=DEFAULT_ROCM_VERSION)
    for flag in ("--roc", "--miopen", "--experimental", "--hip-kernel-execution-syntax", "--use-hip-data-types"):
        parser.add_argument(flag, action="store_true")
    parser.add_argument("--only", help="run this pass alone")
    parser.add_argument("--target", choices=("hip", "cuda"), default="hip")
    add_pass_options(parser, default_none=False)      # the passes' declared options (fuse, block size...)
    parser.add_argument("--offload-arch", type=lambda text: tuple(text.split(",")), default=("gfx90a",))
    for flag in ("--select", "--ignore"):
        parser.add_argument(flag, type=lambda text: tuple(text.split(",")), default=())
    args, unknown = parser.parse_known_args(words)
    if unknown:
        raise ValueError(f"unknown cu2hip-options: {unknown}")
    return Options(rocm_version=args.rocm_version, roc=args.roc, miopen=args.miopen,
                   experimental=args.experimental,
                   hip_kernel_execution_syntax=args.hip_kernel_execution_syntax,
                   use_hip_data_types=args.use_hip_data_types,
                   only=args.only, select=args.select, ignore=args.ignore, target=args.target,
                   offload_arch=args.offload_arch, **{o.field: getattr(args, o.field) for o in pass_options()})


def golden_cases() -> list[Path]:
    """Every `<case>.cu` (and build-file case) under tests/passes/<pass>/, sorted."""
    return sorted(p for suffix in CASE_SUFFIXES for p in GOLDEN_ROOT.glob(f"*/*{suffix}"))


def expected_paths(case: Path) -> tuple[Path, Path]:
    """A case's expected translation and diagnostics: x.cu -> x.hip; x.cmake -> x.cmake.hip."""
    hip = case.with_suffix(".hip") if case.suffix == ".cu" else case.with_name(case.name + ".hip")
    return hip, case.with_suffix(".diag")


def _params() -> list:
    cases = golden_cases()
    names = [c.stem for c in cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"golden case names must be unique across passes: {duplicates}")
    return [pytest.param(case, id=case.stem) for case in cases]


def _diff(expected: bytes, actual: bytes) -> str:
    lines = difflib.unified_diff(expected.decode("utf-8", "replace").splitlines(True),
                                 actual.decode("utf-8", "replace").splitlines(True),
                                 "expected", "actual")
    # repr() shows CR, tabs and other invisible bytes; each line's own LF is the separator.
    return "".join(repr(line[:-1] if line.endswith("\n") else line)[1:-1] + "\n" for line in lines)


def _update(case: Path, source: bytes, output: bytes, diagnostics: list[str]) -> None:
    hip, diag = expected_paths(case)
    if output != source:
        hip.write_bytes(output)
    elif hip.exists():
        hip.unlink()
    if diagnostics:
        diag.write_bytes("".join(d + "\n" for d in diagnostics).encode("utf-8"))
    elif diag.exists():
        diag.unlink()


@pytest.mark.parametrize("case", _params())
def test_golden(case: Path, request: pytest.FixtureRequest) -> None:
    source = case.read_bytes()
    result = translate(case.name, source, case_options(source))
    diagnostics = [d.format() for d in result.diagnostics]
    if request.config.getoption("--update-goldens"):
        _update(case, source, result.output, diagnostics)
        return
    hip, diag = expected_paths(case)
    expected = hip.read_bytes() if hip.exists() else source
    assert result.output == expected, "translation differs from " + \
        (hip.name if hip.exists() else "the input (expected unchanged)") + ":\n" + _diff(expected, result.output)
    expected_diagnostics = diag.read_text(encoding="utf-8").splitlines() if diag.exists() else []
    assert diagnostics == expected_diagnostics


def test_every_expectation_has_a_case() -> None:
    """A .hip or .diag with no case beside it is a leftover from a renamed case."""
    expected = {p for case in golden_cases() for p in expected_paths(case)}
    orphans = [p.name for p in sorted(GOLDEN_ROOT.glob("*/*"))
               if p.suffix in (".hip", ".diag") and p not in expected]
    assert orphans == []


def test_case_options_parsing() -> None:
    assert case_options(b"int x;\n") == Options(rocm_version=(5, 2))
    assert case_options(b"// cu2hip-options: --rocm-version 6.2 --roc --miopen --experimental "
                        b"--hip-kernel-execution-syntax\r\nint x;\r\n") == Options(
        rocm_version=(6, 2), roc=True, miopen=True, experimental=True, hip_kernel_execution_syntax=True)
    assert case_options(b"// cu2hip-options: --only hipify --select H0,P --ignore H012\n") == Options(
        rocm_version=(5, 2), only="hipify", select=("H0", "P"), ignore=("H012",))
    with pytest.raises(ValueError, match="--bogus"):
        case_options(b"// cu2hip-options: --bogus\n")
