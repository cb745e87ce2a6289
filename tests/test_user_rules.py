"""User rules (translator.rules) and the user-rules pass: the language, its errors, and
what the pass does to code, with exact expected outputs and diagnostics.

(The golden harness has no option for a rules file, so these are written out here.)
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from translator import catalog
from translator.passes import Options
from translator.pipeline import Result, translate
from translator.rules import (CallRewrite, HeaderMap, Location, Param, Rename, RulesError, Spread, Text, declare,
                              forget, load_rules, parse_rules)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _no_user_rules_left():
    """Each test's user rules leave the process-wide catalog as they found it."""
    yield
    forget()


@pytest.fixture
def rules_file(tmp_path):
    def write(text: str, name: str = "team.rules") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)
    return write


def run(rules: str | tuple[str, ...], source: str, **options) -> Result:
    options.setdefault("rocm_version", (6, 2))
    options.setdefault("ignore", ("L", "W"))   # launch bounds and warp size: their own tests
    paths = (rules,) if isinstance(rules, str) else rules
    return translate("t.cu", source.encode(), Options(rules=paths, **options))


def diagnostics(result: Result) -> list[str]:
    return [d.format() for d in result.diagnostics]


def assert_idempotent(rules, result: Result, **options) -> None:
    again = run(rules, result.output.decode(), **options)
    assert again.output == result.output
    assert again.applied == []


# --- the language -----------------------------------------------------------------------------

SAMPLE = """\
# a rename of any identifier (function, macro, type, enumerator)
rename CUDA_CHECK -> HIP_CHECK
header "mylib_cuda.h" -> "mylib_hip.h"   # keeps <> or ""
call cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)
call LAUNCH(k, g, b, args...) -> hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, args...)
[U002] rename checkCudaErrors -> HIP_CHECK  because "our \\"error\\" macro"
call sq(x) -> mul(x * x, s.x, "x")
"""


def test_statements_parse_into_frozen_dataclasses() -> None:
    rules = parse_rules(SAMPLE, "team.rules").rules
    assert rules == (
        Rename("CUDA_CHECK", "HIP_CHECK", "U001", None, Location("team.rules", 2, 1), "rename CUDA_CHECK -> HIP_CHECK"),
        HeaderMap("mylib_cuda.h", "mylib_hip.h", "U003", None, Location("team.rules", 3, 1),
                  'header "mylib_cuda.h" -> "mylib_hip.h"'),
        CallRewrite("cudaOldCopy", ("dst", "src", "n"), False, "hipNewCopy",
                    ((Param("src"),), (Param("dst"),), (Param("n"),), (Text("0"),)), "U004", None,
                    Location("team.rules", 4, 1), "call cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)"),
        CallRewrite("LAUNCH", ("k", "g", "b", "args"), True, "hipLaunchKernelGGL",
                    ((Param("k"),), (Text("dim3("), Param("g"), Text(")")), (Text("dim3("), Param("b"), Text(")")),
                     (Text("0"),), (Text("0"),), (Spread("args"),)), "U005", None, Location("team.rules", 5, 1),
                    "call LAUNCH(k, g, b, args...) -> hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, args...)"),
        Rename("checkCudaErrors", "HIP_CHECK", "U002", 'our "error" macro', Location("team.rules", 6, 1),
               "rename checkCudaErrors -> HIP_CHECK"),
        CallRewrite("sq", ("x",), False, "mul",
                    ((Param("x", bare=False), Text(" * "), Param("x", bare=False)), (Text("s.x"),), (Text('"x"'),)),
                    "U006", None, Location("team.rules", 7, 1), 'call sq(x) -> mul(x * x, s.x, "x")'),
    )
    with pytest.raises(AttributeError):
        rules[0].new = "other"     # frozen


def test_ids_are_numbered_in_order_skipping_explicit_ones() -> None:
    text = "rename a -> b\n[U001] rename c -> d\nrename e -> f\n[U003] rename g -> h\nrename i -> j\n"
    assert [r.id for r in parse_rules(text).rules] == ["U002", "U001", "U004", "U003", "U005"]


