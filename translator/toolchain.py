"""The real compilers: find hipcc and nvcc, their versions, and run them.

Passes and commands use this module, never subprocess calls of their own. hipcc is
always run with HIP_PLATFORM=amd: with nvcc on PATH it would otherwise pick NVIDIA.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from translator.mapping import Version


@dataclass(frozen=True)
class CompileResult:
    ok: bool
    command: tuple[str, ...]
    output: str


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


def missing_hip_headers(source: bytes) -> list[str]:
    """The `#include <dir/name.h>` headers of a HIP text that no HIP include folder has
    (a ROCm library whose -dev package is not installed)."""
    folders = hip_include_dirs()
    wanted = re.findall(rb"^[ \t]*#[ \t]*include[ \t]*<([\w.+-]+/[\w./+-]+)>", source, re.M)
    return [h.decode() for h in dict.fromkeys(wanted)
            if not any((folder / h.decode()).is_file() for folder in folders)]


def _run(command: list[str], env: dict | None = None, timeout: int = 300) -> CompileResult:
    try:
        proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return CompileResult(False, tuple(command), f"timed out after {timeout} s")
    return CompileResult(proc.returncode == 0, tuple(command), proc.stdout + proc.stderr)


def _context(include_dirs, defines) -> list[str]:
    """A compile's `-I` and `-D` flags (the project's: translator.compile_context)."""
    return [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]


def hip_syntax_check(path: str | Path, offload_arch: str = "gfx90a",
                     include_dirs: tuple[str, ...] = (), defines: tuple[str, ...] = (),
                     std: str = "c++17") -> CompileResult:
    """`HIP_PLATFORM=amd hipcc -x hip --offload-arch=ARCH -fsyntax-only FILE`."""
    tool = hipcc()
    if tool is None:
        raise FileNotFoundError("hipcc is not installed")
    env = dict(os.environ, HIP_PLATFORM="amd")
    command = [tool, "-x", "hip", f"--offload-arch={offload_arch}", "-fsyntax-only", f"-std={std}"]
    command += _context(include_dirs, defines) + [str(path)]
    return _run(command, env)


def nvcc_compile_check(path: str | Path, arch: str = "sm_90", include_dirs: tuple[str, ...] = (),
                       defines: tuple[str, ...] = (), std: str = "c++17") -> CompileResult:
    """Compile (no link) a CUDA file with nvcc."""
    tool = nvcc()
    if tool is None:
        raise FileNotFoundError("nvcc is not installed")
    command = [tool, f"-std={std}", f"-arch={arch}", "-c", "-o", os.devnull]
    command += _context(include_dirs, defines) + [str(path)]
    return _run(command)


@dataclass(frozen=True)
class KernelResources:
    """What HIP-Clang's `-Rpass-analysis=kernel-resource-usage` says of one kernel."""
    kernel: str            # the mangled name, as the remark gives it
    line: int
    vgprs: int
    agprs: int
    sgprs: int
    scratch_bytes: int     # per lane
    occupancy: int         # waves per SIMD
    vgpr_spills: int
    sgpr_spills: int


_REMARK = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):\d+: remark:\s+(?P<key>[^:\n]+?):\s*(?P<value>\S+) "
                     r"\[-Rpass-analysis=kernel-resource-usage\]", re.M)
_FIELDS = {"VGPRs": "vgprs", "AGPRs": "agprs", "SGPRs": "sgprs", "ScratchSize [bytes/lane]": "scratch_bytes",
           "Occupancy [waves/SIMD]": "occupancy", "VGPRs Spill": "vgpr_spills", "SGPRs Spill": "sgpr_spills"}


def hip_kernel_resources(path: str | Path, offload_arch: str = "gfx90a", include_dirs: tuple[str, ...] = (),
                         defines: tuple[str, ...] = (), std: str = "c++17") \
        -> tuple[CompileResult, list[KernelResources]]:
    """Compile a HIP file for the device (`-O3 --cuda-device-only`) with the resource-usage
    remarks, and read each kernel's registers, scratch, occupancy and spills from them."""
    tool = hipcc()
    if tool is None:
        raise FileNotFoundError("hipcc is not installed")
    env = dict(os.environ, HIP_PLATFORM="amd")
    command = [tool, "-x", "hip", f"--offload-arch={offload_arch}", "--cuda-device-only", "-O3", "-c", f"-std={std}",
               "-Rpass-analysis=kernel-resource-usage", "-o", os.devnull]
    command += _context(include_dirs, defines) + [str(path)]
    result = _run(command, env)
    found: list[dict] = []       # each kernel's fields, as its remarks come
    for match in _REMARK.finditer(result.output):
        key, value = match.group("key").strip(), match.group("value")
        if key == "Function Name":
            found.append({"kernel": value, "line": int(match.group("line"))})
        elif found and key in _FIELDS:
            found[-1][_FIELDS[key]] = int(value)
    return result, [KernelResources(**{f: k.get(f, 0) for f in KernelResources.__dataclass_fields__})
                    for k in found]


@dataclass(frozen=True)
class NvccResources:
    """What `nvcc --resource-usage` (ptxas) says of one kernel."""
    kernel: str            # the mangled name
    registers: int
    spill_bytes: int       # spill stores


_PTXAS_FUNCTION = re.compile(r"Function properties for (\S+)\n\s*(\d+) bytes stack frame, (\d+) bytes spill stores")
_PTXAS_USED = re.compile(r"Compiling entry function '([^']+)'.*?Used (\d+) registers", re.S)


def nvcc_kernel_resources(path: str | Path, arch: str = "sm_90", include_dirs: tuple[str, ...] = (),
                          defines: tuple[str, ...] = (), std: str = "c++17") \
        -> tuple[CompileResult, list[NvccResources]]:
    """Compile a CUDA file with `nvcc --resource-usage` and read each kernel's registers
    and spill stores from ptxas's report."""
    tool = nvcc()
    if tool is None:
        raise FileNotFoundError("nvcc is not installed")
    command = [tool, f"-std={std}", f"-arch={arch}", "-x", "cu", "-c", "--resource-usage", "-o", os.devnull]
    command += _context(include_dirs, defines) + [str(path)]
    result = _run(command)
    spills = {m.group(1): int(m.group(3)) for m in _PTXAS_FUNCTION.finditer(result.output)}
    kernels = [NvccResources(m.group(1), int(m.group(2)), spills.get(m.group(1), 0))
               for m in _PTXAS_USED.finditer(result.output)]
    return result, kernels
