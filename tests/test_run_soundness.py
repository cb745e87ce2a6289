"""scripts/run_soundness.py, the GPU run of the soundness programs: which cases are programs,
what a folder case is built from, and that a folder case is translated as a tree, its
local headers with it (checked with a stand-in for nvcc that needs no CUDA: it fails where
a source's local include is missing beside it, as nvcc would)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "soundness"
_spec = importlib.util.spec_from_file_location("cu2hip_run_soundness", ROOT / "scripts" / "run_soundness.py")
runner = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = runner
_spec.loader.exec_module(runner)

# nvcc as far as these tests need it: `-o BINARY SOURCE...`; every `#include "x"` of a source
# (and of the headers it includes) must be found beside the file that includes it.
_FAKE_NVCC = r'''#!{python}
import re, sys
from pathlib import Path
args = sys.argv[1:]
out = Path(args[args.index("-o") + 1])
sources = [Path(a) for a in args if a.endswith((".cu", ".cpp"))]
Path(str(out) + ".sources").write_text("\n".join(map(str, sources)))
todo = list(sources)
while todo:
    f = todo.pop()
    for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', f.read_text(), re.M):
        target = f.parent / name
        if not target.is_file():
            sys.exit(f"{{f}}: {{name}}: No such file or directory")
        todo.append(target)
out.write_text("")
'''


def test_the_folder_cases_that_are_programs_are_found_and_a_file_of_one_names_its_folder():
    found = runner.programs([])
    folders = {p.relative_to(CASES).as_posix() for p in found if p.is_dir()}
    assert {"preprocessor/header_several_definitions", "templates/header_template_called_by_includer",
            "launch_universe/header_kernel_launched_only_in_own_file"} <= folders, folders
    # A folder with no main or several (two programs in one tree) is no program.
    assert "launch_universe/same_name_other_program" not in folders
    named = runner.programs([str(CASES / "templates/header_template_called_by_includer/main.cu"),
                             str(CASES / "templates/header_template_called_by_includer")])
    assert named == [CASES / "templates/header_template_called_by_includer"]


def test_a_folder_case_is_built_from_its_sources_that_no_file_includes():
    units = runner.translation_units
    assert units(CASES / "launch_universe/header_kernel_launched_only_in_own_file") == [Path("kern.cu"), Path("main.cu")]
    assert units(CASES / "templates/included_cu_template_called_by_includer") == [Path("main.cu")]
    assert runner.case_options(CASES / "templates/header_template_called_by_includer") == \
        ["--no-rebalance", "--target", "cuda"]


def test_a_folder_case_is_translated_as_a_tree_and_built_with_its_headers(tmp_path):
    nvcc = tmp_path / "nvcc"
    nvcc.write_text(_FAKE_NVCC.format(python=sys.executable))
    nvcc.chmod(0o755)
    case = CASES / "templates/header_template_called_by_includer"
    result = runner.check(case, tmp_path / "work", "sm_90", True, str(nvcc))
    assert (result["original"], result["translated"]) == ("built", "built"), result
    assert result["kind"] == "must-apply" and result["units"] == ["main.cu"]
    out = tmp_path / "work" / "templates__header_template_called_by_includer"
    built = (out / "translated.bin.sources").read_text().split("\n")
    assert built == [str(out / "translated" / "main.cu")]
    # The header beside it is the tree's translation; the expectations are no part of the tree.
    assert (out / "translated" / "launch.cuh").is_file() and not (out / "translated" / "expect.txt").exists()
    # Translated as a tree: the header's bound is over its includer's calls too (launch<1024>).
    assert b"__launch_bounds__(1024)" in (out / "translated" / "launch.cuh").read_bytes()