def test_numbering_runs_across_the_files_of_a_run(rules_file) -> None:
    first = rules_file("rename a -> b\nrename c -> d\n", "first.rules")
    second = rules_file("rename e -> f\n[U003] rename g -> h\n", "second.rules")
    assert [r.id for r in load_rules([first, second]).rules] == ["U001", "U002", "U004", "U003"]


def test_a_duplicate_id_across_files_names_both_places(rules_file) -> None:
    first = rules_file("rename a -> b\n[U120] rename c -> d\n", "first.rules")
    second = rules_file("\n[U120] rename e -> f\n", "second.rules")
    with pytest.raises(RulesError) as caught:
        load_rules([first, second])
    assert str(caught.value) == f"{second}:2:1: error: duplicate id U120 (first used at {first}:2:1)"


ERRORS = [
    # syntax, from lark
    ("renam a -> b", "r.rules:1:1: error: unexpected 'renam'; expected a statement: 'rename', 'header' or 'call'"),
    ("rename a b", "r.rules:1:10: error: unexpected 'b'; expected '->'"),
    ("rename a -> @", "r.rules:1:13: error: unexpected character '@'; expected a name"),
    ("rename a -> b because", "r.rules:1:22: error: unexpected end of line; expected a string"),
    ('rename a -> b because "x', 'r.rules:1:23: error: missing terminating " character'),
    ("header x -> y", "r.rules:1:8: error: unexpected 'x'; expected a string"),
    ("call f(a, b -> g(a)", "r.rules:1:13: error: unexpected '->'; expected ')', ',' or '...'"),
    ("call f(a) -> g(a", "r.rules:1:17: error: unexpected end of line; expected an argument, ')', ',' or '...'"),
    ("[U-1] rename a -> b", "r.rules:1:3: error: unexpected '-'; expected ']'"),
    ("rename a -> b\n\n  rename c d", "r.rules:3:12: error: unexpected 'd'; expected '->'"),
    # one statement
    ("[u12] rename a -> b", "r.rules:1:2: error: bad id 'u12': want a capital letter and three digits (U120)"),
    ("[U1200] rename a -> b", "r.rules:1:2: error: bad id 'U1200': want a capital letter and three digits (U120)"),
    ('header "" -> "x.h"', "r.rules:1:8: error: empty header name"),
    # a NUL byte that a rule would write (a second run took the output for a binary file)
    ('rename a -> b\nheader "h.cuh" -> "h_\0hip.h"', "r.rules:2:22: error: a NUL byte: a rules file is text, and a "
     "rule that wrote one would make its output a binary file"),
    ("call f(a, a) -> g(a)", "r.rules:1:11: error: parameter 'a' declared twice"),
    ("call f(xs..., b) -> g(b)", "r.rules:1:8: error: variadic parameter 'xs...' must be the last"),
    ("call f(a) -> g(xs...)", "r.rules:1:16: error: parameter 'xs' is used on the right but not declared"),
    ("call f(a) -> g(a...)", "r.rules:1:16: error: parameter 'a' is not variadic: write 'a'"),
    ("call f(xs...) -> g(xs)", "r.rules:1:20: error: parameter 'xs' is variadic: write 'xs...' as a whole argument"),
    ("call f(xs...) -> g(h(xs...))", "r.rules:1:22: error: 'xs...' must be a whole argument on the right"),
    ("call f(a, b) -> f(b, a)",
     "r.rules:1:17: error: the right side calls 'f' with arguments this rule matches: it would rewrite its own output"),
    # the run as a whole
    ("[U001] rename a -> b\n[U001] rename c -> d", "r.rules:2:1: error: duplicate id U001 (first used at r.rules:1:1)"),
    ("rename a -> b\nrename a -> c", "r.rules:2:1: error: 'a' is already renamed by U001 at r.rules:1:1"),
    ('header "a.h" -> "b.h"\nheader "a.h" -> "c.h"',
     "r.rules:2:1: error: header 'a.h' is already mapped by U001 at r.rules:1:1"),
    ("call f(a) -> g(a)\ncall f(b, c...) -> h(b)",
     "r.rules:2:1: error: a call of 'f' with 1 argument is already rewritten by U001 at r.rules:1:1"),
    ("rename a -> b\nrename b -> c",
     "r.rules:1:1: error: 'b' is renamed again by U002 at r.rules:2:1: the result of a rule must not be rewritten "
     "by another"),
    ("rename a -> a", "r.rules:1:1: error: 'a' is renamed to itself"),
]


