"""Build every corpus program with nvcc and run it; each must print PASS and exit 0.

Meant for a machine with an NVIDIA GPU (the project's device machine):
    python3 scripts/run_corpus.py --out bench/results/corpus-h200.json
With --tree DIR it runs a translated copy of the corpus instead (what `--target cuda`
makes of each program: fused chains included), which must pass as the original does.
A program of several translation units (`sources` in the manifest) is built from all of
them into one binary. --dry-run prints each build command and runs nothing; --build-only
builds every program and runs none (a machine with nvcc but no GPU).
Library headers and shared objects are looked up in the nvidia/cu13 folders of the
nvidia-* Python packages (or --cuda-libs DIR, holding include/ and lib/).
The projects (`[[project]]` in the manifest) are built by their own build files: CMake
(`cmake -S DIR -B BUILD -DCMAKE_CUDA_ARCHITECTURES=NN && cmake --build BUILD`) or Make
(`make -C COPY`, in a copy of the folder), and each of their binaries must print PASS.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from translator.corpus import load_manifest, load_projects  # noqa: E402



def link_flag(library: str, dirs: list[Path]) -> str:
    """`-lNAME`, or `-l:libNAME.so.N` where the wheels ship only versioned names."""
    for d in dirs:
        names = sorted((p.name for p in (d / "lib").glob(f"lib{library}.so*")), key=len)
        if names:
            return f"-l:{names[0]}"
    return f"-l{library}"


def library_dirs(explicit: str | None) -> list[Path]:
    if explicit:
        return [Path(explicit)]
    found = []
    for entry in sys.path:
        for sub in ("nvidia/cu13", "nvidia/cu12"):
            candidate = Path(entry) / sub
            if (candidate / "include").is_dir():
                found.append(candidate)
        base = Path(entry) / "nvidia"
        if base.is_dir():  # older wheels: nvidia/<library>/{include,lib}
            found += [d for d in base.iterdir() if (d / "include").is_dir()]
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--cuda-libs")
    parser.add_argument("--out")
    parser.add_argument("--tree", metavar="DIR",
                        help="run the copies under DIR of a translated corpus/ tree (e.g. made with "
                             "`cu2hip translate corpus -o DIR --target cuda`) instead of the originals")
    parser.add_argument("--dry-run", action="store_true",
                        help="print each program's build command (and any source that is missing); run nothing")
    parser.add_argument("--build-only", action="store_true",
                        help="build every program with nvcc and run none")
    parser.add_argument("programs", nargs="*", help="corpus paths (default: all); any source of a program of several names it")
    args = parser.parse_args()
    dirs = library_dirs(args.cuda_libs)
    flags = [f for d in dirs for f in (f"-I{d / 'include'}", f"-L{d / 'lib'}", "-Xlinker", f"-rpath={d / 'lib'}")]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for program in load_manifest(ROOT):
            if args.programs and set(args.programs).isdisjoint(program.sources):
                continue
            exe = Path(tmp) / program.path.replace("/", "_").removesuffix(".cu")
            libs = [link_flag(lib, dirs) for lib in program.libs]
            # Every translation unit of the program, as written or as translated under --tree.
            sources = [ROOT / s if args.tree is None else Path(args.tree) / Path(s).relative_to("corpus")
                       for s in program.sources]
            command = ["nvcc", "-std=c++17", f"-arch={args.arch}", "-o", str(exe), *map(str, sources), *flags, *libs]
            if args.dry_run:
                missing = [str(s) for s in sources if not s.is_file()]
                results.append({"path": program.path, "passed": not missing})
                print(" ".join(command) + "".join(f"\n      missing: {m}" for m in missing), flush=True)
                continue
            build = subprocess.run(command, capture_output=True, text=True)
            entry = {"path": program.path, "built": build.returncode == 0}
            if len(sources) > 1:
                entry["sources"] = [str(s) for s in sources]
            elif args.tree is not None:
                entry["source"] = str(sources[0])
            if program.options:   # the translate options its translation is checked with
                entry["options"] = list(program.options)
            if build.returncode != 0:
                entry.update(passed=False, output=build.stderr[-2000:])
            elif args.build_only:
                entry.update(passed=True, output="")
            else:
                started = time.perf_counter()
                try:
                    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                                         env=dict(os.environ, LD_LIBRARY_PATH=os.pathsep.join(
                                             str(d / "lib") for d in dirs)))
                    out = run.stdout + run.stderr
                    entry.update(passed=run.returncode == 0 and "PASS" in run.stdout,
                                 exit_code=run.returncode, output=out[-2000:])
                except subprocess.TimeoutExpired:
                    entry.update(passed=False, output="timed out after 120 s")
                entry["seconds"] = round(time.perf_counter() - started, 3)
            results.append(entry)
            print(f"{('BUILT' if args.build_only else 'PASS') if entry['passed'] else 'FAIL'}  {program.path}", flush=True)
            if not entry["passed"]:
                print("      " + entry["output"].strip().replace("\n", "\n      ")[-1500:], flush=True)
        for project in load_projects(ROOT):
            if args.programs and project.path not in args.programs and \
                    set(args.programs).isdisjoint(project.sources(ROOT)):
                continue
            results += run_project(project, args, Path(tmp))
    passed = sum(r["passed"] for r in results)
    if args.dry_run:
        print(f"{len(results)} programs, {len(results) - passed} with missing sources")
        return 0 if passed == len(results) else 1
    print(f"{passed} {'built' if args.build_only else 'passed'}, {len(results) - passed} failed")
    if args.out:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip() if shutil.which("nvidia-smi") else \
            "none (nvidia-smi is not installed)"
        Path(args.out).write_text(json.dumps({
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "gpu": gpu, "host": platform.platform(),
            "nvcc": subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1],
            "results": results}, indent=2) + "\n")
    return 0 if passed == len(results) else 1


def project_commands(project, source: Path, build: Path, arch: str) -> list[list[str]]:
    """The commands that build a project from `source` in `build` (Make: `build` is a copy)."""
    if project.build == "cmake":
        return [["cmake", "-S", str(source), "-B", str(build), f"-DCMAKE_CUDA_ARCHITECTURES={arch.removeprefix('sm_')}",
                 "-DCMAKE_BUILD_TYPE=Release"], ["cmake", "--build", str(build), "-j", "4"]]
    return [["cp", "-r", str(source), str(build)], ["make", "-C", str(build), "-j", "4"]]


def run_project(project, args, tmp: Path) -> list[dict]:
    """Build a project with its own build files and run each of its binaries."""
    source = ROOT / project.path if args.tree is None else Path(args.tree) / Path(project.path).relative_to("corpus")
    build = tmp / project.path.replace("/", "_")
    commands = project_commands(project, source, build, args.arch)
    if args.dry_run:
        print("\n".join(" ".join(c) for c in commands) + ("" if source.is_dir() else f"\n      missing: {source}"),
              flush=True)
        return [{"path": project.path, "passed": source.is_dir()}]
    out = []
    for command in commands:
        step = subprocess.run(command, capture_output=True, text=True)
        if step.returncode != 0:
            out = [{"path": project.path, "built": False, "passed": False, "output": (step.stdout + step.stderr)[-2000:]}]
            break
    else:
        for binary in project.binaries:
            entry = {"path": f"{project.path}/{binary}", "built": True}
            if args.build_only:
                entry.update(passed=True, output="")
            else:
                started = time.perf_counter()
                try:
                    run = subprocess.run([str(build / binary)], capture_output=True, text=True, timeout=120)
                    entry.update(passed=run.returncode == 0 and "PASS" in run.stdout, exit_code=run.returncode,
                                 output=(run.stdout + run.stderr)[-2000:])
                except subprocess.TimeoutExpired:
                    entry.update(passed=False, output="timed out after 120 s")
                entry["seconds"] = round(time.perf_counter() - started, 3)
            out.append(entry)
    for entry in out:
        print(f"{('BUILT' if args.build_only else 'PASS') if entry['passed'] else 'FAIL'}  {entry['path']}", flush=True)
        if not entry["passed"]:
            print("      " + entry["output"].strip().replace("\n", "\n      ")[-1500:], flush=True)
    return out


if __name__ == "__main__":
    sys.exit(main())
