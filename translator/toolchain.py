"""The real compilers: run them (translator.compilers finds hipcc and nvcc and their versions).

Passes and commands use this module, never subprocess calls of their own. hipcc is
always run with HIP_PLATFORM=amd: with nvcc on PATH it would otherwise pick NVIDIA.

Each compiler runs in a process group of its own, with a time limit (`timeout`
seconds: `cu2hip report --compile-timeout`, or `compile-timeout` in the configuration);
on the limit, and when the command is interrupted (`stop_all`, which the callers run on
their way out), the whole group is killed: a hung compiler leaves no child behind. A
guard process (`_Guard`) kills the groups still running when the command ends however it
ends: a `cu2hip report` killed with SIGKILL, which runs no handler, leaves neither a
compiler nor what it started (hipcc's clang) running. What
a compiler prints is read as UTF-8, a byte that is not becoming U+FFFD.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from translator.compilers import (DEFAULT_TIMEOUT, hip_include_dirs, hipcc, installed_hip_version,  # noqa: F401
                                  nvcc)

if TYPE_CHECKING:
    import subprocess       # the annotations' (imported where a compile runs)


@dataclass(frozen=True)
class CompileResult:
    ok: bool
    command: tuple[str, ...]
    output: str


def missing_hip_headers(source: bytes) -> list[str]:
    """The `#include <dir/name.h>` headers of a HIP text that no HIP include folder has
    (a ROCm library whose -dev package is not installed)."""
    folders = hip_include_dirs()
    wanted = re.findall(rb"^[ \t]*#[ \t]*include[ \t]*<([\w.+-]+/[\w./+-]+)>", source, re.M)
    return [h.decode() for h in dict.fromkeys(wanted)
            if not any((folder / h.decode()).is_file() for folder in folders)]


@dataclass(frozen=True)
class MissingHeader:
    """A compile that stopped at an include the compiler did not find."""
    path: str           # the file whose #include failed
    line: int
    col: int
    name: str           # the header as the #include spells it


# clang (hipcc): `f.cu:2:10: fatal error: 'x.h' file not found`; gcc (nvcc's host
# compiler, cudafe): `f.cu:2:10: fatal error: x.h: No such file or directory`.
_NOT_FOUND = re.compile(r"^(.+?):(\d+):(\d+): fatal error: (?:'([^'\n]+)' file not found|"
                        r"([^:\n]+): No such file or directory)$", re.M)


def missing_header(output: str) -> MissingHeader | None:
    """The first include a compile's output says was not found, or None."""
    m = _NOT_FOUND.search(output)
    return MissingHeader(m[1], int(m[2]), int(m[3]), m[4] or m[5]) if m else None


_LIVE: set[subprocess.Popen] = set()
_LIVE_LOCK = threading.Lock()


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def stop_all() -> None:
    """Kill every compiler still running, with its children (the command is ending)."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for proc in live:
        _kill_group(proc)


@contextlib.contextmanager
def compilers():
    """Around code that runs compilers (from the main thread): an interrupt or a SIGTERM
    kills them all, with their children, before it ends the command."""
    previous = None
    if threading.current_thread() is threading.main_thread():
        def terminate(signum, frame):
            raise SystemExit(128 + signum)
        previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    except BaseException:
        stop_all()
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


# The guard: a process of its own session, started once, that reads `+PGID` and `-PGID`
# lines from a pipe whose writing end only this process holds, and at its end of file,
# which comes however this process ends (SIGKILL included), kills the groups still
# listed. No shell: the interpreter runs it.
_GUARD_PROGRAM = """
import os, signal, sys
groups = set()
for line in sys.stdin.buffer:
    try:
        pid = int(line[1:])
    except ValueError:
        continue
    (groups.add if line[:1] == b"+" else groups.discard)(pid)