@pytest.mark.parametrize("text, message", ERRORS, ids=[m.split("error: ")[1][:40] for _, m in ERRORS])
def test_rules_errors_are_clang_style(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(text, "r.rules")
    assert str(caught.value) == message


def test_a_call_whose_result_the_rule_cannot_match_is_fine() -> None:
    assert parse_rules("call f(a) -> f(a, 0)").rules[0].function == "f"


def test_an_unreadable_or_non_utf8_file(tmp_path) -> None:
    missing = str(tmp_path / "missing.rules")
    with pytest.raises(RulesError) as caught:
        load_rules([missing])
    assert str(caught.value) == f"{missing}: error: cannot read the rules file: No such file or directory"
    latin = tmp_path / "latin.rules"
    latin.write_bytes(b"rename a -> b\nrename caf\xe9 -> c\n")
    with pytest.raises(RulesError) as caught:
        load_rules([str(latin)])
    assert str(caught.value) == f"{latin}:2:11: error: the rules file is not UTF-8"


def test_an_id_of_a_built_in_rule_is_refused() -> None:
    with pytest.raises(RulesError) as caught:
        declare(parse_rules("rename a -> b\n[H001] rename c -> d\n", "r.rules"))
    assert str(caught.value) == "r.rules:2:1: error: id H001 is the built-in rule rename-api's"


def test_each_file_is_parsed_once_while_unchanged(rules_file, monkeypatch) -> None:
    path = rules_file("rename a -> b\n")
    calls = []
    import translator.rules.parse as rules_parse
    real = rules_parse.parse_text
    monkeypatch.setattr(rules_parse, "parse_text", lambda text, p: calls.append(p) or real(text, p))
    first = load_rules([path])
    assert load_rules([path]) is first and calls == [path]
    Path(path).write_text("rename a -> c\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))          # a new mtime, whatever the clock's resolution
    assert load_rules([path]).rules[0].new == "c" and calls == [path, path]


def test_user_rules_are_catalog_rules_until_forgotten(rules_file) -> None:
    path = rules_file("rename a -> b\n[U120] call f(x) -> g(x)  because \"our wrapper\"\n")
    declared = declare(load_rules([path]))
    assert sorted(declared) == ["U001", "U120"]
    made = catalog.RULES["U120"]
    assert (made.name, made.severity, made.edits, made.safe, made.summary) == \
        ("user-call", "note", True, False, "call f(x) -> g(x)")
    assert made.explanation == (f"A user rule, from {path} line 2 (because: our wrapper): `call f(x) -> g(x)`. "
                                "cu2hip applies it as written; its meaning is the user's to vouch for.")
    assert catalog.RULES["U001"].name == "user-rename"
    forget()
    assert "U001" not in catalog.RULES and "U120" not in catalog.RULES


def test_options_with_rules_cross_processes() -> None:
    options = Options(rules=("a.rules", "b.rules"))
    assert pickle.loads(pickle.dumps(options)) == options


def test_the_grammar_is_one_file_that_the_package_reaches() -> None:
    from importlib import resources
    packaged = resources.files("translator") / "grammars" / "cu2hip-rules.lark"
    assert packaged.read_bytes() == (ROOT / "grammars" / "cu2hip-rules.lark").read_bytes()
    assert os.path.islink(ROOT / "translator" / "grammars")
    assert '"grammars/*.lark"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


# --- the pass ---------------------------------------------------------------------------------

def test_rename_in_code_not_in_strings_comments_or_include_paths(rules_file) -> None:
    rules = rules_file("rename CUDA_CHECK -> HIP_CHECK\n")
    result = run(rules, """\
#include "CUDA_CHECK.h"
// CUDA_CHECK in a comment
struct S { int CUDA_CHECK; };
void f(S s) {
    const char *m = "CUDA_CHECK failed";   /* CUDA_CHECK */
    CUDA_CHECK(s.CUDA_CHECK);
    MY_CUDA_CHECK(CUDA_CHECKS);
}
#ifdef CUDA_CHECK
#endif
""")
    assert result.output.decode() == """\
#include "CUDA_CHECK.h"
// CUDA_CHECK in a comment
struct S { int HIP_CHECK; };
void f(S s) {
    const char *m = "CUDA_CHECK failed";   /* CUDA_CHECK */
    HIP_CHECK(s.HIP_CHECK);
    MY_CUDA_CHECK(CUDA_CHECKS);
}
#ifdef HIP_CHECK
#endif
"""
    # A CUDA-shaped name that neither a table, the file nor a rule knows is reported (H019).
    assert diagnostics(result) == [
        "t.cu:7:19: warning: 'CUDA_CHECKS' looks like a CUDA API but is in no mapping table; left as it is [H019]"]
    assert {f.reason for f in result.applied} == {f"CUDA_CHECK -> HIP_CHECK (user rule U001, {rules}:1)"}
    assert_idempotent(rules, result)


def test_rename_and_call_inside_define_bodies(rules_file) -> None:
    rules = rules_file("rename CUDA_CHECK -> HIP_CHECK\ncall cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)\n")
    result = run(rules, """\
#define CUDA_CHECK(x) do { if ((x) != 0) abort(); } while (0)
#define CHECK(x) CUDA_CHECK(x)
#define COPY(d, s, n) cudaOldCopy(d, s, n)
#define NAME "CUDA_CHECK"
""")
    assert result.output.decode() == """\
#define HIP_CHECK(x) do { if ((x) != 0) abort(); } while (0)
#define CHECK(x) HIP_CHECK(x)
#define COPY(d, s, n) hipNewCopy(s, d, n, 0)
#define NAME "CUDA_CHECK"
"""
    assert diagnostics(result) == []
    assert_idempotent(rules, result)


def test_header_map_keeps_the_delimiters(rules_file) -> None:
    rules = rules_file('header "mylib_cuda.h" -> "mylib/hip.h"\n')
    result = run(rules, '#include "mylib_cuda.h"\n#include <mylib_cuda.h>\n#include "other/mylib_cuda.h"\n'
                        'const char *h = "mylib_cuda.h";\n')
    assert result.output.decode() == ('#include "mylib/hip.h"\n#include <mylib/hip.h>\n#include "other/mylib_cuda.h"\n'
                                      'const char *h = "mylib_cuda.h";\n')
    assert diagnostics(result) == []
    assert_idempotent(rules, result)


def test_call_reorders_drops_repeats_and_adds_arguments(rules_file) -> None:
    rules = rules_file("call cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)\n"
                       "call old2(a, b, c) -> new2(c, a, a)\n"
                       "call sq(x) -> mul(x * x, x)\n")
    result = run(rules, """\
void f(int *d, int *s, int n) {
    cudaOldCopy(d, s, n);
    cudaOldCopy(d,
                s /* source */,
                n * 4);
    old2(d, s, n + 1);
    int y = sq(n + 1) + sq(n) + sq(g(n));
}
""")
    assert result.output.decode() == """\
void f(int *d, int *s, int n) {
    hipNewCopy(s, d, n, 0);
    hipNewCopy(s,
                d /* source */,
                n * 4, 0);
    new2(n + 1, d, d);
    int y = mul((n + 1) * (n + 1), n + 1) + mul(n * n, n) + mul(g(n) * g(n), g(n));
}
"""
    assert diagnostics(result) == []
    assert sorted({f.reason for f in result.applied}) == [
        f"cudaOldCopy(...) -> hipNewCopy(...) (user rule U001, {rules}:1)",
        f"old2(...) -> new2(...) (user rule U002, {rules}:2)",
        f"sq(...) -> mul(...) (user rule U003, {rules}:3)"]
    assert_idempotent(rules, result)


def test_variadic_tail(rules_file) -> None:
    rules = rules_file("call LAUNCH(k, g, b, args...) -> hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, args...)\n")
    result = run(rules, """\
__global__ void k(int *p, int n) {}
void f(int *p, int n) {
    LAUNCH(k, 4, 256, p, n /* count */);
    LAUNCH(k, 4, 256);
    LAUNCH(k, 4);
}
""")
    assert result.output.decode() == """\
#include <hip/hip_runtime.h>
__global__ void k(int *p, int n) {}
void f(int *p, int n) {
    hipLaunchKernelGGL(k, dim3(4), dim3(256), 0, 0, p, n /* count */);
    hipLaunchKernelGGL(k, dim3(4), dim3(256), 0, 0);
    LAUNCH(k, 4);
}
"""
    assert diagnostics(result) == [
        "t.cu:5:5: warning: 'LAUNCH' not rewritten: the call has 2 arguments, the rule takes at least 3 [U001]"]
    assert_idempotent(rules, result)


def test_a_call_whose_arity_or_parse_does_not_fit_is_left_with_a_warning(rules_file) -> None:
    rules = rules_file("call cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)\n")
    source = """\
void f(int *d, int *s, int n) {
    cudaOldCopy(d, s);
    cudaOldCopy(d, s, n, 1);
    void (*p)(int *, int *, int) = cudaOldCopy;
    int x = ;
    cudaOldCopy(d, s, n]);
}
"""
    result = run(rules, source)
    assert result.output.decode() == source
    assert diagnostics(result) == [
        "t.cu:2:5: warning: 'cudaOldCopy' not rewritten: the call has 2 arguments, the rule takes 3 [U001]",
        "t.cu:3:5: warning: 'cudaOldCopy' not rewritten: the call has 4 arguments, the rule takes 3 [U001]",
        "t.cu:5:11: warning: cannot parse this code; only renames are made here [P001]",
        "t.cu:6:5: warning: 'cudaOldCopy' not rewritten: parse error around the call [U001]",
        "t.cu:6:24: warning: cannot parse this code; only renames are made here [P001]",
    ]


def test_a_user_rename_overrides_hipify(rules_file) -> None:
    rules = rules_file("rename cudaMalloc -> myMalloc\nrename cudaProfilerInitialize -> myProfilerInit\n")
    source = """\
void f(int *p, int n) {
    cudaMalloc(&p, n);
    cudaProfilerInitialize(0, 0, 0);
    cudaFree(p);
}
"""
    assert diagnostics(run((), source)) == ["t.cu:3:5: error: 'cudaProfilerInitialize' has no HIP equivalent [H010]"]
    result = run(rules, source)
    assert result.output.decode() == """\
#include <hip/hip_runtime.h>
void f(int *p, int n) {
    myMalloc(&p, n);
    myProfilerInit(0, 0, 0);
    hipFree(p);
}
"""
    assert diagnostics(result) == []
    assert [f.rule for f in result.applied if f.edits[0].start == source.index("cudaMalloc")] == ["U001"]
    assert_idempotent(rules, result)
    # With the user rule turned off, the built-in rename is back.
    ignored = run(rules, source, ignore=("U001",))
    assert "hipMalloc(&p, n)" in ignored.output.decode()


def test_a_call_rewrite_folds_the_builtin_edits_of_its_arguments(rules_file) -> None:
    rules = rules_file("call CHECK(x) -> HIP_CHECK(x)\ncall cudaOldCopy(d, s, n) -> hipNewCopy(s, d, n, 0)\n"
                       "rename CHECK -> HIP_CHECK\n")
    result = run(rules, """\
#define CHECK(x) x
void f(int *d, int *s, int n) {
    CHECK(cudaMemcpy(d, s, n, cudaMemcpyHostToDevice));
    CHECK(cudaOldCopy(cudaOldCopy(d, s, 1), s, n));
}
""")
    assert result.output.decode() == """\
#include <hip/hip_runtime.h>
#define HIP_CHECK(x) x
void f(int *d, int *s, int n) {
    HIP_CHECK(hipMemcpy(d, s, n, hipMemcpyHostToDevice));
    HIP_CHECK(hipNewCopy(s, hipNewCopy(s, d, 1, 0), n, 0));
}
"""
    assert diagnostics(result) == []
    assert_idempotent(rules, result)


def test_user_rules_run_for_the_cuda_target_too(rules_file) -> None:
    rules = rules_file("rename CUDA_CHECK -> CHECK_OR_DIE\n")
    result = run(rules, "void f() { CUDA_CHECK(cudaFree(0)); }\n", target="cuda")
    assert result.output == b"void f() { CHECK_OR_DIE(cudaFree(0)); }\n"


def test_several_files_in_one_run(rules_file) -> None:
    first = rules_file("rename CUDA_CHECK -> HIP_CHECK\n", "first.rules")
    second = rules_file('header "mylib_cuda.h" -> "mylib_hip.h"\n', "second.rules")
    result = run((first, second), '#include "mylib_cuda.h"\nvoid f() { CUDA_CHECK(0); }\n')
    assert result.output == b'#include "mylib_hip.h"\nvoid f() { HIP_CHECK(0); }\n'
    assert sorted(f.reason for f in result.applied) == [
        f"CUDA_CHECK -> HIP_CHECK (user rule U001, {first}:1)",
        f"mylib_cuda.h -> mylib_hip.h (user rule U002, {second}:1)"]


def test_suppression_comments_know_user_ids(rules_file) -> None:
    rules = rules_file("[U120] rename CUDA_CHECK -> HIP_CHECK\n")
    result = run(rules, "void f() {\n    CUDA_CHECK(0);  // cu2hip: ignore[U120]\n\n    CUDA_CHECK(1);\n}\n")
    assert result.output == b"void f() {\n    CUDA_CHECK(0);  // cu2hip: ignore[U120]\n\n    HIP_CHECK(1);\n}\n"
    assert diagnostics(result) == []


def test_a_call_rewrite_edits_only_what_moves(rules_file) -> None:
    """Arguments that stay in place are not rewritten (hipify's fixes there stay its own);
    one that moves carries hipify's edits with it, and the reason says so."""
    rules = rules_file("call cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)\n")
    source = "void f() {\n    cudaOldCopy(cudaStreamDefault, cudaStreamLegacy, sizeof(cudaStream_t));\n}\n"
    result = run(rules, source)
    assert result.output.decode() == ("#include <hip/hip_runtime.h>\nvoid f() {\n"
                                      "    hipNewCopy(hipStreamLegacy, hipStreamDefault, sizeof(hipStream_t), 0);\n}\n")
    call = source.index("cudaOldCopy")
    edits = {f.reason: [(e.start - call, e.end - call, e.text) for e in f.edits] for f in result.applied}
    assert edits == {
        "cudaStreamDefault -> hipStreamDefault (runtime API)": [(12, 29, b"hipStreamDefault")],
        "cudaStream_t -> hipStream_t (runtime API)": [(56, 68, b"hipStream_t")],
        f"cudaOldCopy(...) -> hipNewCopy(...) (user rule U001, {rules}:1); with, inside its arguments: "
        "cudaStreamLegacy -> hipStreamLegacy (runtime API)":
            [(0, 11, b"hipNewCopy"), (12, 12, b"hipStreamLegacy, "), (29, 47, b""), (69, 69, b", 0")],
        "HIP code needs hip/hip_runtime.h (HIPIFY inserts it)": [(-15, -15, b"#include <hip/hip_runtime.h>\n")],
    }
    assert diagnostics(result) == []
    assert_idempotent(rules, result)
