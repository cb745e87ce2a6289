"""Review output that fits where it goes: the Markdown comment under GitHub's limit,
SARIF for code scanning (aggregated renames, fingerprints, automation details), GitHub
workflow annotations, --min-severity, and file names that are not UTF-8 in every format."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.parse

import jsonschema
import pytest

from tests.test_output import RULES, Diagnostic, Edit, Fix, rename, result, sarif_schema
from translator.output.diff import annotated_diff, fold_renames
from translator.output.github import to_github
from translator.output.jsonfmt import to_json
from translator.output.markdown import to_markdown
from translator.output.positions import path_text, quoted_path
from translator.output.sarif import to_sarif

BAD = os.fsdecode(b"src/bad\xff.cu")       # a name that is not UTF-8


def renamed_file(path: str, n: int) -> object:
    """A file of n lines `cudaFree(pK);`, each renamed, and one include inserted."""
    src = b"".join(b"cudaFree(p%d);\n" % k for k in range(n))
    fixes = [rename(src, "cudaFree", "hipFree", k) for k in range(n)]
    include = Fix((Edit(0, 0, b"#include <hip/hip_runtime.h>\n"),), "H002", "HIP code needs hip/hip_runtime.h")
    out = b"#include <hip/hip_runtime.h>\n" + src.replace(b"cudaFree", b"hipFree")
    return result(path, src, out, [include] + fixes)


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": os.getcwd()}, timeout=600)


# --- Markdown -----------------------------------------------------------------

def test_markdown_folds_renames_when_full_diffs_do_not_fit():
    files = [renamed_file(f"src/f{k}.cu", 40) for k in range(3)]
    text = to_markdown(files, RULES, limit=9000)
    assert len(text) < 9000
    # Each diff keeps the insertion and none of the renames.
    block = text[text.index("<details><summary><code>src/f0.cu</code>"):]
    block = block[:block.index("</details>")]
    assert "<code>src/f0.cu</code>: 41 edits (40 renames folded), 0 diagnostics" in block
    assert "+#include <hip/hip_runtime.h>" in block and "# H002 HIP code needs hip/hip_runtime.h" in block
    assert "cudaFree" not in block and "hipFree" in block      # renamed context lines
    assert "### Folded\n\nPlain renames are counted, not shown: H001 rename-api (120 edits).\n" in text
    assert "### Left out" not in text


def test_markdown_leaves_out_what_does_not_fit_and_says_so():
    files = [renamed_file(f"src/f{k}.cu", 400) for k in range(4)] + \
        [result("src/w.cu", b"texture<float> t;\n", b"texture<float> t;\n", [],
                [Diagnostic("src/w.cu", 1, 1, 1, 8, "warning", "texture references", "W100")])]
    text = to_markdown(files, RULES, limit=7000)
    assert len(text) < 7000
    assert "### Warnings (1)\n\n- `src/w.cu:1:1` [W100]: texture references\n" in text
    tail = text[text.index("### Left out"):]
    assert "To stay under GitHub's 65,536-character limit, this comment leaves out:" in tail
    assert "- the diffs of 3 files: `src/f1.cu`, `src/f2.cu`, `src/f3.cu`\n" in tail
    assert tail.endswith("`cu2hip diff PATH` shows all of it.\n")


def diagnosed_file(path: str, errors: int, warnings: int, notes: int) -> object:
    """renamed_file(path, 400) with `errors` P100, `warnings` W100 and `notes` N100 diagnostics."""
    r = renamed_file(path, 400)
    for severity, code, n in (("note", "N100", notes), ("warning", "W100", warnings), ("error", "P100", errors)):
        r.diagnostics += [Diagnostic(path, k + 1, 1, k + 1, 9, severity, f"{severity} {k} of {path}", code)
                          for k in range(n)]
    return r


def test_markdown_shows_every_error_first_and_counts_notes_per_rule():
    files = [diagnosed_file(f"src/f{k}.cu", 3, 1, 10) for k in range(20)]
    text = to_markdown(files, RULES, limit=20_000)
    assert len(text) < 20_000
    errors = text[text.index("### Errors (60)\n\n"):text.index("### Warnings")].split("\n")[2:-2]
    assert errors == [f"- `src/f{k}.cu:{n + 1}:1` [P100]: error {n} of src/f{k}.cu" for k in range(20) for n in range(3)]
    assert text.index("### Errors") < text.index("### Warnings (20)") < text.index("### Notes (200)")
    assert "### Notes (200)\n\nCounted per rule, with the first 3 places:\n\n" \
           "- **N100**: 200 notes, e.g. `src/f0.cu:1:1`: note 0 of src/f0.cu; `src/f0.cu:2:1`: note 1 of src/f0.cu; " \
           "`src/f0.cu:3:1`: note 2 of src/f0.cu\n" in text
    assert text.count("note 3 of") == 10            # in the blocks of the 10 files that fit
    assert "- the diffs of 10 files (and their 100 notes): `src/f10.cu`, `src/f11.cu`, " in \
        text[text.index("### Left out"):]


def test_markdown_counts_the_warnings_that_do_not_fit_per_rule_and_says_so():
    text = to_markdown([diagnosed_file("src/a.cu", 0, 300, 0)], RULES, limit=12_000)
    assert len(text) < 20_000
    section = text[text.index("### Warnings (300)\n\n"):].split("\n\n")[1].split("\n")
    listed = [line for line in section if line.startswith("- `")]
    assert listed == [f"- `src/a.cu:{n + 1}:1` [W100]: warning {n} of src/a.cu" for n in range(len(listed))]
    assert 50 < len(listed) < 300
    n = len(listed)
    assert section[-1] == (f"- **W100** non-ascii: {300 - n} more warnings, e.g. `src/a.cu:{n + 1}:1`: warning {n} of "
                           f"src/a.cu; `src/a.cu:{n + 2}:1`: warning {n + 1} of src/a.cu; `src/a.cu:{n + 3}:1`: "
                           f"warning {n + 2} of src/a.cu")
    assert f"- {300 - n} warnings, counted per rule with the first 3 places\n" in text[text.index("### Left out"):]


def test_markdown_counts_the_optimizing_rewrites_per_rule_and_lists_their_refusals_as_warnings():
    @__import__("dataclasses").dataclass(frozen=True)
    class TopicRule:
        id: str
        name: str
        topic: str | None
    rules = [TopicRule("L001", "launch-bounds", "launch-bounds"), TopicRule("L002", "unbounded", "launch-bounds"),
             TopicRule("H001", "rename-api", None)]
    src = b"__global__ void k() {}\n"
    bound = Fix((Edit(0, 0, b"__launch_bounds__(256) "),), "L001", "every launch of k has 256 threads")
    out = b"__launch_bounds__(256) " + src
    refused = Diagnostic("src/k.cu", 1, 17, 1, 18, "warning", "j is not bounded: its block is unknown", "L002")
    same = Diagnostic("src/k.cu", 1, 1, 1, 2, "note", "every launch of k", "L001")     # says what the rewrite says
    text = to_markdown([result("src/k.cu", src, out, [bound], [refused, same])], rules)
    section = text[text.index("### Warnings"):text.index("### Files")]
    assert section == ("### Warnings (1)\n\n- `src/k.cu:1:17` [L002]: j is not bounded: its block is unknown\n\n"
                       "### Optimizing passes (1 rewrite)\n\nCounted per rule, with the first 3 places "
                       "(`cu2hip report PATH` lists every one, and each one refused):\n\n"
                       "- **L001** launch-bounds: 1 rewrite, e.g. `src/k.cu:1`: every launch of k has 256 threads\n\n")


def test_markdown_min_severity_drops_notes():
    src = b"int a;\n"
    note = Diagnostic("a.cu", 1, 1, 1, 2, "note", "a note", "W100")
    assert to_markdown([result("a.cu", src, src, [], [note])], RULES, min_severity="warning") == (
        "## cu2hip translation review\n\nNo changes.\n")


def test_fold_renames_shifts_the_other_fixes():
    r = renamed_file("a.cu", 3)
    folded = fold_renames(r)
    assert folded.input == b"hipFree(p0);\nhipFree(p1);\nhipFree(p2);\n"
    assert folded.renames == {"H001": 3}
    assert annotated_diff(folded) == (
        "--- a/a.cu\n+++ b/a.cu\n@@ -1,3 +1,4 @@\n# H002 HIP code needs hip/hip_runtime.h\n"
        "+#include <hip/hip_runtime.h>\n hipFree(p0);\n hipFree(p1);\n hipFree(p2);\n")


# --- SARIF --------------------------------------------------------------------

def test_sarif_aggregates_renames_per_file_and_rule_with_every_region():
    log = json.loads(to_sarif([renamed_file("src/a.cu", 3)], RULES, tool_version="0", automation_id="cu2hip/hip/"))
    jsonschema.Draft7Validator(sarif_schema()).validate(log)
    run = log["runs"][0]
    assert run["automationDetails"] == {"id": "cu2hip/hip/"}
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["H002", "H001"]
    renames = results[1]
    assert renames["message"] == {"text": "3 renames: cudaFree -> hipFree (runtime API) (x3)"}
    assert [loc["physicalLocation"]["region"] for loc in renames["locations"]] == [
        {"startLine": k, "startColumn": 1, "endLine": k, "endColumn": 9} for k in (1, 2, 3)]
    assert len(renames["fixes"]) == 1
    assert [r["insertedContent"]["text"] for r in renames["fixes"][0]["artifactChanges"][0]["replacements"]] == [
        "hipFree"] * 3
    prints = [r["partialFingerprints"]["cu2hip/v1"] for r in results]
    assert len(set(prints)) == 2 and all(len(p) == 32 for p in prints)


def test_sarif_splits_a_file_s_renames_into_results_of_at_most_100_locations():
    log = json.loads(to_sarif([renamed_file("src/a.cu", 250)], RULES, tool_version="0"))
    jsonschema.Draft7Validator(sarif_schema()).validate(log)
    results = log["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["H002", "H001", "H001", "H001"]
    assert [r["message"]["text"] for r in results[1:]] == [
        "100 renames (part 1 of 3: 250 in the file): cudaFree -> hipFree (runtime API) (x100)",
        "100 renames (part 2 of 3: 250 in the file): cudaFree -> hipFree (runtime API) (x100)",
        "50 renames (part 3 of 3: 250 in the file): cudaFree -> hipFree (runtime API) (x50)"]
    starts = [[loc["physicalLocation"]["region"]["startLine"] for loc in r["locations"]] for r in results[1:]]
    assert starts == [list(range(1, 101)), list(range(101, 201)), list(range(201, 251))]
    assert [len(r["fixes"][0]["artifactChanges"][0]["replacements"]) for r in results[1:]] == [100, 100, 50]
    prints = [r["partialFingerprints"]["cu2hip/v1"] for r in results]
    assert len(set(prints)) == 4
    # The first part keeps the fingerprint of the one result a file of fewer renames has.
    small = json.loads(to_sarif([renamed_file("src/a.cu", 3)], RULES, tool_version="0"))["runs"][0]["results"]
    assert small[1]["partialFingerprints"] == results[1]["partialFingerprints"]


def test_sarif_groups_parse_warnings_per_file_split_at_100_locations():
    from translator.catalog import catalog
    rules = [*RULES, catalog()["P001"]]
    src = b"".join(b"int x%d = ;\n" % k for k in range(230))
    found = [Diagnostic("p.cu", k, 10, k, 11, "warning", "the parser cannot read this code" if k % 2 else
                        "a macro hides this", "P001") for k in range(230, 0, -1)]    # out of order
    other = Diagnostic("p.cu", 3, 1, 3, 2, "warning", "a", "W100")
    log = json.loads(to_sarif([result("p.cu", src, src, [], [other, *found])], rules, tool_version="0"))
    jsonschema.Draft7Validator(sarif_schema()).validate(log)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("W100", "warning")] + [("P001", "warning")] * 3
    assert [r["message"]["text"] for r in results[1:]] == [
        "100 sites (part 1 of 3: 230 in the file): a macro hides this (x50); the parser cannot read this code (x50)",
        "100 sites (part 2 of 3: 230 in the file): a macro hides this (x50); the parser cannot read this code (x50)",
        "30 sites (part 3 of 3: 230 in the file): a macro hides this (x15); the parser cannot read this code (x15)"]
    lines = [[loc["physicalLocation"]["region"]["startLine"] for loc in r["locations"]] for r in results[1:]]
    assert lines == [list(range(1, 101)), list(range(101, 201)), list(range(201, 231))]
    assert results[1]["ruleIndex"] == len(RULES)
    assert len({r["partialFingerprints"]["cu2hip/v1"] for r in results}) == 4
    # One site alone is its own message; a rule not marked grouped keeps a result per diagnostic.
    one = json.loads(to_sarif([result("p.cu", src, src, [], found[:1] + [other, other])], rules,
                              tool_version="0"))["runs"][0]["results"]
    assert [(r["ruleId"], r["message"]["text"]) for r in one] == [
        ("P001", "a macro hides this"), ("W100", "a"), ("W100", "a")]
    assert catalog()["P001"].grouped and not catalog()["H001"].grouped


def test_sarif_of_a_real_translation_has_one_p001_result_per_file(tmp_path):
    src = b"".join(b"void f%d() { int x = ; cudaFree(0); }\n" % k for k in range(3))
    (tmp_path / "a.cu").write_bytes(src)
    done = run_cli("diff", "--format", "sarif", str(tmp_path / "a.cu"), cwd=tmp_path)
    results = json.loads(done.stdout)["runs"][0]["results"]
    p001 = [r for r in results if r["ruleId"] == "P001"]
    assert len(p001) == 1 and p001[0]["message"]["text"].startswith("3 sites: ")
    assert [loc["physicalLocation"]["region"]["startLine"] for loc in p001[0]["locations"]] == [1, 2, 3]


def test_sarif_fingerprints_survive_lines_moving_and_tell_repeats_apart():
    def log_of(prefix: bytes):
        src = prefix + b"int a;\nint a;\n"
        d = [Diagnostic("k.cu", src.count(b"\n", 0, i) + 1, 1, src.count(b"\n", 0, i) + 1, 4, "warning", "a", "W100")
             for i in (len(prefix), len(prefix) + 7)]
        return json.loads(to_sarif([result("k.cu", src, src, [], d)], RULES, tool_version="0"))
    before = [r["partialFingerprints"] for r in log_of(b"")["runs"][0]["results"]]
    after = [r["partialFingerprints"] for r in log_of(b"// moved\n\n")["runs"][0]["results"]]
    assert before == after and before[0] != before[1]


def test_sarif_min_severity_leaves_out_notes_and_fixes():
    r = renamed_file("a.cu", 2)
    r.diagnostics.append(Diagnostic("a.cu", 1, 1, 1, 2, "warning", "w", "W100"))
    log = json.loads(to_sarif([r], RULES, tool_version="0", min_severity="warning"))
    assert [x["ruleId"] for x in log["runs"][0]["results"]] == ["W100"]


# --- GitHub annotations -------------------------------------------------------

def test_github_annotations_escaped_as_the_toolkit_does():
    src = "// ä\nint π;\n".encode()
    d = Diagnostic("dir,x/a:b.cu", 2, 5, 2, 7, "warning", "100% wrong\nsecond line", "W100")
    e = Diagnostic("dir,x/a:b.cu", 1, 1, 1, 2, "error", "bad", "P001")
    r = result("dir,x/a:b.cu", src, src, [], [d, e])
    assert to_github([r]) == (      # errors first
        "::error file=dir%2Cx/a%3Ab.cu,line=1,col=1,endLine=1,endColumn=2,title=P001::bad\n"
        "::warning file=dir%2Cx/a%3Ab.cu,line=2,col=5,endLine=2,endColumn=6,title=W100::100%25 wrong%0Asecond line\n")


def test_github_notices_one_per_rule_over_all_files_the_most_frequent_first():
    text = to_github([renamed_file("a.cu", 3)])
    assert text == (
        "::notice file=a.cu,line=1,col=1,endLine=1,endColumn=9,title=H001::3 renames: cudaFree -> hipFree "
        "(runtime API) (x3)\n"
        "::notice file=a.cu,line=1,col=1,endLine=1,endColumn=1,title=H002::HIP code needs hip/hip_runtime.h\n")
    assert to_github([renamed_file("a.cu", 3)], min_severity="warning") == ""
    note = Diagnostic("b.cu", 2, 1, 2, 3, "note", "a note", "N100")
    b = renamed_file("b.cu", 2)
    b.diagnostics.append(note)
    assert to_github([renamed_file("a.cu", 3), b]) == (
        "::notice file=a.cu,line=1,col=1,endLine=1,endColumn=9,title=H001::5 renames in 2 files: cudaFree -> hipFree "
        "(runtime API) (x5)\n"
        "::notice file=a.cu,line=1,col=1,endLine=1,endColumn=1,title=H002::2 edits in 2 files: HIP code needs "
        "hip/hip_runtime.h (x2)\n"
        "::notice file=b.cu,line=2,col=1,endLine=2,endColumn=3,title=N100::a note\n")


def test_github_errors_beyond_the_limit_are_one_annotation_per_rule():
    src = b"".join(b"int a%d;\n" % k for k in range(20))
    diags = [Diagnostic("a.cu", k + 1, 1, k + 1, 4, "error", f"bad {k}", "P100") for k in range(15)] + \
        [Diagnostic("a.cu", k + 1, 1, k + 1, 4, "error", f"worse {k}", "P200") for k in (15, 16)] + \
        [Diagnostic("a.cu", 18, 1, 18, 4, "warning", "w", "W100")]
    lines = to_github([result("a.cu", src, src, [], diags)], limit=10).splitlines()
    assert [line.split(" ")[0] for line in lines] == ["::error"] * 10 + ["::warning"]
    assert lines[:8] == [f"::error file=a.cu,line={k + 1},col=1,endLine={k + 1},endColumn=4,title=P100::bad {k}"
                         for k in range(8)]
    assert lines[8] == ("::error file=a.cu,line=9,col=1,endLine=9,endColumn=4,title=P100::7 errors of P100 not "
                        "annotated one by one (GitHub shows 10 per step); this one: bad 8; also at a.cu:10, "
                        "a.cu:11, a.cu:12 and 3 more; `cu2hip diff` lists them all")
    assert lines[9] == ("::error file=a.cu,line=16,col=1,endLine=16,endColumn=4,title=P200::2 errors of P200 not "
                        "annotated one by one (GitHub shows 10 per step); this one: worse 15; also at a.cu:17; "
                        "`cu2hip diff` lists them all")
    assert lines[10] == "::warning file=a.cu,line=18,col=1,endLine=18,endColumn=4,title=W100::w"


# --- names that are not UTF-8 -------------------------------------------------

def test_path_escapes_are_lossless():
    assert path_text("src/a.cu") == "src/a.cu"
    assert path_text(BAD) == "src/bad\\xff.cu"
    assert path_text("a\\xff.cu") == "a\\\\xff.cu"          # a literal backslash is doubled: no collision
    assert quoted_path("a/" + BAD) == '"a/src/bad\\377.cu"'    # git's quoting, which git apply reads
    assert quoted_path('a/x"y.cu') == '"a/x\\"y.cu"' and quoted_path("a/ä.cu") == "a/ä.cu"
    assert quoted_path("a/x\u2028.cu") == '"a/x\\342\\200\\250.cu"'      # a line separator: quoted
    assert quoted_path("a/x\x85.cu") == '"a/x\\302\\205.cu"'               # NEL, a C1 control
    assert to_json([result("x\u2029.cu", b"", b"")], tool_version="0").count('"x\\u2029.cu"') == 1


def test_writers_give_valid_utf8_for_a_name_that_is_not_utf8():
    src = b"cudaFree(p);\n"
    d = Diagnostic(BAD, 1, 1, 1, 9, "warning", f"in {BAD}", "W100")
    r = result(BAD, src, b"hipFree(p);\n", [rename(src, "cudaFree", "hipFree")], [d])
    for text in (to_json([r], tool_version="0"), to_sarif([r], RULES, tool_version="0"), to_markdown([r], RULES),
                 to_github([r]), annotated_diff(r)):
        text.encode("utf-8")        # no lone surrogate left: valid UTF-8
    doc = json.loads(to_json([r], tool_version="0"))
    assert os.fsencode(doc["files"][0]["path"]) == b"src/bad\xff.cu"        # surrogateescape round trip
    log = json.loads(to_sarif([r], RULES, tool_version="0"))
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "src/bad%FF.cu" and urllib.parse.unquote_to_bytes(uri) == b"src/bad\xff.cu"
    assert log["runs"][0]["results"][0]["message"]["text"] == "in src/bad\\xff.cu"
    assert "<code>src/bad\\xff.cu</code>" in to_markdown([r], RULES)
    assert to_github([r]).startswith("::warning file=src/bad\\xff.cu,line=1,")
    assert annotated_diff(r).startswith('--- "a/src/bad\\377.cu"\n+++ "b/src/bad\\377.cu"\n')


@pytest.mark.parametrize("fmt", ["text", "patch", "json", "sarif", "markdown", "github"])
def test_diff_of_a_file_named_in_bytes_that_are_not_utf8(tmp_path, fmt):
    name = os.fsdecode(b"bad\xff.cu")
    (tmp_path / name).write_bytes(b"#include <cuda_runtime.h>\nvoid f(float *p) { cudaFree(p); }\n")
    done = run_cli("diff", str(tmp_path), "--format", fmt, "--no-cache")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in done.stderr
    text = done.stdout.decode("utf-8")      # valid UTF-8
    if fmt == "sarif":
        jsonschema.Draft7Validator(sarif_schema()).validate(json.loads(text))
        assert "bad%FF.cu" in text
    elif fmt == "json":
        assert os.fsencode(json.loads(text)["files"][0]["path"]).endswith(b"/bad\xff.cu")
    elif fmt in ("text", "patch"):
        assert '/bad\\377.cu"' in text
    else:
        assert "bad\\xff.cu" in text


# --- hostile names --------------------------------------------------------------

HOSTILE = ["x\n::error file=evil.cu,line=1::pwned\n.cu",              # a workflow command of its own
           "y\n\n# Heading `tick` <img src=x onerror=alert(1)>.cu",    # a blank line, a heading, backticks, HTML
           "z`|<img src=q>&amp;`\u2028.cu"]                             # a pipe, an entity, a line separator
CUDA = b"#include <cuda_runtime.h>\n__global__ void k(float *p) { p[threadIdx.x] = 0; }\n" \
       b"void f(float *p) { cudaFree(p); k<<<1, 128>>>(p); }\n"
COMMAND = ("file", "line", "col", "endLine", "endColumn", "title")


def without_code(markdown: str) -> str:
    """`markdown` less its fenced code blocks and code spans (CommonMark's rules, one line
    at a time): what is left is what GitHub reads as Markdown and HTML."""
    out, fence = [], None
    for line in markdown.split("\n"):
        ticks = len(line) - len(line.lstrip("`"))
        if fence is None and ticks >= 3:
            fence = ticks
            continue
        if fence is not None:
            if ticks >= fence and not line.strip("`"):
                fence = None
            continue
        kept, i = [], 0
        while i < len(line):
            if line[i] != "`":
                kept.append(line[i])
                i += 1
                continue
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            run, k = j - i, j
            close = -1
            while k < len(line):
                if line[k] == "`":
                    m = k
                    while m < len(line) and line[m] == "`":
                        m += 1
                    if m - k == run:
                        close = m
                        break
                    k = m
                else:
                    k += 1
            if close < 0:
                kept.append(line[i:j])
                i = j
            else:
                kept.append("CODE")
                i = close
        out.append("".join(kept))
    assert fence is None, "a fence left open"
    return "\n".join(out)


@pytest.fixture(scope="module")
def hostile_tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    for name in HOSTILE:
        (root / name).write_bytes(CUDA)
    return root


@pytest.mark.parametrize("command", [
    ["diff", "--format", "text"], ["diff", "--format", "patch"], ["diff", "--format", "json"],
    ["diff", "--format", "sarif"], ["diff", "--format", "markdown"], ["diff", "--format", "github"],
    ["report", "--no-compile", "--format", "text"], ["report", "--no-compile", "--format", "json"],
    ["report", "--no-compile", "--format", "markdown"], ["report", "--no-compile", "--format", "html"],
    ["translate", "-o", "OUT"], ["check"]])
def test_hostile_file_names_stay_names_in_every_format(hostile_tree, tmp_path, command):
    command = [str(tmp_path / "out") if word == "OUT" else word for word in command]
    done = run_cli(command[0], str(hostile_tree), "--no-cache", *command[1:])
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")      # valid UTF-8
    fmt = command[-1]
    for stream, text in (("stdout", out), ("stderr", err)):
        for line in text.split("\n"):
            assert not line.startswith("# Heading") and "\u2028" not in line
            if line.startswith("::"):
                # Only GitHub's own annotations start with "::", and a name adds no property.
                assert (stream, fmt) == ("stdout", "github"), line
                kind, props = line[2:].split("::", 1)[0].split(" ", 1)
                assert kind in ("error", "warning", "notice")
                assert [p.split("=", 1)[0] for p in props.split(",")] == list(COMMAND), line
    if fmt == "github":
        assert out and all(line.startswith("::") for line in out.splitlines())
        assert "/x\\x0a%3A%3Aerror file=evil.cu%2Cline=1%3A%3Apwned\\x0a.cu,line=" in out
    elif fmt == "markdown":
        prose = without_code(out)
        assert "<img" not in prose
        headings = [line for line in prose.split("\n") if line.startswith("#")]
        assert all(line.startswith(("## cu2hip", "### ")) for line in headings), headings
        tags = {t for t in re.findall(r"</?(\w+)", prose)}
        assert tags <= {"details", "summary", "code", "br"}, tags
        assert "&lt;img src=x onerror=alert(1)&gt;" in out or command[0] == "report"
    elif fmt == "html":
        assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    elif fmt == "json":
        doc = json.loads(out)
        names = {os.path.basename(f["path"]) for f in doc["files"]} if command[0] == "diff" else \
            {os.path.basename(k["file"]) for k in doc["kernels"]}
        assert names == set(HOSTILE)
    elif fmt == "sarif":
        log = json.loads(out)
        jsonschema.Draft7Validator(sarif_schema()).validate(log)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
        assert {urllib.parse.unquote(u).rsplit("/", 1)[1] for u in uris} == set(HOSTILE)
    elif fmt in ("text", "patch") and command[0] == "diff":
        assert '/x\\n::error file=evil.cu,line=1::pwned\\n.cu"\n' in out      # git's quoting


# --- the corpus ----------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_outputs():
    return {fmt: run_cli("diff", "corpus", "--format", fmt).stdout.decode("utf-8") for fmt in ("markdown", "sarif")}


def test_corpus_markdown_fits_a_github_comment_and_names_what_it_folded(corpus_outputs):
    text = corpus_outputs["markdown"]
    assert len(text) < 65_536
    folded = text[text.index("### Folded\n\nPlain renames are counted, not shown: "):].split("\n")[2]
    assert "H001 rename-api (" in folded and "H002 map-header (" in folded
    assert text.index("### Errors (") < text.index("### Warnings (") < text.index("### Notes (") < \
        text.index("### Optimizing passes (") < text.index("### Files")
    assert "- **F001** fuse-chain: 10 rewrites, e.g. `corpus/" in text


def test_corpus_sarif_has_one_result_per_file_per_rename_rule_and_validates(corpus_outputs):
    log = json.loads(corpus_outputs["sarif"])
    jsonschema.Draft7Validator(sarif_schema()).validate(log)
    seen = {}
    for r in log["runs"][0]["results"]:
        if r["level"] == "note" and r["message"]["text"].split(" ")[1:2] == ["renames:"]:
            key = (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"])
            assert key not in seen
            seen[key] = r
    assert ("corpus/memory/memcpy_basic.cu", "H001") in seen
    rename_results = [r for r in log["runs"][0]["results"]
                      if r["ruleId"] == "H001" and "fixes" in r and r["level"] == "note"]
    keys = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in rename_results]
    assert len(keys) == len(set(keys))
    # GitHub shows 100 locations of a result: none has more; P001's sites are one result per file.
    results = log["runs"][0]["results"]
    assert max(len(r["locations"]) for r in results) <= 100
    parse = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results if r["ruleId"] == "P001"]
    assert parse and len(parse) == len(set(parse))


# --- report --format markdown ----------------------------------------------------

def test_report_markdown_stays_under_the_limit_and_counts_what_it_leaves_out():
    from translator.commands.report import _markdown
    from translator.diagnostics import Diagnostic as Finding
    bound = Fix((Edit(0, 0, b"__launch_bounds__(256) "),), "L001", "bounded")
    findings = {"launch-bounds": [Finding(f"src/k{n:03}.cu", 1, 1, "note", f"k{n} is launched with 256 threads",
                                          "L001", fix=bound) for n in range(300)]
                + [Finding("src/z.cu", 7, 1, "warning", "j is not bounded", "L002")],
                "runtime": []}
    text = _markdown(findings, {}, [], ["--no-compile: no compiler figures"], "gfx90a", limit=20_000)
    assert len(text) < 12_000
    rows = [line for line in text.split("\n") if line.startswith("| `src/")]
    assert rows == [f"| `src/k{n:03}.cu:1` | L001 | yes | k{n} is launched with 256 threads |" for n in range(len(rows))]
    n = len(rows)
    assert 50 < n < 300
    assert (f"\n\n- L001: {300 - n} more ({300 - n} applied), e.g. `src/k{n:03}.cu:1`, `src/k{n + 1:03}.cu:1`, "
            f"`src/k{n + 2:03}.cu:1`\n- L002: 1 more (0 applied), e.g. `src/z.cu:7`\n\n### runtime\n\nNothing found.\n") \
        in text
    assert text.endswith(
        "### Left out\n\nTo stay under GitHub's 65,536-character limit, this report leaves out:\n"
        f"- {301 - n} of the 301 findings of launch-bounds (counted per rule above)\n\n"
        "`cu2hip report --format json PATH` lists all of it.\n")
