"""The rule catalog: every code declared once, explained with an example that really
produces it, documented from one source, and known by name only inside its pass."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_golden import case_options
from translator.catalog import catalog, check_selectors, enabled
from translator.cli import main
from translator.passes import all_passes
from translator.pipeline import translate

ROOT = Path(__file__).resolve().parent.parent
RULES = catalog()
# Rules whose example cannot be a snippet translated alone: the tests that produce them.
PRODUCED_BY = {
    "H011": "test_hipify.py::test_a_name_removed_in_the_target_is_kept_with_an_error",
    "I001": "test_bad_input.py::test_nonexistent_path",
    "L003": "test_launch_bounds.py::test_a_tree_bounds_a_header_kernel_by_every_file_and_says_which_kernels_no_file_launches",
    "I003": "test_bad_input.py::test_invalid_utf8_warning_position_and_bytes_kept",
    "I004": "test_bad_input.py::test_file_over_the_limit",
    "I005": "test_bad_input.py::test_in_place_write_failure_is_a_diagnostic",
    "I006": "test_bad_input.py::test_in_place_leaves_a_link_out_of_the_tree",
    "I007": "test_cli.py::test_output_tree_skips_fifos_with_a_warning",
    "I008": "test_reliability_io.py::test_two_files_for_one_output_path_are_an_error_and_neither_is_written",
    "I009": "test_reliability_io.py::test_a_file_outside_the_configured_folder_is_a_diagnostic",
    "I010": "test_escapes.py::test_a_link_to_a_folder_is_mirrored_as_a_link_or_reported",
    "I030": "test_ignore.py::test_a_pattern_that_matches_nothing_is_reported",
    "I031": "test_ignore.py::test_a_gitignore_that_is_a_symbolic_link_is_not_followed",
    "I032": "test_ignore.py::test_a_named_folder_that_a_gitignore_above_ignores_is_reported_at_the_pattern",
    "P003": "test_hipify.py::test_an_edit_that_breaks_the_parse_is_an_internal_error",
    "P004": "test_hipify.py::test_overlapping_fixes_give_p004",
    "P005": "test_catalog.py::test_passes_that_never_settle_are_an_internal_error",
}


@pytest.mark.parametrize("rule", [r for r in RULES.values() if r.example], ids=lambda r: r.id)
def test_example_gives_its_translation_and_its_code(rule) -> None:
    options = case_options(("// cu2hip-options: " + " ".join(rule.options) + "\n").encode())
    result = translate(rule.example_path or "example.cu", rule.example.encode("utf-8", "surrogateescape"), options)
    assert result.output.decode("utf-8", "surrogateescape") == rule.translation
    produced = {d.code for d in result.diagnostics} | {f.rule for f in result.applied}
    assert rule.id in produced


def test_every_rule_has_an_example_or_a_test_that_produces_it() -> None:
    assert sorted(r for r in RULES if not RULES[r].example) == sorted(PRODUCED_BY)
    for code, where in PRODUCED_BY.items():
        module, name = where.split("::")
        text = (ROOT / "tests" / module).read_text(encoding="utf-8")
        body = text.split(f"def {name}(", 1)
        assert len(body) == 2, f"{where} does not exist"
        assert code in body[1].split("\ndef ", 1)[0], f"{where} does not check {code}"


def test_passes_declare_exactly_the_catalog_codes_outside_the_common_families() -> None:
    declared = [code for p in all_passes().values() for code in p.rules]
    assert len(declared) == len(set(declared)), "a code belongs to one pass"
    assert set(declared) <= set(RULES)
    assert set(RULES) - set(declared) == {c for c in RULES if c[0] in "IPS"}


def test_generated_docs_are_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_rules_doc.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_module_outside_the_passes_names_a_pass_or_its_codes() -> None:
    passes = all_passes()
    pass_codes = {c for p in passes.values() for c in p.rules}
    offenders = []
    for path in sorted((ROOT / "translator").rglob("*.py")):
        if "passes" in path.relative_to(ROOT / "translator").parts:
            continue
        text = path.read_text(encoding="utf-8")
        for code in pass_codes:
            if re.search(rf"\b{code}\b", text):
                offenders.append(f"{path.name}: {code}")
        # translator.options declares the passes' options by pass id, as data that
        # register_pass checks each pass against (a cached run reads it without the passes).
        for name in passes if path.name != "options.py" else ():
            if re.search(rf"[\"'.]{re.escape(name)}\b", text):
                offenders.append(f"{path.name}: {name}")
    assert offenders == []


def test_enabled_prefers_the_more_specific_selector() -> None:
    assert enabled("H012")
    assert not enabled("H012", select=("P",))
    assert enabled("H012", select=("H",), ignore=("H01",)) is False
    assert enabled("H012", select=("H012",), ignore=("H",))
    assert enabled("H003", select=("H",), ignore=("H01",))
    assert not enabled("H012", ignore=("ALL",))
    assert not enabled("H012", select=("H012",), ignore=("H012",))      # a tie: ignore wins
    with pytest.raises(ValueError, match="--select: 'Z9' matches no rule"):
        check_selectors(("H", "Z9"), "--select")


def test_rules_command_lists_and_explains(capsys) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split() == ["id", "name", "severity", "edit", "summary"]
    assert len(listing) == len(RULES) + 1
    assert next(r.split() for r in listing if r.startswith("H004"))[:4] == ["H004", "hip-symbol", "note", "safe"]
    assert main(["rules", "h004"]) == 0
    assert capsys.readouterr().out == (
        "H004 hip-symbol\n\n"
        "a symbol argument is wrapped in `HIP_SYMBOL()`.\n\n"
        "Severity: note; edits; always safe.\n\n"
        "HIP's symbol APIs (`hipMemcpyToSymbol`, `hipGetSymbolAddress`, ...) take the address of a\n"
        "`__device__` or `__constant__` variable through the `HIP_SYMBOL()` macro, where CUDA takes\n"
        "the variable itself.\n\n"
        "Example:\n\n"
        "    __constant__ float c[4];\n"
        "    void f(float *h) { cudaMemcpyToSymbol(c, h, 16); }\n\n"
        "becomes:\n\n"
        "    #include <hip/hip_runtime.h>\n"
        "    __constant__ float c[4];\n"
        "    void f(float *h) { hipMemcpyToSymbol(HIP_SYMBOL(c), h, 16); }\n\n")
    assert main(["rules", "H999"]) == 2
    assert "no rule 'H999'" in capsys.readouterr().err


def test_passes_that_never_settle_are_an_internal_error(monkeypatch) -> None:
    # A pass that rewrites its own output forever: the rounds stop at their bound (P005).
    import dataclasses
    from translator import passes
    from translator.passes.hipify.renames import RENAME
    original = passes.all_passes()["hipify"]

    def restless(ctx):
        original.run(ctx)
        ctx.fix(RENAME, __import__("translator.edits").edits.Edit(0, 0, b"//\n"), "again and again")
    monkeypatch.setitem(passes.PASSES, "hipify", dataclasses.replace(original, run=restless))
    result = translate("r.cu", b"int x;\n", case_options(b""))
    [p005] = [d for d in result.diagnostics if d.code == "P005"]
    assert p005.severity == "error" and "after 4 rounds" in p005.message
    assert result.output == b"//\n" * 4 + b"int x;\n"
