"""The compilers of this machine: where hipcc and nvcc are, the HIP version hipcc's
headers say and HIP's include folders, found without starting a process, and how long
a compile may run by default.

Apart from translator.toolchain, which runs the compilers (and re-exports these):
resolving a run's settings reads them, and a run that translates compiles nothing.
"""

from __future__ import annotations

import os
import re
import shutil
from functools import cache
from pathlib import Path

from translator.versions import Version

DEFAULT_TIMEOUT = 300.0     # seconds a compile may run (`cu2hip report --compile-timeout`)


@cache
def hipcc() -> str | None:
    return shutil.which("hipcc")


@cache
def nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found is None and Path("/usr/local/cuda/bin/nvcc").exists():
        found = "/usr/local/cuda/bin/nvcc"
    return found


@cache
def installed_hip_version() -> Version | None:
    """HIP's major.minor from the hip_version.h next to hipcc (no process is started:
    a pre-commit hook runs this on every file)."""
    tool = hipcc()
    if tool is None:
        return None
    prefix = Path(os.path.realpath(tool)).parent.parent
    for candidate in (prefix / "include/hip/hip_version.h", Path("/usr/include/hip/hip_version.h"),
                      Path("/opt/rocm/include/hip/hip_version.h")):
        try:
            text = candidate.read_text(errors="replace")
        except OSError:
            continue
        major = re.search(r"#define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
        minor = re.search(r"#define\s+HIP_VERSION_MINOR\s+(\d+)", text)
        if major and minor:
            return int(major.group(1)), int(minor.group(1))
    return None


def hip_include_dirs() -> tuple[Path, ...]:
    """The folders hipcc searches for HIP's and the ROCm libraries' headers."""
    tool = hipcc()
    if tool is None:
        return ()
    prefix = Path(os.path.realpath(tool)).parent.parent
    return tuple(dict.fromkeys(p for p in (prefix / "include", Path("/usr/include"), Path("/opt/rocm/include"))
                               if p.is_dir()))
