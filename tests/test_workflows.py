"""The workflows around translation: --select/--ignore, suppression comments, --only,
configuration, globs, the workspace's kernel index, the cache and the JSON report,
`cu2hip check` and `cu2hip diff`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from translator.cli import main
from translator.passes import Options
from translator.pipeline import translate
from translator.rules import forget
from translator.workspace import Selection, Workspace

ROCM = ["--rocm-version", "6.0"]
OPTIONS = Options(rocm_version=(6, 0))
DEPRECATED = b"void f() { cudaThreadSynchronize(); cudaFree(0); }\n"


def diags(result) -> list[str]:
    return [d.format() for d in result.diagnostics]


# --- --select / --ignore -------------------------------------------------------------------

def test_ignore_drops_diagnostics_and_edits_of_the_codes() -> None:
    both = translate("d.cu", DEPRECATED, OPTIONS)
    assert [d.code for d in both.diagnostics] == ["H012"]
    quiet = translate("d.cu", DEPRECATED, Options(rocm_version=(6, 0), ignore=("H012",)))
    assert quiet.output == both.output and diags(quiet) == []
    no_renames = translate("d.cu", DEPRECATED, Options(rocm_version=(6, 0), ignore=("H001",)))
    # No rename: nothing asks for the runtime header either; the deprecation is still said.
    assert no_renames.output == DEPRECATED
    assert [d.code for d in no_renames.diagnostics] == ["H012"]


def test_select_keeps_only_the_codes_by_prefix() -> None:
    only_headers = translate("d.cu", b"#include <cuda_runtime.h>\n" + DEPRECATED,
                             Options(rocm_version=(6, 0), select=("H00",), ignore=("H001",)))
    assert only_headers.output == b"#include <hip/hip_runtime.h>\n" + DEPRECATED
    assert diags(only_headers) == []


def test_select_and_ignore_on_the_command_line(tmp_path: Path, capsys) -> None:
    f = tmp_path / "d.cu"
    f.write_bytes(DEPRECATED)
    assert main(["translate", str(f), "--stdout", "-q", "--ignore", "H012,H002", *ROCM]) == 0
    captured = capsys.readouterr()
    assert captured.out == "void f() { hipDeviceSynchronize(); hipFree(0); }\n" and captured.err == ""
    assert main(["translate", str(f), "--stdout", "--select", "Q1", *ROCM]) == 2
    assert "--select: 'Q1' matches no rule" in capsys.readouterr().err


# --- suppression comments ------------------------------------------------------------------

def test_suppression_on_the_line_silences_the_diagnostic_and_keeps_the_edit() -> None:
    source = b"void f() {\n  cudaThreadSynchronize();  // cu2hip: ignore[H012]\n}\n"
    result = translate("s.cu", source, OPTIONS)
    assert b"hipDeviceSynchronize();  // cu2hip: ignore[H012]" in result.output
    assert diags(result) == []


def test_suppression_on_the_line_before_stops_the_edit() -> None:
    source = b"void f() {\n  // cu2hip: ignore[H001]\n  cudaFree(0);\n  cudaFree(0);\n}\n"
    result = translate("s.cu", source, OPTIONS)
    assert result.output == b"#include <hip/hip_runtime.h>\n" \
                            b"void f() {\n  // cu2hip: ignore[H001]\n  cudaFree(0);\n  hipFree(0);\n}\n"


def test_file_suppression_with_a_prefix() -> None:
    source = b"/* cu2hip: ignore-file[H01] */\nvoid f() { cudaThreadSynchronize(); }\nvoid g() { cudaProfilerStart(); }\n"
    result = translate("s.cu", source, OPTIONS)
    assert diags(result) == []
    assert b"hipDeviceSynchronize()" in result.output


def test_unused_suppressions_get_a_note() -> None:
    source = b"int x;  // cu2hip: ignore[H012]\nint y;\n// cu2hip: ignore-file[P001, H010]\n"
    result = translate("s.cu", source, OPTIONS)
    assert result.output == source
    assert diags(result) == [
        "s.cu:1:9: note: unused suppression 'ignore[H012]': nothing it names was reported or edited here [S001]",
        "s.cu:3:1: note: unused suppression 'ignore-file[P001, H010]': nothing it names was reported or edited "
        "here [S001]"]
    assert diags(translate("s.cu", source, Options(rocm_version=(6, 0), ignore=("S001",)))) == []


def test_a_suppression_in_a_string_is_not_one() -> None:
    source = b'const char *s = "// cu2hip: ignore[H001]"; void f() { cudaFree(0); }\n'
    assert b"hipFree(0)" in translate("s.cu", source, OPTIONS).output


# --- --only ---------------------------------------------------------------------------------

def test_only_runs_one_pass(tmp_path: Path, capsys) -> None:
    f = tmp_path / "o.cu"
    f.write_bytes(b"void f() { cudaFree(0); }\n")
    assert main(["translate", str(f), "--stdout", "-q", "--only", "hipify", *ROCM]) == 0
    assert capsys.readouterr().out == "#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n"
    assert main(["translate", str(f), "--stdout", "-q", "--only", "nonesuch", *ROCM]) == 2
    assert "--only: no pass 'nonesuch' (passes: " in capsys.readouterr().err


# --- configuration ----------------------------------------------------------------------------

def test_configuration_sets_target_and_output(tmp_path: Path, capsys) -> None:
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.2"\n'
                                            'select = ["H"]\n')
    (project / "src" / "k.cu").write_bytes(b"__device__ int f(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n")
    assert main(["translate", str(project / "src" / "k.cu")]) == 0
    written = project / "hip" / "src" / "k.cu"       # mirrored from the configuration's folder
    assert written.read_bytes() == b"#include <hip/hip_runtime.h>\n__device__ int f(int v) { return " \
                                   b"__shfl_xor_sync(__activemask(), v, 1); }\n"
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith(f"; target ROCm 6.2 (from {project / 'pyproject.toml'})")
    # A flag wins over the configuration.
    assert main(["translate", str(project / "src" / "k.cu"), "--stdout", "--rocm-version", "5.2"]) == 0
    assert "__shfl_xor(v, 1)" in capsys.readouterr().out


def test_a_bad_configuration_is_a_located_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "cu2hip.toml").write_text('rocm-version = "6.2"\n\njobz = 2\n')
    (tmp_path / "k.cu").write_bytes(b"int x;\n")
    assert main(["translate", str(tmp_path / "k.cu"), "--stdout"]) == 2
    assert capsys.readouterr().err == \
        f"{tmp_path / 'cu2hip.toml'}:3:1: error: unknown key 'jobz' in cu2hip.toml; did you mean 'jobs'?\n"


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "third_party").mkdir(parents=True)
    (src / "a.cu").write_bytes(b"void a() { cudaFree(0); }\n")
    (src / "third_party" / "b.cu").write_bytes(b"void b() { cudaFree(0); }\n")
    out = tmp_path / "out"
    assert main(["translate", str(src), "-o", str(out), "-q", "--exclude", "third_party/", *ROCM]) == 0
    assert b"hipFree" in (out / "a.cu").read_bytes()
    assert (out / "third_party" / "b.cu").read_bytes() == b"void b() { cudaFree(0); }\n"   # copied as it is
    out2 = tmp_path / "out2"
    assert main(["translate", str(src), "-o", str(out2), "-q", "--include", "**/b.cu", "--only-translated",
                 *ROCM]) == 0
    assert sorted(p.name for p in out2.rglob("*") if p.is_file()) == ["b.cu"]


# --- workspace ---------------------------------------------------------------------------------

def test_several_inputs_mirror_from_their_common_parent(tmp_path: Path) -> None:
    for sub in ("x", "y"):
        (tmp_path / "p" / sub).mkdir(parents=True)
        (tmp_path / "p" / sub / "k.cu").write_bytes(b"int k;\n")
    out = tmp_path / "out"
    assert main(["translate", str(tmp_path / "p" / "x"), str(tmp_path / "p" / "y" / "k.cu"), "-o", str(out),
                 "-q", *ROCM]) == 0
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.cu")) == ["x/k.cu", "y/k.cu"]


# --- cache and report --------------------------------------------------------------------------

def test_an_unchanged_tree_is_answered_from_the_cache(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.cu").write_bytes(b"void a() { cudaFree(0); }\n")
    (tmp_path / "b.cu").write_bytes(b"void b() { cudaFree(0); }\n")
    first = main(["translate", str(tmp_path), "--examine", "--rocm-version", "6.1"])
    assert first == 0 and " cached" not in capsys.readouterr().err
    assert main(["translate", str(tmp_path), "--examine", "--rocm-version", "6.1"]) == 0
    assert ", 2 cached;" in capsys.readouterr().err
    (tmp_path / "b.cu").write_bytes(b"void b() { cudaMalloc(0, 4); }\n")
    assert main(["translate", str(tmp_path), "--examine", "--rocm-version", "6.1"]) == 0
    assert ", 1 cached;" in capsys.readouterr().err
    assert main(["translate", str(tmp_path), "--examine", "--rocm-version", "6.1", "--roc"]) == 0
    assert " cached" not in capsys.readouterr().err          # other options: other keys
    assert main(["translate", str(tmp_path), "--examine", "--rocm-version", "6.1", "--no-cache"]) == 0
    assert " cached" not in capsys.readouterr().err


def test_report_lists_every_file_with_its_edits_and_diagnostics(tmp_path: Path) -> None:
    f = tmp_path / "d.cu"
    f.write_bytes(DEPRECATED)
    report = tmp_path / "report.json"
    assert main(["translate", str(f), "--examine", "-q", "--report", str(report), *ROCM]) == 0
    data = json.loads(report.read_text())
    [entry] = data["files"]
    assert entry["path"] == str(f) and entry["changed"] is True
    assert [(e["rule"], e["original"], e["replacement"]) for e in entry["edits"]] == [
        ("H002", "", "#include <hip/hip_runtime.h>\n"),
        ("H001", "cudaThreadSynchronize", "hipDeviceSynchronize"), ("H001", "cudaFree", "hipFree")]
    assert [d["code"] for d in entry["diagnostics"]] == ["H012"]
    assert data["summary"]["edits"] == 3


# --- check ---------------------------------------------------------------------------------------

def test_check_fails_on_errors_and_stale_translations(tmp_path: Path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\nrocm-version = "6.0"\n')
    good = tmp_path / "good.cu"
    good.write_bytes(b"void f() { cudaFree(0); }\n")
    assert main(["check", str(good)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'hip' / 'good.cu'}: missing: the translation of {good} differs" in err
    assert f"run: cu2hip translate {good}" in err
    assert main(["translate", str(good), "-q"]) == 0
    assert main(["check", str(good)]) == 0
    good.write_bytes(b"void f() { cudaFree(0); cudaFree(0); }\n")
    assert main(["check", str(good)]) == 1
    assert ": stale: " in capsys.readouterr().err
    bad = tmp_path / "bad.cu"
    bad.write_bytes(b"void f(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n")
    assert main(["check", str(bad), "--output", str(tmp_path / "elsewhere"), "--select", "H010"]) == 1
    assert "error: 'cudaArrayGetPlane' has no HIP equivalent [H010]" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere").exists()               # check writes nothing


# --- diff -----------------------------------------------------------------------------------------

def test_diff_annotates_each_hunk_with_its_rules(tmp_path: Path, capsys) -> None:
    f = tmp_path / "d.cu"
    f.write_bytes(b"int a;\nvoid f() { cudaFree(0); }\n")
    assert main(["diff", str(f), *ROCM]) == 0
    name = str(f).lstrip("/")               # outside the current folder: from the root, as git writes it
    assert capsys.readouterr().out == (
        f"--- a/{name}\n+++ b/{name}\n"
        "@@ -1,2 +1,3 @@\n"
        "# H002 HIP code needs hip/hip_runtime.h (HIPIFY inserts it)\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        "+#include <hip/hip_runtime.h>\n"
        " int a;\n"
        "-void f() { cudaFree(0); }\n"
        "+void f() { hipFree(0); }\n")


def test_diff_against_an_existing_tree_shows_what_regeneration_changes(tmp_path: Path, capsys) -> None:
    src, out = tmp_path / "src", tmp_path / "hip"
    src.mkdir()
    (src / "d.cu").write_bytes(b"void f() { cudaFree(0); }\n")
    assert main(["translate", str(src), "-o", str(out), "-q", *ROCM]) == 0
    assert main(["diff", str(src), "--against", str(out), *ROCM]) == 0
    assert capsys.readouterr().out == ""
    (src / "d.cu").write_bytes(b"void f() { cudaFree(0); cudaMalloc(0, 1); }\n")
    assert main(["diff", str(src), "--against", str(out), *ROCM]) == 0
    text = capsys.readouterr().out
    assert "-void f() { hipFree(0); }\n+void f() { hipFree(0); hipMalloc(0, 1); }\n" in text
    assert "# H001 cudaMalloc -> hipMalloc (runtime API)\n" in text


def test_diff_formats(tmp_path: Path, capsys) -> None:
    f = tmp_path / "d.cu"
    f.write_bytes(DEPRECATED)
    assert main(["diff", str(f), "--format", "json", *ROCM]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tool"]["name"] == "cu2hip" and len(data["files"][0]["edits"]) == 3
    assert main(["diff", str(f), "--format", "sarif", *ROCM]) == 0
    sarif = json.loads(capsys.readouterr().out)
    run = sarif["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"H001", "H012", "P001", "S001"}
    # The two plain renames of H001 are one result (with both regions).
    assert sorted(r["ruleId"] for r in run["results"]) == ["H001", "H002", "H012"]
    from test_output import sarif_schema
    import jsonschema
    jsonschema.Draft7Validator(sarif_schema()).validate(sarif)      # the whole catalog and real results
    assert main(["diff", str(f), "--format", "markdown", *ROCM]) == 0
    assert "<details><summary>" in capsys.readouterr().out
    assert main(["diff", str(f), "--color", "always", *ROCM]) == 0
    assert "\x1b[" in capsys.readouterr().out
    assert main(["diff", str(f), *ROCM]) == 0
    assert "\x1b[" not in capsys.readouterr().out      # not a terminal: no colour


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_diff_output_does_not_depend_on_jobs(tmp_path: Path, capsys, jobs: str) -> None:
    for i in range(5):
        (tmp_path / f"f{i}.cu").write_bytes(b"void f() { cudaFree(0); }\n" * (i + 1))
    assert main(["diff", str(tmp_path), "-j", jobs, "--no-cache", *ROCM]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("---")] == \
        [f"--- a/{str(tmp_path / f'f{i}.cu').lstrip('/')}" for i in range(5)]


# --- user rules from the command line and the configuration -----------------------------------

RULES_TEXT = 'rename CUDA_CHECK -> HIP_CHECK  because "our error macro"\ncall myCopy(d, s, n) -> hipMemcpy(d, s, n, hipMemcpyDefault)\n'


def test_user_rules_translate_show_in_diffs_and_invalidate_the_cache(tmp_path: Path, capsys) -> None:
    rules = tmp_path / "team.rules"
    rules.write_text(RULES_TEXT)
    f = tmp_path / "k.cu"
    f.write_bytes(b"void f(float *a, float *b) { CUDA_CHECK(cudaFree(a)); myCopy(a, b, 4); }\n")
    assert main(["translate", str(f), "--stdout", "-q", "--rules", str(rules), *ROCM]) == 0
    assert capsys.readouterr().out == "#include <hip/hip_runtime.h>\nvoid f(float *a, float *b) { " \
                                      "HIP_CHECK(hipFree(a)); hipMemcpy(a, b, 4, hipMemcpyDefault); }\n"
    assert main(["diff", str(f), "--rules", str(rules), *ROCM]) == 0
    assert f"# U001 CUDA_CHECK -> HIP_CHECK (user rule U001, {rules}:1)\n" in capsys.readouterr().out
    forget()
    assert main(["rules", "U001", "--rules", str(rules)]) == 0      # explained like any rule
    assert "rename CUDA_CHECK -> HIP_CHECK" in capsys.readouterr().out
    rules.write_text("rename CUDA_CHECK -> CHECK_HIP\n")
    assert main(["translate", str(f), "--stdout", "--rules", str(rules), *ROCM]) == 0
    captured = capsys.readouterr()
    assert "CHECK_HIP(hipFree(a))" in captured.out and " cached" not in captured.err


def test_rules_from_the_configuration_and_a_bad_rules_file(tmp_path: Path, capsys) -> None:
    (tmp_path / "cu2hip.toml").write_text('rules = ["team.rules"]\nrocm-version = "6.0"\n')
    (tmp_path / "team.rules").write_text(RULES_TEXT)
    f = tmp_path / "k.cu"
    f.write_bytes(b"void f(float *a) { CUDA_CHECK(cudaFree(a)); }\n")
    assert main(["translate", str(f), "--stdout", "-q"]) == 0
    assert "HIP_CHECK(hipFree(a))" in capsys.readouterr().out
    (tmp_path / "team.rules").write_text("rename A -> B\nrename C ->\n")
    assert main(["translate", str(f), "--stdout", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'team.rules'}:2:") and ": error: " in err


def test_diff_as_a_patch_applies_with_git(tmp_path: Path, capsys, monkeypatch) -> None:
    import subprocess
    src = tmp_path / "src"
    src.mkdir()
    (src / "d.cu").write_bytes(b"int a;\nvoid f() { cudaFree(0); }\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "src/d.cu", "--format", "patch", *ROCM]) == 0
    patch = capsys.readouterr().out
    assert "# H001" not in patch
    (tmp_path / "p.diff").write_text(patch)
    subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, check=True)
    assert (src / "d.cu").read_bytes() == b"#include <hip/hip_runtime.h>\nint a;\nvoid f() { hipFree(0); }\n"


@pytest.mark.parametrize("tool", [["git", "apply"], ["patch", "-p1", "-s", "-i"]])
def test_a_patch_of_an_absolute_path_applies_from_the_folder_it_was_made_in(tmp_path: Path, capsys, monkeypatch,
                                                                               tool) -> None:
    """`cu2hip diff /abs/src/d.cu` wrote `--- a//abs/src/d.cu`, which neither tool takes (git
    apply: an invalid path; patch -p1: an absolute name). Under the current folder the
    header is the path from it, as for a relative argument."""
    import shutil
    import subprocess
    if shutil.which(tool[0]) is None:
        pytest.skip(f"{tool[0]} is not installed")
    src = tmp_path / "src"
    src.mkdir()
    (src / "d.cu").write_bytes(b"int a;\nvoid f() { cudaFree(0); }\n")
    monkeypatch.chdir(tmp_path)
    assert main(["diff", str(src / "d.cu"), "--format", "patch", *ROCM]) == 0
    patch = capsys.readouterr().out
    assert patch.startswith("--- a/src/d.cu\n+++ b/src/d.cu\n")
    (tmp_path / "p.diff").write_text(patch)
    subprocess.run([*tool, "p.diff"], cwd=tmp_path, check=True)
    assert (src / "d.cu").read_bytes() == b"#include <hip/hip_runtime.h>\nint a;\nvoid f() { hipFree(0); }\n"


def test_a_patch_of_a_path_outside_the_folder_names_it_from_the_root_as_git_does(tmp_path: Path, capsys,
                                                                                  monkeypatch) -> None:
    """A file outside the current folder: `..` would take neither tool; git diff writes an
    absolute path without its leading `/` (`a/abs/src/d.cu`), which applies from `/`."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "d.cu").write_bytes(b"void f() { cudaFree(0); }\n")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main(["diff", str(src / "d.cu"), "--format", "patch", *ROCM]) == 0
    name = str(src / "d.cu").lstrip("/")
    assert capsys.readouterr().out.startswith(f"--- a/{name}\n+++ b/{name}\n")