for pid in groups:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
"""


class _Guard:
    """Kills the compilers' process groups when the command ends, even by SIGKILL, which
    runs no handler: a compiler's children (hipcc is a perl script that starts clang)
    are in its group, where no death signal of the command's would reach them."""

    def __init__(self):
        self.lock = threading.Lock()
        self.fd: int | None = None        # the pipe's writing end (close-on-exec)
        self.failed = False

    def _start(self) -> int | None:
        with self.lock:
            if self.fd is None and not self.failed and sys.executable and hasattr(os, "posix_spawn"):
                read, write = os.pipe()
                try:
                    os.posix_spawn(sys.executable, [sys.executable, "-I", "-c", _GUARD_PROGRAM], os.environ,
                                   file_actions=[(os.POSIX_SPAWN_DUP2, read, 0),
                                                 (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                                                 (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)],
                                   setsid=True)
                    self.fd = write
                except OSError:
                    os.close(write)
                    self.failed = True      # compilers run unguarded: what they start may outlive a kill
                finally:
                    os.close(read)
            return self.fd

    def preexec(self):
        """A `preexec_fn` for a compiler started with start_new_session (its group is
        its pid): the child lists its group with the guard before it runs the compiler.
        Until that exec the child holds the pipe too, so the guard cannot reach its end
        of file before the group is listed."""
        fd = self._start()
        if fd is None:
            return None

        def preexec() -> None:          # in the child, between fork and exec: no imports here
            try:
                os.write(fd, b"+%d\n" % os.getpid())
            except OSError:
                pass
        return preexec

    def release(self, proc: subprocess.Popen) -> None:
        """The group of `proc`, killed and waited for, is no longer the guard's."""
        if self.fd is not None:
            try:
                os.write(self.fd, b"-%d\n" % proc.pid)
            except OSError:
                pass


_GUARD = _Guard()


def _run(command: list[str], env: dict | None = None, timeout: float = DEFAULT_TIMEOUT) -> CompileResult:
    import subprocess       # here: a command that compiles nothing (a translation) does not import it
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True, preexec_fn=_GUARD.preexec())
    except OSError as exc:
        return CompileResult(False, tuple(command), f"cannot run {command[0]}: {exc.strerror or exc}")
    with _LIVE_LOCK:
        _LIVE.add(proc)
    try:
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.communicate()
            return CompileResult(False, tuple(command), f"timed out after {timeout:g} s (the compiler was stopped)")
        except BaseException:
            _kill_group(proc)
            proc.wait()
            raise
        _kill_group(proc)       # a child it left running in its group
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(proc)
        if proc.returncode is not None:
            _GUARD.release(proc)
    return CompileResult(proc.returncode == 0, tuple(command), out.decode("utf-8", "replace"))


