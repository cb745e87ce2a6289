"""Run a CUDA program's HIP translation on the 64-lane model: HIP-CPU with scripts/model/wave64.h.

    python3 scripts/run_on_model.py corpus/warp/warp_ballot.cu --rocm-version 6.0
    python3 scripts/run_on_model.py prog.cu --rocm-version 7.0 --ignore W --keep out/
    python3 scripts/run_on_model.py corpus/warp/warp_mixed_variants.cu -D SUM_OFFSETS_FROM_WARPSIZE=0

Translates the program (each of `sources` for a corpus program of several translation
units, and the local `.cuh` headers beside it) with `--hip-kernel-execution-syntax`
(HIP-CPU launches through hipLaunchKernelGGL) at the given ROCm version, builds it with
g++ against HIP-CPU and the model header (which declares what that HIP version has:
`__activemask` and the `*_sync` builtins from 6.2, `__syncwarp` from 7.0), runs it and
exits with its status. HIP-CPU's folder: --hip-cpu, else $CU2HIP_HIP_CPU, else
../shared/hip-cpu beside the checkout. Needs g++ and TBB (apt-get install libtbb-dev).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from translator.passes import Options  # noqa: E402
from translator.pipeline import translate  # noqa: E402

HEADER = ROOT / "scripts" / "model" / "wave64.h"


def hip_cpu(explicit: str | None = None) -> Path | None:
    """HIP-CPU's folder (holding include/hip/hip_runtime.h), or None."""
    given = explicit or os.environ.get("CU2HIP_HIP_CPU")
    folder = Path(given) if given else ROOT.parent / "shared" / "hip-cpu"
    return folder if (folder / "include" / "hip" / "hip_runtime.h").is_file() else None


def tbb() -> bool:
    return any(Path(p).exists() for p in ("/usr/include/tbb/tbb.h", "/usr/include/oneapi/tbb.h"))


@dataclasses.dataclass(frozen=True)
class Run:
    built: bool
    log: str          # the compiler's output if it did not build, else the program's stderr
    returncode: int
    stdout: str

    @property
    def passed(self) -> bool:
        return self.built and self.returncode == 0 and "PASS" in self.stdout and "FAIL" not in self.stdout

    def why(self) -> str:
        if not self.built:
            return "does not build against HIP-CPU:\n" + self.log[-3000:]
        return f"exit {self.returncode}\n--- stdout\n{self.stdout[-2000:]}\n--- stderr\n{self.log[-2000:]}"


def translations(sources: list[Path], version: tuple[int, int], ignore: tuple[str, ...] = (),
                 options: dict | None = None) -> dict[str, bytes]:
    """The translation units and the local headers beside the first, translated, by file name."""
    folder = sorted(sources[0].parent.iterdir())
    # The headers beside the program are the run's local headers, as `translate` reads a tree's.
    headers = tuple((os.path.realpath(p), p.read_bytes()) for p in folder if p.suffix == ".cuh")
    opts = Options(rocm_version=version, hip_kernel_execution_syntax=True, ignore=ignore, local_headers=headers,
                   **(options or {}))
    out = {}
    for path in folder:
        if path in sources or path.suffix == ".cuh":
            out[path.name] = translate(str(path), path.read_bytes(), opts).output
    return out


def build_and_run(files: dict[str, bytes], units: list[str], version: tuple[int, int], folder: Path,
                  hip_cpu_folder: Path, timeout: int = 120, defines: tuple[str, ...] = ()) -> Run:
    """Write the files to `folder`, build `units` against HIP-CPU and the model header (and `-D` each of
    `defines`: another configuration of the same translation), run."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_bytes(text)
    exe = folder / "program"
    command = ["g++", "-std=c++17", "-O0", "-w", "-I", str(hip_cpu_folder / "include"), "-I", str(folder),
               "-include", str(HEADER), f"-DCU2HIP_MODEL_HIP_VERSION={version[0] * 100 + version[1]}",
               *[f"-D{d}" for d in defines],
               "-x", "c++", *[str(folder / u) for u in units], "-x", "none", "-o", str(exe), "-ltbb", "-lpthread"]
    build = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if build.returncode != 0:
        return Run(False, build.stderr, build.returncode, "")
    try:
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout, cwd=folder,
                             errors="replace")
    except subprocess.TimeoutExpired:
        return Run(True, f"timed out after {timeout} s", -1, "")
    return Run(True, run.stderr, run.returncode, run.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="+", help="the program's .cu files (the first holds main())")
    parser.add_argument("--rocm-version", default="7.0", help="the target HIP version (default 7.0)")
    parser.add_argument("--ignore", default="", help="rule ids or prefixes to drop, as translate's --ignore")
    parser.add_argument("--hip-cpu", help="HIP-CPU's folder (default: $CU2HIP_HIP_CPU or ../shared/hip-cpu)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="build the translation with this macro defined (another configuration)")
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and keep the translation and binary")
    args = parser.parse_args()
    folder = hip_cpu(args.hip_cpu)
    if folder is None:
        print("HIP-CPU not found: give --hip-cpu or set CU2HIP_HIP_CPU", file=sys.stderr)
        return 2
    version = tuple(int(x) for x in args.rocm_version.split("."))[:2]
    sources = [Path(s).resolve() for s in args.sources]
    files = translations(sources, version, tuple(i for i in args.ignore.split(",") if i))
    with tempfile.TemporaryDirectory() as tmp:
        run = build_and_run(files, [s.name for s in sources], version, Path(args.keep or tmp), folder,
                            defines=tuple(args.defines))
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.log)
    return run.returncode if run.built else 2


if __name__ == "__main__":
    sys.exit(main())