# --- the ROCm target -------------------------------------------------------------------------------

@pytest.mark.parametrize("given, message", [
    ("", "--rocm-version: empty"),
    ("6.x", "--rocm-version: not a version: '6.x'"),
    ("0.9", "--rocm-version: '0.9' is not a ROCm release cu2hip knows (1.0 to 7.0)"),
    ("7.1", "--rocm-version: '7.1' is not a ROCm release cu2hip knows (1.0 to 7.0)"),
    ("6.2.0.1", "--rocm-version: '6.2.0.1' is not a ROCm release cu2hip knows (1.0 to 7.0)"),
])
def test_a_bad_target_version_is_a_usage_error(tmp_path: Path, capsys, given: str, message: str) -> None:
    f = tmp_path / "k.cu"
    f.write_bytes(b"int x;\n")
    assert main(["translate", str(f), "--stdout", "--rocm-version", given]) == 2
    assert capsys.readouterr().err == f"cu2hip: error: {message}\n"


def test_without_hipcc_the_target_is_the_newest_the_tables_know(tmp_path: Path, capsys, monkeypatch) -> None:
    import translator.settings
    monkeypatch.setattr(translator.settings, "installed_hip_version", lambda: None)
    f = tmp_path / "k.cu"
    f.write_bytes(b"void f() { cudaGraphAddNode(0, 0, 0, 0, 0); }\n")      # HIP 6.2
    assert main(["translate", str(f), "--stdout"]) == 0
    captured = capsys.readouterr()
    assert "hipGraphAddNode" in captured.out
    assert captured.err.splitlines()[-1].endswith("; target ROCm 6.3.0 (the newest the tables know: no hipcc found)")
    monkeypatch.setattr(translator.settings, "installed_hip_version", lambda: (7, 2))
    assert main(["translate", str(f), "--stdout"]) == 0
    assert capsys.readouterr().err.splitlines()[-1].endswith(
        "; target ROCm 7.0 (the installed hipcc is 7.2, newer than any release cu2hip knows)")


