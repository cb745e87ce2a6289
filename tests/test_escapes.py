"""Inputs that escaped as tracebacks, hangs, wrong exit codes or leftovers (issue 16,
items 3, 4, 6, 7 and 8): each gets a located error, a bounded wait, the right status, or
a clean tree."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from translator.cache import Cache
from translator.cli import main
from translator.passes import Options
from translator.pipeline import translate as translate_text

ROCM = ["--rocm-version", "6.0"]
GOOD = b"void f() { cudaFree(0); }\n"
KERNEL = b"__global__ void k(float* x) { x[threadIdx.x] = 1; }\nvoid f(float* x) { k<<<1, 64>>>(x); }\n"


def run(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, timeout=timeout,
                          env=env)


# --- 3: tracebacks -------------------------------------------------------------------------

def test_a_configuration_nested_too_deeply_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.cu2hip]\nselect = " + "[" * 700 + "]" * 700 + "\n")
    (tmp_path / "a.cu").write_bytes(GOOD)
    proc = run("translate", str(tmp_path / "a.cu"), "--examine")
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"{tmp_path / 'pyproject.toml'}:2:109: error: invalid TOML: " \
                                   "arrays or tables nested too deeply\n"


def _fake_compilers(tmp_path: Path, body: str) -> dict:
    """A PATH whose hipcc and nvcc run `body` (a shell script)."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name in ("hipcc", "nvcc"):
        tool = bin_ / name
        tool.write_text("#!/bin/sh\n" + body)
        tool.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}")


def test_report_reads_compiler_output_that_is_not_utf8(tmp_path: Path) -> None:
    env = _fake_compilers(tmp_path, "printf 'x.hip:1:1: error: \\377\\376 bad\\n'; exit 1\n")
    (tmp_path / "k.cu").write_bytes(KERNEL)
    proc = run("report", str(tmp_path / "k.cu"), *ROCM, "--no-cache", env=env)
    err, out = proc.stderr.decode(), proc.stdout.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert "did not compile for gfx90a: x.hip:1:1: error: \ufffd\ufffd bad" in out


# --- 4: hangs and unbounded reads ------------------------------------------------------------

@pytest.mark.parametrize("option", ["--rules", "--config"])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "folder"])
def test_a_fifo_or_device_given_as_rules_or_configuration_is_refused_at_once(tmp_path: Path, option: str,
                                                                            special: str) -> None:
    path = str(tmp_path / "f")
    if special == "fifo":
        os.mkfifo(path)
    elif special == "folder":
        os.mkdir(path)
    else:
        path = special
    (tmp_path / "a.cu").write_bytes(GOOD)
    started = time.monotonic()
    proc = run("translate", str(tmp_path / "a.cu"), "--examine", option, path, timeout=30)
    assert time.monotonic() - started < 20
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "Traceback" not in err and "MemoryError" not in err
    reason = "not a regular file"
    expected = f"{path}: error: cannot read the rules file: {reason}" if option == "--rules" else \
        f"{path}:1:1: error: cannot read: {reason}"
    assert err == expected + "\n"


