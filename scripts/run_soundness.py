"""Run the soundness cases that are whole programs on an NVIDIA GPU: each as written and as
cu2hip translates it (`--target cuda`, with the case's own options), both built with nvcc.

    python3 scripts/run_soundness.py [--arch sm_90] [--out results.json] [CASE.cu ...]

A case is a program when it defines `main` and checks its result (it prints FAIL and exits
nonzero when wrong; tests/soundness/<group>/<name>.cu; the rest are fragments the
translator test reads). It passes when it exits 0 and prints no FAIL. Both builds must pass: a must-refuse case shows that the
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


def programs(paths: list[str]) -> list[Path]:
    found = [Path(p).resolve() for p in paths] if paths else sorted(CASES.glob("*/*.cu"))
    return [p for p in found if _MAIN.search(p.read_bytes()) and b'"FAIL' in p.read_bytes()]


def case_options(path: Path) -> list[str]:
    """The translate options of the case's `// options:` line, with `--target cuda`."""
    options: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("// "):
            break
        if line[3:].startswith("options:"):
            options = shlex.split(line[3:].split(":", 1)[1])
    if "--target" not in options:
        options += ["--target", "cuda"]
    return options


def _run(argv: list[str], cwd: Path | None = None, timeout: int = _TIMEOUT_S) -> tuple[int, str]:
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"
    return done.returncode, (done.stdout + done.stderr)[-2000:]


def check(path: Path, work: Path, arch: str, build_only: bool) -> dict:
    name = f"{path.parent.name}/{path.stem}"
    kind = next((l.split(":", 1)[1].strip() for l in path.read_text(encoding="utf-8").splitlines()
                 if l.startswith("// soundness:")), "")
    out = work / name.replace("/", "__")
    out.mkdir(parents=True, exist_ok=True)
    result: dict = {"case": name, "kind": kind}
    env_python = [sys.executable, "-m", "translator"]
    status, text = _run(env_python + ["translate", str(path), "-o", str(out / "translated"), "--no-cache", "-q",
                                      *case_options(path)], cwd=ROOT)
    translated = out / "translated" / path.name
    if status not in (0, 1) or not translated.exists():
        result.update(original="not run", translated="not translated", detail=text)
        return result
    for label, source in (("original", path), ("translated", translated)):
        binary = out / f"{label}.bin"
        status, text = _run(["nvcc", f"-arch={arch}", "-o", str(binary), str(source)], timeout=300)
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
    ap.add_argument("cases", nargs="*", help="case files (default: every program under tests/soundness)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 4)
    args = ap.parse_args(argv)
    cases = programs(args.cases)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cu2hip-soundness-") as tmp, ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: check(p, Path(tmp), args.arch, args.build_only), cases))
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