def test_hipify_option_for_excluded_blocks_is_accepted(tmp_path: Path, capsys) -> None:
    f = tmp_path / "k.cu"
    f.write_bytes(b"#if 0\nvoid f() { cudaFree(0); }\n#endif\n")
    assert main(["translate", str(f), "--stdout", "-q", "--skip-excluded-preprocessor-conditional-blocks",
                 *ROCM]) == 0
    assert "hipFree(0)" in capsys.readouterr().out        # every branch is translated all the same


def test_cuda_shaped_names_the_tree_declares_are_not_unknown(tmp_path: Path, capsys) -> None:
    (tmp_path / "util.h").write_bytes(b"#pragma once\n#define CUDA_CHECK(x) x\ninline void cudaSync() {\n}\n")
    (tmp_path / "k.cu").write_bytes(b'#include "util.h"\nvoid f() { CUDA_CHECK(cudaFree(0)); cudaSync(); cudaNope(); }\n')
    assert main(["translate", str(tmp_path), "--examine", "-q", "--no-cache", *ROCM]) == 0
    assert [line for line in capsys.readouterr().err.splitlines() if "[H019]" in line] == [
        f"{tmp_path / 'k.cu'}:2:49: warning: 'cudaNope' looks like a CUDA API but is in no mapping table; left as it "
        "is [H019]"]


def test_a_repeated_run_is_replayed_until_an_input_or_an_output_changes(tmp_path: Path, capsys) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "a.cu").write_bytes(b"void a() { cudaThreadSynchronize(); }\n")
    assert main(["translate", str(src), "-o", str(out), *ROCM]) == 0
    first = capsys.readouterr().err
    assert main(["translate", str(src), "-o", str(out), *ROCM]) == 0
    replayed = capsys.readouterr().err
    # The same diagnostics; the summary says the cache answered for every file.
    assert replayed.splitlines()[:-1] == first.splitlines()[:-1]
    assert replayed.splitlines()[-1] == first.splitlines()[-1].replace(" warnings;", " warnings, 1 cached;")
    (out / "a.cu").write_bytes(b"edited by hand\n")          # an output changed: the run is done again
    assert main(["translate", str(src), "-o", str(out), "-q", *ROCM]) == 0
    assert (out / "a.cu").read_bytes() == b"#include <hip/hip_runtime.h>\nvoid a() { hipDeviceSynchronize(); }\n"