def _alive(pid: str) -> bool:
    """Is the process running (a zombie that PID 1 has not reaped yet is not)?"""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_hung_compiler_is_stopped_at_the_timeout_with_its_children(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    env = _fake_compilers(tmp_path, f"sleep 300 &\necho $! >> {pids}\nsleep 300\n")
    (tmp_path / "k.cu").write_bytes(KERNEL)
    started = time.monotonic()
    proc = run("report", str(tmp_path / "k.cu"), *ROCM, "--no-cache", "--compile-timeout", "1.5", "-j", "1",
               env=env, timeout=60)
    assert time.monotonic() - started < 30
    assert proc.returncode == 0, proc.stderr.decode()
    assert "timed out after 1.5 s (the compiler was stopped)" in proc.stdout.decode()
    time.sleep(0.5)
    assert [pid for pid in pids.read_text().split() if _alive(pid)] == []


def test_the_compile_timeout_comes_from_the_configuration(tmp_path: Path) -> None:
    env = _fake_compilers(tmp_path, "sleep 300\n")
    (tmp_path / "cu2hip.toml").write_text("compile-timeout = 1\n")
    (tmp_path / "k.cu").write_bytes(KERNEL)
    proc = run("report", str(tmp_path / "k.cu"), *ROCM, "--no-cache", "-j", "1", env=env, timeout=60)
    assert "timed out after 1 s" in proc.stdout.decode()
    (tmp_path / "cu2hip.toml").write_text("compile-timeout = 0\n")
    proc = run("report", str(tmp_path / "k.cu"), *ROCM, env=env)
    assert proc.returncode == 2 and "'compile-timeout' must be a number of seconds > 0, not 0" in proc.stderr.decode()


def test_an_interrupted_report_stops_its_compilers(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    env = _fake_compilers(tmp_path, f"sleep 300 &\necho $! >> {pids}\nsleep 300\n")
    (tmp_path / "k.cu").write_bytes(KERNEL)
    proc = subprocess.Popen([sys.executable, "-m", "translator", "report", str(tmp_path / "k.cu"), *ROCM,
                             "--no-cache", "-j", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not pids.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    time.sleep(0.5)
    assert [pid for pid in pids.read_text().split() if _alive(pid)] == []


@pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="the guard is started with posix_spawn")
def test_a_compiler_dies_with_a_report_killed_by_sigkill(tmp_path: Path) -> None:
    # SIGKILL runs no handler: the compiler (in a process group of its own, which no
    # signal to the report's group reaches) must be killed by the guard, at the end of its pipe.
    pids = tmp_path / "pids"
    env = _fake_compilers(tmp_path, f"echo $$ >> {pids}\nexec sleep 300\n")
    (tmp_path / "k.cu").write_bytes(KERNEL)
    proc = subprocess.Popen([sys.executable, "-m", "translator", "report", str(tmp_path / "k.cu"), *ROCM,
                             "--no-cache", "-j", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    compiler = pids.read_text().split()[0]
    time.sleep(0.3)                     # past the exec: the sleep is the compiler's process
    assert _alive(compiler)
    proc.kill()
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while _alive(compiler) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(compiler)


def test_what_a_compiler_started_dies_with_a_report_killed_by_sigkill(tmp_path: Path) -> None:
    # hipcc is a perl script that starts clang: the compiler's own child, which a death
    # signal of the compiler's would not reach, lived on after `kill -9` of the report.
    # The fake compilers are Python programs (no shell), each starting a child as hipcc does.
    pids = tmp_path / "pids"
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name in ("hipcc", "nvcc"):
        tool = bin_ / name
        tool.write_text(f"#!{sys.executable}\nimport os, subprocess\n"
                        f"child = subprocess.Popen([{sys.executable!r}, '-c', 'import time; time.sleep(300)'])\n"
                        f"with open({str(pids)!r}, 'a') as f:\n    f.write(f'{{os.getpid()}} {{child.pid}}\\n')\n"
                        "child.wait()\n")
        tool.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}")
    (tmp_path / "k.cu").write_bytes(KERNEL)
    proc = subprocess.Popen([sys.executable, "-m", "translator", "report", str(tmp_path / "k.cu"), *ROCM,
                             "--no-cache", "-j", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (pids.exists() and pids.read_text().endswith("\n")) and time.monotonic() < deadline:
        time.sleep(0.05)
    started = pids.read_text().split()
    assert len(started) == 2 and all(_alive(pid) for pid in started)
    proc.kill()
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in started if _alive(pid)] == []


# --- 6: rules files ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules, message", [
    ("call foo(a) -> foo2(foo(a))\n",
     "1:1: error: the replacement calls 'foo' again: the rule would rewrite its own output on every run"),
    ("call bar(a) -> baz(a, 1)\ncall baz(a, b) -> bar(a)\n",
     "1:1: error: the replacement calls 'bar' again (through U002 at {path}:2:1): the rule would rewrite its own "
     "output on every run"),
])
def test_a_rule_that_feeds_itself_is_a_located_error(tmp_path: Path, rules: str, message: str) -> None:
    path = tmp_path / "r.rules"
    path.write_text(rules)
    (tmp_path / "a.cu").write_bytes(b"void f() { foo(1); bar(2); }\n")
    proc = run("translate", str(tmp_path / "a.cu"), "--examine", "--rules", str(path))
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"{path}:" + message.format(path=path) + "\n"


def test_rules_that_call_other_names_or_other_counts_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "r.rules"
    path.write_text("call foo(a) -> foo(a, 0)\ncall bar(a) -> baz(bar2(a))\ncall baz(a, b) -> qux(a)\n")
    assert main(["translate", str(tmp_path), "--examine", "-q", "--rules", str(path)]) == 0


def test_a_rules_file_may_begin_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "r.rules"
    path.write_bytes("\ufeffrename OLD_CHECK -> NEW_CHECK\n".encode())
    source = tmp_path / "a.cu"
    source.write_bytes(b"void f() { OLD_CHECK(1); }\n")
    proc = run("translate", str(source), "--stdout", "--rules", str(path), *ROCM)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == b"void f() { NEW_CHECK(1); }\n"


def test_a_configuration_may_begin_with_a_byte_order_mark(tmp_path: Path) -> None:
    (tmp_path / "cu2hip.toml").write_bytes("\ufeffrocm-version = '6.2'\n".encode())
    (tmp_path / "a.cu").write_bytes(GOOD)
    proc = run("translate", str(tmp_path / "a.cu"), "--examine")
    assert proc.returncode == 0 and "ROCm 6.2 (from " in proc.stdout.decode() + proc.stderr.decode()


def test_a_configuration_naming_a_missing_rules_file_is_an_error_at_its_key(tmp_path: Path) -> None:
    (tmp_path / "cu2hip.toml").write_text("rocm-version = '6.0'\n\nrules = ['nosuch.rules']\n")
    (tmp_path / "a.cu").write_bytes(GOOD)
    proc = run("translate", str(tmp_path / "a.cu"), "--examine")
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"{tmp_path / 'cu2hip.toml'}:3:1: error: 'rules' names " \
                                   f"{tmp_path / 'nosuch.rules'}, which is missing or unreadable\n"


# --- 7: errors and exit codes -------------------------------------------------------------------

def test_a_missing_input_fails_the_command(tmp_path: Path, capsys) -> None:
    missing = str(tmp_path / "nosuch.cu")
    assert main(["translate", missing, "-o", str(tmp_path / "out"), *ROCM]) == 1
    assert main(["check", missing, *ROCM]) == 1
    assert main(["diff", missing, *ROCM]) == 1
    assert main(["report", missing, "--no-compile", *ROCM]) == 1
    assert capsys.readouterr().err.count(f"{missing}:1:1: error: no such file or directory [I001]") == 4


def test_stdout_with_a_missing_file_says_the_file_is_missing(tmp_path: Path, capsys) -> None:
    missing = str(tmp_path / "nosuch.cu")
    assert main(["translate", missing, "--stdout", *ROCM]) == 1
    assert capsys.readouterr().err == f"{missing}:1:1: error: no such file or directory [I001]\n"


@pytest.mark.parametrize("against", ["nosuch", "a.cu"])
def test_diff_against_a_missing_folder_or_a_file_is_an_error(tmp_path: Path, capsys, against: str) -> None:
    (tmp_path / "a.cu").write_bytes(GOOD)
    assert main(["diff", str(tmp_path / "a.cu"), "--against", str(tmp_path / against), *ROCM]) == 2
    reason = "no such folder" if against == "nosuch" else "not a folder"
    assert capsys.readouterr().err == f"cu2hip: error: --against {tmp_path / against}: {reason} (give the folder " \
                                      "of the translated tree)\n"


# --- 8: leftovers ---------------------------------------------------------------------------------

def test_a_cache_that_cannot_be_written_leaves_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    import translator.cache as cache_module
    real = os.fdopen

    class Full:
        def __init__(self, fd, mode):
            self.handle = real(fd, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(cache_module.os, "fdopen", Full)
    cache = Cache(tmp_path / "c")
    result = translate_text("a.cu", GOOD, Options(rocm_version=(6, 0)))
    for i in range(5):
        cache.put(f"{i:064x}", result)
    assert [p for p in (tmp_path / "c").rglob("*") if p.is_file()] == []


def test_the_tools_temporary_files_are_never_copied_and_old_ones_are_removed(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(GOOD)
    old, young = tree / ".a.cu.k2j4h1x0.cu2hip-tmp", tree / ".b.cu.p0q9r8s7.cu2hip-tmp"
    for path in (old, young):
        path.write_bytes(b"half a translation")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    assert main(["translate", str(tree), "-o", str(tmp_path / "o"), "-q", *ROCM]) == 0
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["a.cu"]
    assert not old.exists() and young.exists()       # a young one may be another run's, being written


def test_a_link_to_a_folder_is_mirrored_as_a_link_or_reported(tmp_path: Path, capsys) -> None:
    tree, outside = tmp_path / "t", tmp_path / "elsewhere"
    (tree / "real").mkdir(parents=True)
    outside.mkdir()
    (tree / "real" / "a.cu").write_bytes(GOOD)
    (outside / "b.cu").write_bytes(GOOD)
    (tree / "linked").symlink_to("real")
    (tree / "out_of_tree").symlink_to(outside)
    out = tmp_path / "o"
    assert main(["translate", str(tree), "-o", str(out), "-q", *ROCM]) == 0
    assert capsys.readouterr().err == f"{tree / 'out_of_tree'}:1:1: warning: symbolic link to a folder outside the " \
                                      f"tree ({outside}); not followed: neither translated nor mirrored [I010]\n"
    assert os.readlink(out / "linked") == "real" and (out / "linked" / "a.cu").read_bytes() == \
        b"#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n"
    assert not (out / "out_of_tree").exists()


def test_in_place_refuses_a_read_only_file_and_says_so(tmp_path: Path, capsys) -> None:
    source = tmp_path / "ro.cu"
    source.write_bytes(GOOD)
    source.chmod(0o444)
    assert main(["translate", str(source), "--in-place", "-q", *ROCM]) == 1
    assert capsys.readouterr().err == f"{source}:1:1: error: cannot write: the file is read-only (mode 444); make it " \
                                      "writable to rewrite it in place; the file is unchanged [I005]\n"
    assert source.read_bytes() == GOOD and stat.S_IMODE(source.stat().st_mode) == 0o444


def test_a_configuration_value_checked_after_loading_is_an_error_at_its_key(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(GOOD)
    for text, message in (("jobs = 1\nrocm-version = '99.1'\n", "2:1: error: 'rocm-version': '99.1' is not a ROCm "
                                                                "release cu2hip knows (1.0 to 7.0)"),
                          ("\n\nselect = ['Z999']\n", "3:1: error: 'select': 'Z999' matches no rule (see `cu2hip "
                                                      "rules`)")):
        (tmp_path / "cu2hip.toml").write_text(text)
        proc = run("translate", str(tmp_path / "a.cu"), "--examine")
        assert proc.returncode == 2
        assert proc.stderr.decode() == f"{tmp_path / 'cu2hip.toml'}:{message}\n"


@pytest.mark.parametrize("option", ["--o-stats", "--report"])
def test_a_fifo_nobody_reads_as_an_output_file_is_an_error_not_a_wait(tmp_path: Path, option: str) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    (tmp_path / "a.cu").write_bytes(GOOD)
    proc = run("translate", str(tmp_path / "a.cu"), "--examine", option, str(fifo), *ROCM, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.decode().endswith(f"cu2hip: error: {option}: cannot write {fifo}: a FIFO that no process "
                                         "reads\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node takes root")
def test_an_output_file_that_is_a_device_is_not_replaced(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.cu").write_bytes(GOOD)
    device = tmp_path / "a.hip"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))       # a /dev/null of its own
    assert main(["translate", str(tmp_path / "a.cu"), "-o", str(device), "-q", *ROCM]) == 1
    assert capsys.readouterr().err == f"{device}:1:1: error: cannot write: a device or socket, not a regular file; " \
                                      "the file is unchanged [I005]\n"
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_an_input_that_is_a_link_loop_fails_the_command(tmp_path: Path, capsys) -> None:
    (tmp_path / "loop.cu").symlink_to("loop.cu")
    assert main(["translate", str(tmp_path / "loop.cu"), "-o", str(tmp_path / "out"), "-q", *ROCM]) == 1
    assert f"{tmp_path / 'loop.cu'}:1:1: error: cannot read: symbolic link loop; skipped [I001]" in \
        capsys.readouterr().err


def test_an_include_whose_name_holds_a_nul_byte_is_no_file(tmp_path: Path, capsys) -> None:
    # Found by the rules campaign: a header map wrote a NUL into an #include, and the
    # second run's walk of the tree's local includes raised ValueError.
    (tmp_path / "a.cu").write_bytes(b'#include "h\0.cuh"\n' + GOOD)
    assert main(["translate", str(tmp_path), "--examine", "-q", *ROCM]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_a_header_kernels_figures_come_from_its_includer_whatever_bytes_the_name_holds() -> None:
    """A header named with a byte that is not UTF-8 (k\\xff.cuh, a surrogate in its str):
    the report's lookup of the file that includes it raised UnicodeEncodeError (found by
    bench/fuzz.py --kind names)."""
    from translator.output.kernels import _from_includer
    header = os.fsdecode(b"k\xff.cuh")
    figures = {"a.cu": {"kern": "figures of kern"}, header: {}}
    outputs = {"a.cu": b'#include "k\xff.cuh"\nint main() {}\n'}
    assert _from_includer(figures, outputs, {"file": header, "kernel": "kern"}) == "figures of kern"
    assert _from_includer(figures, {"a.cu": b'#include "k.cuh"\n'}, {"file": header, "kernel": "kern"}) is None


def test_a_nul_in_a_compilation_database_is_an_error_naming_the_entry(tmp_path: Path, capsys) -> None:
    """Issue 24 item 8 (found again by bench/fuzz.py --kind compdb): a NUL in an entry's
    file or flags raised ValueError (embedded null byte) from os calls."""
    (tmp_path / "a.cu").write_bytes(b"__global__ void k() {}\n")
    build = tmp_path / "build"
    build.mkdir()
    (build / "compile_commands.json").write_text(
        '[{"directory": "%s", "file": "a.cu", "arguments": ["nvcc", "-I\\u0000x", "-c", "a.cu"]}]' % tmp_path)
    assert main(["report", str(tmp_path / "a.cu"), "-p", str(build), "--no-compile", *ROCM]) == 2
    err = capsys.readouterr().err
    assert err == f"cu2hip: error: {build / 'compile_commands.json'}: entry 0: a NUL character in \"file\", " \
                  "\"directory\" or a flag\n"
    assert main(["report", str(tmp_path / "a.cu"), "-D", "X=\0", "--no-compile", *ROCM]) == 2
    assert "a NUL character" in capsys.readouterr().err


def test_a_terminal_control_a_message_quotes_is_escaped_in_github_annotations() -> None:
    """A diagnostic's message that quotes a path holding ESC (L001 names the launch's
    place) wrote it raw into the annotation (found by bench/fuzz.py --kind names)."""
    from translator.output.github import escape_data
    assert escape_data("at /t/-x\x1b[31m.cu:4:44\nnext \x85 100%") == "at /t/-x\\x1b[31m.cu:4:44%0Anext \\u0085 100%25"
