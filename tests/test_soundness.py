"""The soundness suite: programs on which an optimizing rewrite would change what the
program computes (it must refuse, and say why) and programs on which it is right (it
must still happen, so that soundness does not become "never").

A case is `tests/soundness/<group>/<name>.cu`, translated as a one-file tree, or a folder
`tests/soundness/<group>/<name>/`, a project translated as a tree whose expectations are in
its `expect.txt`. Expectations are the leading `// ` lines of a file case, or the lines of
`expect.txt`:

    soundness: must-refuse | must-apply
    why: the program on which the rewrite would be wrong (or right)
    options: --target cuda                  translate options (shell-split)
    no-edit: L001[,F] [@file]               no fix of these ids (or prefixes) in the case, or that file
    expect: L002 "text"                     a diagnostic of this id whose message holds the text
    edit: L001[@file] "text"                a fix of this id whose new text holds the text
    output-has: "text" / output-lacks: "text"   [@file after the keyword: output-has@a.cu: "..."]

A must-refuse case names at least one `no-edit` and one `expect`; a must-apply case at
least one `edit`. The translation runs in process with a private cache.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from translator.cli import main

ROOT = Path(__file__).resolve().parent / "soundness"
KINDS = ("must-refuse", "must-apply")

_LINE = re.compile(r"(?P<key>[a-z-]+)(?:@(?P<file>[^\s:]+))?:\s*(?P<rest>.*)\Z")
_RULE_TEXT = re.compile(r'(?P<id>[A-Z]\d{3})(?:@(?P<file>\S+))?\s+"(?P<text>(?:[^"\\]|\\.)*)"\Z')
_QUOTED = re.compile(r'"(?P<text>(?:[^"\\]|\\.)*)"\Z')


@dataclass
class Case:
    path: Path
    kind: str = ""
    why: str = ""
    options: list[str] = field(default_factory=list)
    no_edit: list[tuple[str, str | None]] = field(default_factory=list)      # (id or prefix, file)
    expect: list[tuple[str, str]] = field(default_factory=list)              # (id, text)
    edit: list[tuple[str, str | None, str]] = field(default_factory=list)    # (id, file, text)
    output_has: list[tuple[str | None, str]] = field(default_factory=list)   # (file, text)
    output_lacks: list[tuple[str | None, str]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.path.relative_to(ROOT).with_suffix(""))


def _unescape(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")


def parse_case(path: Path) -> Case:
    """The expectations of a case; a malformed line is a ValueError naming it."""
    case = Case(path)
    if path.is_dir():
        lines = (path / "expect.txt").read_text(encoding="utf-8").splitlines()
    else:
        lines = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("// "):
                break
            lines.append(line[3:])
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"{path}: expectation {n}: cannot read {line!r}")
        key, file, rest = m["key"], m["file"], m["rest"].strip()
        if key == "soundness":
            case.kind = rest
        elif key == "why":
            case.why = rest
        elif key == "options":
            case.options += shlex.split(rest)
        elif key == "no-edit":
            ids, _, at = rest.partition("@")
            case.no_edit += [(i.strip(), at.strip() or None) for i in ids.split(",") if i.strip()]
        elif key in ("expect", "edit"):
            r = _RULE_TEXT.match(rest)
            if not r:
                raise ValueError(f"{path}: expectation {n}: want ID \"text\" in {line!r}")
            if key == "expect":
                case.expect.append((r["id"], _unescape(r["text"])))
            else:
                case.edit.append((r["id"], r["file"], _unescape(r["text"])))
        elif key in ("output-has", "output-lacks"):
            q = _QUOTED.match(rest)
            if not q:
                raise ValueError(f"{path}: expectation {n}: want \"text\" in {line!r}")
            (case.output_has if key == "output-has" else case.output_lacks).append((file, _unescape(q["text"])))
        else:
            raise ValueError(f"{path}: expectation {n}: unknown key {key!r}")
    if case.kind not in KINDS:
        raise ValueError(f"{path}: `soundness:` must be one of {KINDS}, not {case.kind!r}")
    if not case.why:
        raise ValueError(f"{path}: a case says `why`")
    if case.kind == "must-refuse" and not (case.no_edit and case.expect):
        raise ValueError(f"{path}: a must-refuse case names a `no-edit` and an `expect`")
    if case.kind == "must-apply" and not case.edit:
        raise ValueError(f"{path}: a must-apply case names an `edit`")
    return case


def all_cases() -> list[Path]:
    if not ROOT.is_dir():
        return []
    found = []
    for group in sorted(p for p in ROOT.iterdir() if p.is_dir()):
        for entry in sorted(group.iterdir()):
            if entry.is_dir() or entry.suffix == ".cu":
                found.append(entry)
    return found


def translate_case(case: Case, tmp: Path) -> tuple[dict, Path]:
    """Translates the case as a tree; (the --report JSON, the output folder)."""
    tree = tmp / "in" / case.path.name
    if case.path.is_dir():
        shutil.copytree(case.path, tree, ignore=shutil.ignore_patterns("expect.txt"))
    else:
        tree.mkdir(parents=True)
        shutil.copy(case.path, tree / case.path.name)
    out, report = tmp / "out", tmp / "report.json"
    status = main(["translate", str(tree), "-o", str(out), "-q", "-j", "1", "--no-cache",
                   "--report", str(report), *case.options])
    assert status in (0, 1), f"translate exited {status}"
    return json.loads(report.read_text(encoding="utf-8")), out


def _matches(rule: str, selector: str) -> bool:
    return rule.startswith(selector)


def _in(entry_path: str, file: str | None) -> bool:
    return file is None or Path(entry_path).name == file or entry_path.endswith("/" + file)


def check(case: Case, report: dict, out: Path) -> list[str]:
    """What the translation got wrong, one sentence each (empty: the case holds)."""
    problems = []
    edits = [(f["path"], e) for f in report["files"] for e in f["edits"]]
    diags = [(f["path"], d) for f in report["files"] for d in f["diagnostics"]]
    for selector, file in case.no_edit:
        bad = sorted({e["rule"] for path, e in edits if _matches(e["rule"], selector) and _in(path, file)})
        if bad:
            problems.append(f"no-edit {selector}{'@' + file if file else ''}: got fixes of {', '.join(bad)}")
    for code, text in case.expect:
        if not any(d["code"] == code and text in d["message"] for _, d in diags):
            seen = "; ".join(f"{d['code']}: {d['message']}" for _, d in diags) or "none"
            problems.append(f"expect {code} {text!r}: not reported (diagnostics: {seen})")
    for code, file, text in case.edit:
        if not any(e["rule"] == code and text in e["replacement"] and _in(path, file) for path, e in edits):
            seen = "; ".join(f"{e['rule']}: {e['replacement']!r}" for _, e in edits) or "none"
            problems.append(f"edit {code} {text!r}: no such fix (fixes: {seen})")
    # The case's own expectation lines are comments the translation keeps: they hold every
    # output-has text, so they are left out of what the output is searched for.
    header = {line for line in (case.path / "expect.txt" if case.path.is_dir() else case.path).read_text(
        encoding="utf-8").splitlines() if line.startswith("// ") or case.path.is_dir()}
    outputs = {p.relative_to(out).as_posix(): "\n".join(
        line for line in p.read_text(encoding="utf-8", errors="replace").splitlines() if line not in header)
        for p in out.rglob("*") if p.is_file()}
    for want, items in ((True, case.output_has), (False, case.output_lacks)):
        for file, text in items:
            texts = [t for name, t in outputs.items() if _in(name, file)]
            present = any(text in t for t in texts)
            if present != want:
                problems.append(f"output {'lacks' if want else 'has'} {text!r}")
    return problems


CASES = all_cases()


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(ROOT).with_suffix("")) for p in CASES])
def test_soundness_case(path: Path, tmp_path: Path) -> None:
    case = parse_case(path)
    report, out = translate_case(case, tmp_path)
    problems = check(case, report, out)
    assert not problems, f"{case.id} ({case.kind}: {case.why})\n" + "\n".join(problems)


def test_the_suite_holds_its_floor_of_cases() -> None:
    """At least 80 programs a rewrite would break and 30 where it must happen, and every
    optimizing family among them."""
    kinds = [parse_case(p).kind for p in CASES]
    assert kinds.count("must-refuse") >= 80 and kinds.count("must-apply") >= 30, \
        f"{kinds.count('must-refuse')} must-refuse and {kinds.count('must-apply')} must-apply cases"
    groups = {p.parent.name for p in CASES}
    assert {"host_values", "launch_universe", "preprocessor", "call_graph", "cooperative_groups",
            "aliases", "fusion", "launch_bounds", "rebalance", "runtime"} <= groups, sorted(groups)


def test_a_case_that_does_not_hold_is_reported(tmp_path: Path) -> None:
    """The harness itself can fail: a must-refuse case on a program the pass rightly
    bounds reports the fix it forbids."""
    src = tmp_path / "bounded.cu"
    src.write_text("// soundness: must-refuse\n// why: a constant block of 256 is known\n"
                   "// no-edit: L001\n// expect: L002 \"unknown\"\n"
                   "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"
                   "void run(float* x) { k<<<1, 256>>>(x); }\n", encoding="utf-8")
    case = parse_case(src)
    report, out = translate_case(case, tmp_path / "t")
    problems = check(case, report, out)
    assert any(p.startswith("no-edit L001: got fixes of L001") for p in problems), problems
    assert any(p.startswith('expect L002 \'unknown\': not reported') for p in problems), problems


def test_a_malformed_expectation_is_named(tmp_path: Path) -> None:
    src = tmp_path / "bad.cu"
    src.write_text("// soundness: must-apply\n// why: x\n// edit: L001 unquoted\nint x;\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"expectation 3: want ID \"text\""):
        parse_case(src)
