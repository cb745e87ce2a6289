"""Run the soundness cases that are whole programs on an NVIDIA GPU: each as written and as
cu2hip translates it (`--target cuda`, with the case's own options), both built with nvcc.

    python3 scripts/run_soundness.py [--arch sm_90] [--out results.json] [CASE.cu | CASE/ ...]

A case is a program when it defines `main` and checks its result (it prints FAIL and exits
nonzero when wrong; tests/soundness/<group>/<name>.cu; the rest are fragments the
translator test reads). A folder case (tests/soundness/<group>/<name>/, its expectations
in expect.txt) is a program when exactly one of its files defines `main` and one checks
the result: it is translated as a tree, as the test suite translates it (the folder
without expect.txt, so that its local headers are translated with the files that include
them), and built from its translation units, each source of the folder (`.cu`, `.cpp`,
`.cc`, `.cxx`, `.c`) that no file of the folder includes, the main file among them, with
the folder's headers beside them. It passes when it exits 0 and prints no FAIL. Both builds must pass: a must-refuse case shows that the
program is right as written and stays right because the rewrite was refused; a must-apply
case that the rewrite kept it right. A case whose original fails is reported as a bad
case (it proves nothing). Meant for the project's device machine (an H200); with
--build-only it builds both forms and runs neither (a machine with nvcc and no GPU).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "soundness"
_MAIN = re.compile(rb"^\s*int\s+main\s*\(", re.M)
_TIMEOUT_S = 120
_SOURCES = (".cu", ".cpp", ".cc", ".cxx", ".c")
_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


def _files(case: Path) -> list[Path]:
    """The files of a folder case, its expectations left out, in a stable order."""
    return sorted(p for p in case.rglob("*") if p.is_file() and p.relative_to(case).as_posix() != "expect.txt")


def _is_program(case: Path) -> bool:
    if case.is_dir():
        texts = [p.read_bytes() for p in _files(case)]
        return sum(bool(_MAIN.search(t)) for t in texts) == 1 and any(b'"FAIL' in t for t in texts)
    return case.suffix == ".cu" and _MAIN.search(case.read_bytes()) is not None and b'"FAIL' in case.read_bytes()


def _case_of(path: Path) -> Path:
    """The folder case a file named on the command line belongs to (a folder with an
    expect.txt, among the parents of the file), or the file itself."""
    return next((q for q in path.parents if (q / "expect.txt").is_file()), path) if path.is_file() else path


def programs(paths: list[str]) -> list[Path]:
    """The cases named (files or folders; a file of a folder case names its folder), or every
    case under tests/soundness, that are programs."""
    found = [_case_of(Path(p).resolve()) for p in paths] if paths else \
        sorted(p for p in CASES.glob("*/*") if p.is_dir() or p.suffix == ".cu")
    return [p for p in dict.fromkeys(found) if _is_program(p)]


def expectations(case: Path) -> list[str]:
    """The expectation lines of a case: a file's leading `// ` lines, a folder's expect.txt."""
    if case.is_dir():
        return (case / "expect.txt").read_text(encoding="utf-8").splitlines()
    lines = []
    for line in case.read_text(encoding="utf-8").splitlines():
        if not line.startswith("// "):
            break
        lines.append(line[3:])
    return lines


def case_options(path: Path) -> list[str]:
    """The translate options of the case's `options:` line, with `--target cuda`."""
    options: list[str] = []
    for line in expectations(path):
        if line.startswith("options:"):
            options = shlex.split(line.split(":", 1)[1])
    if "--target" not in options:
        options += ["--target", "cuda"]
    return options


def translation_units(case: Path) -> list[Path]:
    """What a case is built from, relative to its folder: a file case is itself; a folder's
    sources that no file of the folder includes (by a name relative to the including file
    or to the folder)."""
    if not case.is_dir():
        return [Path(case.name)]
    files = _files(case)
    included = set()
    for f in files:
        for name in _INCLUDE.findall(f.read_bytes()):
            for base in (f.parent, case):
                target = (base / name.decode("utf-8", "replace")).resolve()
                if target.is_file():
                    included.add(target)
    return [f.relative_to(case) for f in files if f.suffix in _SOURCES and f.resolve() not in included]


def _run(argv: list[str], cwd: Path | None = None, timeout: int = _TIMEOUT_S) -> tuple[int, str]:
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"
    return done.returncode, (done.stdout + done.stderr)[-2000:]


def check(path: Path, work: Path, arch: str, build_only: bool, nvcc: str = "nvcc") -> dict:
    name = f"{path.parent.name}/{path.stem if path.is_file() else path.name}"
    kind = next((line.split(":", 1)[1].strip() for line in expectations(path) if line.startswith("soundness:")), "")
    out = work / name.replace("/", "__")
    out.mkdir(parents=True, exist_ok=True)
    result: dict = {"case": name, "kind": kind}
    env_python = [sys.executable, "-m", "translator"]
    # A folder is translated as a tree, its expectations left out (as tests/test_soundness.py
    # does): its local headers are translated with the files that include them.
    tree = path
    if path.is_dir():
        tree = out / "case" / path.name
        shutil.copytree(path, tree, ignore=shutil.ignore_patterns("expect.txt"))
    status, text = _run(env_python + ["translate", str(tree), "-o", str(out / "translated"), "--no-cache", "-q",
                                      *case_options(path)], cwd=ROOT)
    units = translation_units(path)
    result["units"] = [u.as_posix() for u in units]
    translated = [out / "translated" / u for u in units]
    if status not in (0, 1) or not all(t.exists() for t in translated):
        result.update(original="not run", translated="not translated", detail=text)
        return result
    base = path if path.is_dir() else path.parent
    for label, sources in (("original", [base / u for u in units]), ("translated", translated)):
        binary = out / f"{label}.bin"
        status, text = _run([nvcc, f"-arch={arch}", "-o", str(binary), *map(str, sources)], timeout=300)
        if status != 0:
            result[label], result[label + "_detail"] = "build failed", text
            continue
        if build_only:
            result[label] = "built"
            continue
        status, text = _run([str(binary)])
        result[label] = "pass" if status == 0 and "FAIL" not in text else f"fail (exit {status})"
        result[label + "_detail"] = text.strip()[-400:]
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", help="case files and folders (default: every program under tests/soundness)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--nvcc", default="nvcc", help="the nvcc to build with (default: the one on PATH)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 4)
    args = ap.parse_args(argv)
    cases = programs(args.cases)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cu2hip-soundness-") as tmp, ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: check(p, Path(tmp), args.arch, args.build_only, args.nvcc), cases))
    bad = 0
    for r in results:
        ok = r["original"] in ("pass", "built") and r["translated"] in ("pass", "built")
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {r['case']:60} {r['kind']:12} original: {r['original']:18} "
              f"translated: {r['translated']}")
        if not ok:
            for key in ("detail", "original_detail", "translated_detail"):
                if r.get(key):
                    print("     " + r[key].replace("\n", "\n     "))
    print(f"{len(results)} programs, {len(results) - bad} ok, {bad} not, in {time.monotonic() - start:.0f} s")
    if args.out:
        Path(args.out).write_text(json.dumps({"results": results}, indent=1) + "\n", encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