# What a shell leaves alone unquoted: hipcc (a perl script) and nvcc hand some arguments to
# `sh -c` as they are (hipcc an input named `*.a`, its `-o` value in double quotes; nvcc
# its inputs and definitions), so a name with `$(...)` in it would run a command.
_SHELL_SAFE = re.compile(r"[A-Za-z0-9_./+,=-]+")
_SOURCE_SUFFIXES = (".cu", ".hip", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl")
_MACRO = re.compile(r"([A-Za-z_]\w*(?:\([\w\s,.]*\))?)(?:=(.*))?", re.S)
_WORD = re.compile(r"[\w+.-]+")


class _Refused(Exception):
    """An argument no compiler can be given safely (the reason says which)."""


class _Stage:
    """The names a compile is given: a path a shell could mangle is replaced by a link
    with a plain name in a private folder, and definitions a shell could mangle are
    written to a header the compile includes first (`-include`), so that no argument
    holds a character a shell reads; what the compiler prints names the originals again."""

    def __init__(self, folder: str):
        self.folder = folder
        self.names: dict[str, str] = {}         # a link's path -> the original's

    def _link(self, original: str, name: str, copy: bool = False) -> str:
        link = os.path.join(self.folder, name)
        if copy:
            shutil.copyfile(original, link)
        else:
            os.symlink(os.path.abspath(original), link)
        self.names[link] = original
        return link

    def source(self, path: str, suffix: str) -> tuple[list[str], str]:
        """The flags a source needs first, and its name: its own when plain, else a copy
        named `unitSUFFIX` (nvcc resolves a link and hands the real name to the shell),
        with its folder searched first (the includer's folder, where a quoted `#include`
        looks before any `-I`)."""
        if _SHELL_SAFE.fullmatch(path) and not path.startswith("-") and path.endswith(_SOURCE_SUFFIXES):
            return [], path
        folder = self.folder_flag(os.path.dirname(os.path.abspath(path)))
        return [folder], self._link(path, "unit" + suffix, copy=True)

    def folder_flag(self, folder: str) -> str:
        if _SHELL_SAFE.fullmatch(folder) and not folder.startswith("-"):
            return f"-I{folder}"
        return f"-I{self._link(folder, f'dir{len(self.names)}')}"

    def defines(self, defines, include: str) -> list[str]:
        if all(_SHELL_SAFE.fullmatch(d) and not d.startswith("-") for d in defines):
            return [f"-D{d}" for d in defines]
        lines = []
        for d in defines:
            match = _MACRO.fullmatch(d)
            if match is None or "\n" in d or "\r" in d or "\0" in d:
                raise _Refused(f"-D{d!r} is not a macro definition a compile can be given")
            value = match.group(2)
            lines.append(f"#define {match.group(1)} {'1' if value is None else value}\n")
        header = os.path.join(self.folder, "defines.h")
        with open(header, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.writelines(lines)
        return [include + header]

    def restore(self, output: str) -> str:
        for link in sorted(self.names, key=len, reverse=True):
            output = output.replace(link, self.names[link])
        return output


def _word(value: str, what: str) -> str:
    if not _WORD.fullmatch(value):
        raise _Refused(f"{what} {value!r} is not a name a compile can be given")
    return value


def _compile(head: list[str], path, include_dirs, defines, suffix: str, env: dict | None,
             timeout: float) -> CompileResult:
    """Run `head`, then the project's `-I`/`-D` flags (translator.compile_context) and the
    source, each under a name no shell can mangle (_Stage). The suffix names the
    compiler: `.hip` hipcc, `.cu` nvcc."""
    include = "-include" if suffix == ".hip" else "--pre-include="     # one argument: hipcc takes a lone word for an input
    with tempfile.TemporaryDirectory(prefix="cu2hip-stage-") as folder:
        if not _SHELL_SAFE.fullmatch(folder):       # a TMPDIR of odd characters
            return CompileResult(False, tuple(head), f"the temporary folder {folder!r} has a name no compiler "
                                                     "can be given safely: set TMPDIR")
        stage = _Stage(folder)
        try:
            first, source = stage.source(str(path), suffix)
            command = head + first + [stage.folder_flag(str(d)) for d in include_dirs]
            command += stage.defines(defines, include) + [source]
        except OSError as exc:
            return CompileResult(False, tuple(head), f"cannot stage {path}: {exc.strerror or exc}")
        except _Refused as exc:
            return CompileResult(False, tuple(head), str(exc))
        result = _run(command, env, timeout)
    return dataclasses.replace(result, output=stage.restore(result.output))


def hip_syntax_check(path: str | Path, offload_arch: str = "gfx90a",
                     include_dirs: tuple[str, ...] = (), defines: tuple[str, ...] = (),
                     std: str = "c++17", timeout: float = DEFAULT_TIMEOUT) -> CompileResult:
    """`HIP_PLATFORM=amd hipcc -x hip --offload-arch=ARCH -fsyntax-only FILE`."""
    tool = hipcc()
    if tool is None:
        raise FileNotFoundError("hipcc is not installed")
    env = dict(os.environ, HIP_PLATFORM="amd")
    try:
        head = [tool, "-x", "hip", f"--offload-arch={_word(offload_arch, 'offload arch')}", "-fsyntax-only",
                f"-std={_word(std, 'standard')}"]
    except _Refused as exc:
        return CompileResult(False, (tool,), str(exc))
    return _compile(head, path, include_dirs, defines, ".hip", env, timeout)


def nvcc_compile_check(path: str | Path, arch: str = "sm_90", include_dirs: tuple[str, ...] = (),
                       defines: tuple[str, ...] = (), std: str = "c++17",
                       timeout: float = DEFAULT_TIMEOUT) -> CompileResult:
    """Compile (no link) a CUDA file with nvcc."""
    tool = nvcc()
    if tool is None:
        raise FileNotFoundError("nvcc is not installed")
    try:
        head = [tool, f"-std={_word(std, 'standard')}", f"-arch={_word(arch, 'arch')}", "-c", "-o", os.devnull]
    except _Refused as exc:
        return CompileResult(False, (tool,), str(exc))
    return _compile(head, path, include_dirs, defines, ".cu", None, timeout)


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
                         defines: tuple[str, ...] = (), std: str = "c++17", timeout: float = DEFAULT_TIMEOUT) \
        -> tuple[CompileResult, list[KernelResources]]:
    """Compile a HIP file for the device (`-O3 --cuda-device-only`) with the resource-usage
    remarks, and read each kernel's registers, scratch, occupancy and spills from them."""
    tool = hipcc()
    if tool is None:
        raise FileNotFoundError("hipcc is not installed")
    env = dict(os.environ, HIP_PLATFORM="amd")
    try:
        head = [tool, "-x", "hip", f"--offload-arch={_word(offload_arch, 'offload arch')}", "--cuda-device-only",
                "-O3", "-c", f"-std={_word(std, 'standard')}", "-Rpass-analysis=kernel-resource-usage", "-o",
                os.devnull]
    except _Refused as exc:
        return CompileResult(False, (tool,), str(exc)), []
    result = _compile(head, path, include_dirs, defines, ".hip", env, timeout)
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
                          defines: tuple[str, ...] = (), std: str = "c++17", timeout: float = DEFAULT_TIMEOUT) \
        -> tuple[CompileResult, list[NvccResources]]:
    """Compile a CUDA file with `nvcc --resource-usage` and read each kernel's registers
    and spill stores from ptxas's report."""
    tool = nvcc()
    if tool is None:
        raise FileNotFoundError("nvcc is not installed")
    try:
        head = [tool, f"-std={_word(std, 'standard')}", f"-arch={_word(arch, 'arch')}", "-x", "cu", "-c",
                "--resource-usage", "-o", os.devnull]
    except _Refused as exc:
        return CompileResult(False, (tool,), str(exc)), []
    result = _compile(head, path, include_dirs, defines, ".cu", None, timeout)
    spills = {m.group(1): int(m.group(3)) for m in _PTXAS_FUNCTION.finditer(result.output)}
    kernels = [NvccResources(m.group(1), int(m.group(2)), spills.get(m.group(1), 0))
               for m in _PTXAS_USED.finditer(result.output)]
    return result, kernels
