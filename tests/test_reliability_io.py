"""Reliability of reading and writing: what a refused file does to --stdout, links (loops,
devices, links inside a tree) in every command, workers that outlive their command,
outputs that would overwrite each other or the inputs, and what the summary and
--strict count. Each test is named after the behaviour it pins."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import translator.inputs
from translator.cli import main
from translator.passes import Options
from translator.pipeline import translate

ROCM = ["--rocm-version", "6.0"]
OPTIONS = Options(rocm_version=(6, 0))
GOOD = b"void f() { cudaFree(0); }\n"
OTHER = b"void g() { cudaMalloc(0, 4); }\n"
HIP_GOOD = translate("x.cu", GOOD, OPTIONS).output


def run(*args: str, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, timeout=timeout, cwd=cwd)


def files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink())


def summary(stderr: bytes) -> str:
    return stderr.decode().splitlines()[-1]


# --- 1. --stdout ----------------------------------------------------------------------------

def test_stdout_exits_1_when_it_prints_no_translation(tmp_path: Path):
    binary = tmp_path / "b.cu"
    binary.write_bytes(b"int a;\n\0\n")
    dangling = tmp_path / "gone.cu"
    dangling.symlink_to(tmp_path / "missing.cu")
    for path, code in ((binary, "I002"), (dangling, "I001")):
        proc = run("translate", str(path), "--stdout", *ROCM)
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout == b""
        assert f"[{code}]" in proc.stderr.decode()
    proc = run("translate", str(tmp_path / "ok.cu"), "--stdout", *ROCM)  # missing: said so, and a failure
    assert proc.returncode == 1
    assert proc.stderr.decode() == f"{tmp_path / 'ok.cu'}:1:1: error: no such file or directory [I001]\n"


def test_stdout_exits_1_for_a_file_over_the_size_limit(tmp_path: Path, monkeypatch, capsysbinary):
    monkeypatch.setattr(translator.inputs, "MAX_FILE_BYTES", 8)
    big = tmp_path / "big.cu"
    big.write_bytes(GOOD)
    assert main(["translate", str(big), "--stdout", *ROCM]) == 1
    out, err = capsysbinary.readouterr()
    assert out == b"" and b"[I004]" in err


def test_stdout_still_exits_0_with_a_translation(tmp_path: Path):
    good = tmp_path / "ok.cu"
    good.write_bytes(GOOD)
    proc = run("translate", str(good), "--stdout", *ROCM)
    assert proc.returncode == 0 and proc.stdout == HIP_GOOD


# --- 2. links in trees ---------------------------------------------------------------------

def loop_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "ok.cu").write_bytes(GOOD)
    (tree / "loop1.cu").symlink_to("loop2.cu")
    (tree / "loop2.cu").symlink_to("loop1.cu")
    (tree / "self.h").symlink_to("self.h")
    (tree / "notes.txt").symlink_to("notes.txt")
    return tree


def test_a_symbolic_link_loop_in_a_tree_is_a_diagnostic_and_the_run_goes_on(tmp_path: Path):
    tree = loop_tree(tmp_path)
    (tree / "inc.cu").write_bytes(b'#include "self.h"\n' + GOOD)
    out = tmp_path / "out"
    proc = run("translate", str(tree), "-o", str(out), *ROCM)
    err = proc.stderr.decode()
    assert "Traceback" not in err
    for name in ("loop1.cu", "loop2.cu", "self.h", "notes.txt"):
        assert f"{tree / name}:1:1: error: cannot read: symbolic link loop; skipped [I001]" in err.splitlines()
    assert proc.returncode == 0      # errors fail the run with --strict only
    assert files(out) == ["inc.cu", "ok.cu"]
    assert (out / "ok.cu").read_bytes() == HIP_GOOD
    proc = run("translate", str(tree / "loop1.cu"), "-o", str(out), "--strict", *ROCM)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr.decode()
    assert f"{tree / 'loop1.cu'}:1:1: error: cannot read: symbolic link loop; skipped [I001]" in \
        proc.stderr.decode().splitlines()


def test_a_link_to_a_device_or_fifo_is_never_read(tmp_path: Path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "ok.cu").write_bytes(b'#include "zero.h"\n#include "pipe.h"\n' + GOOD)
    (tree / "z.cu").symlink_to("/dev/zero")
    (tree / "zero.h").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo")
    (tree / "pipe.h").symlink_to(tmp_path / "fifo")
    (tree / "data.bin").symlink_to("/dev/zero")
    started = time.monotonic()
    proc = run("translate", str(tree), "-o", str(tmp_path / "out"), *ROCM, timeout=30)
    err = proc.stderr.decode()
    for name in ("z.cu", "zero.h", "pipe.h", "data.bin"):
        assert f"{tree / name}:1:1: warning: not a regular file; skipped [I007]" in err.splitlines()
    assert proc.returncode == 0, err
    assert files(tmp_path / "out") == ["ok.cu"]
    proc = run("translate", str(tree / "z.cu"), "-o", str(tmp_path / "out2"), *ROCM, timeout=30)
    assert f"{tree / 'z.cu'}:1:1: warning: not a regular file; skipped [I007]" in proc.stderr.decode()
    proc = run("translate", str(tree), "--in-place", "--strict", *ROCM, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 25


def test_a_link_inside_the_tree_points_at_the_mirrored_file_in_the_output(tmp_path: Path):
    tree = tmp_path / "tree"
    (tree / "a").mkdir(parents=True)
    (tree / "a" / "k.cu").write_bytes(GOOD)
    (tree / "abs.cu").symlink_to(tree / "a" / "k.cu")       # absolute, into the tree
    (tree / "rel.cu").symlink_to("a/k.cu")                  # relative, into the tree
    (tree / "a" / "up.cu").symlink_to("../rel.cu")          # a link to a link
    out = tmp_path / "out"
    proc = run("translate", str(tree), "-o", str(out), *ROCM)
    assert proc.returncode == 0, proc.stderr
    assert os.readlink(out / "abs.cu") == "a/k.cu"
    assert os.readlink(out / "rel.cu") == "a/k.cu"
    assert os.readlink(out / "a" / "up.cu") == "k.cu"
    for link in ("abs.cu", "rel.cu", "a/up.cu"):
        assert (out / link).is_symlink() and (out / link).resolve() == (out / "a" / "k.cu").resolve(), link
        assert (out / link).read_bytes() == HIP_GOOD, link
    assert (tree / "a" / "k.cu").read_bytes() == GOOD


def test_a_folder_link_loop_is_not_followed(tmp_path: Path):
    tree = tmp_path / "tree"
    (tree / "a").mkdir(parents=True)
    (tree / "a" / "k.cu").write_bytes(GOOD)
    (tree / "a" / "b").symlink_to("..")
    (tree / "c").symlink_to("c")
    for command in (["translate", str(tree), "-o", str(tmp_path / "out")], ["check", str(tree)],
                    ["diff", str(tree)]):
        proc = run(*command, *ROCM, timeout=30)
        assert "Traceback" not in proc.stderr.decode(), command
    # Not followed: the link to a folder of the tree is mirrored as a link (issue 16).
    assert files(tmp_path / "out") == ["a/b", "a/k.cu"] and os.readlink(tmp_path / "out" / "a" / "b") == ".."


# --- 3. workers ----------------------------------------------------------------------------

def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")     # a zombie has ended: nothing reaps it in some containers


def _kill_and_watch_workers(tmp_path: Path, command: list[str]) -> None:
    tree = tmp_path / "big"
    tree.mkdir()
    body = "".join(f"__global__ void k{i}(float *x) {{ x[threadIdx.x] = {i}; }}\n"
                   f"void h{i}(float *p) {{ cudaMalloc(&p, 4); k{i}<<<1, 1>>>(p); cudaDeviceSynchronize(); }}\n"
                   for i in range(100)).encode()
    for i in range(400):
        (tree / f"f{i:03}.cu").write_bytes(body)
    parent = subprocess.Popen([*command, "translate", str(tree), "-o", str(tmp_path / "out"), "-j", "2",
                               "--no-cache", "-q", *ROCM], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            workers |= {pid for pid in _children(parent.pid) if _running(pid)}
            time.sleep(0.05)
        assert len(workers) >= 2, f"no workers seen: {parent.poll()} {parent.stderr.read() if parent.poll() else ''}"
        time.sleep(0.5)     # translating now
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 5
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = [pid for pid in workers if _running(pid)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    for pid in alive:
        os.kill(pid, signal.SIGKILL)   # only the workers this test saw start
    assert alive == [], "workers outlived their command"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the parent death signal is Linux's")
def test_workers_end_when_their_command_is_killed(tmp_path: Path):
    _kill_and_watch_workers(tmp_path, [sys.executable, "-m", "translator"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the workers")
def test_workers_end_with_their_command_without_the_parent_death_signal(tmp_path: Path):
    script = ("import sys, translator.commands.run as r; r._parent_death_signal = lambda: False; "
              "from translator.cli import main; sys.exit(main(sys.argv[1:]))")
    _kill_and_watch_workers(tmp_path, [sys.executable, "-c", script])


# --- 4. outputs ----------------------------------------------------------------------------

def test_a_file_reached_by_several_paths_is_translated_once_and_written_to_each(tmp_path: Path):
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(GOOD)
    (tree / "l.cu").symlink_to("a.cu")
    (tmp_path / "top.cu").symlink_to(tree / "a.cu")
    for i, order in enumerate(([tree / "l.cu", tree], [tree, tree / "l.cu"])):
        out = tmp_path / f"out{i}"
        proc = run("translate", *map(str, order), str(tree / "a.cu"), str(tree / "." / "a.cu"), "-o", str(out),
                   *ROCM)
        assert proc.returncode == 0, proc.stderr
        assert summary(proc.stderr).startswith("cu2hip: 1 files, 1 changed")
        assert (out / "a.cu").read_bytes() == HIP_GOOD and (out / "l.cu").read_bytes() == HIP_GOOD
    out = tmp_path / "out-top"
    proc = run("translate", str(tree / "a.cu"), str(tmp_path / "top.cu"), "-o", str(out), *ROCM)
    assert summary(proc.stderr).startswith("cu2hip: 1 files, 1 changed")
    assert (out / "t" / "a.cu").read_bytes() == HIP_GOOD and (out / "top.cu").read_bytes() == HIP_GOOD


def test_two_files_for_one_output_path_are_an_error_and_neither_is_written(tmp_path: Path):
    work = tmp_path / "w"
    (work / "deep" / "x").mkdir(parents=True)
    (work / "deep" / "b").mkdir()
    (work / "b").mkdir()
    (work / "x").symlink_to("deep/x")
    (work / "b" / "k.cu").write_bytes(GOOD)
    (work / "deep" / "b" / "k.cu").write_bytes(OTHER)    # x/../b/k.cu: `..` of the folder x leads to
    (work / "c.cu").write_bytes(GOOD)
    out = tmp_path / "out"
    proc = run("translate", "x/../b/k.cu", "b/k.cu", "c.cu", "-o", str(out), "--strict", *ROCM, cwd=work)
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert f"b/k.cu:1:1: error: x/../b/k.cu and b/k.cu are different files with one output path, " \
           f"{out / 'b' / 'k.cu'}; neither is written [I008]" in err.splitlines()
    assert files(out) == ["c.cu"]
    assert "1 errors" in summary(proc.stderr)


def test_an_output_folder_that_is_an_input_folder_is_a_usage_error(tmp_path: Path):
    tree = tmp_path / "t"
    (tree / "x").mkdir(parents=True)
    (tree / "x" / "a.cu").write_bytes(GOOD)
    (tree / "y.cu").write_bytes(GOOD)
    (tmp_path / "alias").symlink_to("t")
    for args, cwd in (([str(tree), "-o", str(tree)], None), ([".", "-o", "."], tree),
                      ([str(tree / "x"), str(tree / "y.cu"), "-o", str(tree)], None),
                      (["y.cu", "-o", "."], tree), ([str(tmp_path / "alias" / "y.cu"), "-o", str(tree)], None)):
        proc = run("translate", *args, *ROCM, cwd=cwd)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "--in-place" in proc.stderr.decode() and "would overwrite" in proc.stderr.decode(), args
    assert (tree / "y.cu").read_bytes() == GOOD and (tree / "x" / "a.cu").read_bytes() == GOOD
    # A translation under the output folder given as an input (pre-commit passes them) is still skipped.
    proc = run("translate", str(tree / "y.cu"), str(tree / "x" / "a.cu"), "-o", str(tree / "x"), *ROCM)
    assert proc.returncode == 0, proc.stderr
    assert (tree / "x" / "y.cu").read_bytes() == HIP_GOOD and (tree / "x" / "a.cu").read_bytes() == GOOD


def test_the_summary_counts_write_failures_as_errors_and_warnings_apart(tmp_path: Path):
    tree = tmp_path / "t"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "k.cu").write_bytes(GOOD)
    (tree / "ok.cu").write_bytes(GOOD)
    os.mkfifo(tree / "pipe.cu")
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").write_bytes(b"a file where a folder must go\n")
    proc = run("translate", str(tree), "-o", str(out), *ROCM)
    err = proc.stderr.decode()
    assert proc.returncode == 1
    assert f"{out / 'sub' / 'k.cu'}:1:1: error: cannot write:" in err and "[I005]" in err
    assert ", 1 errors, 1 warnings;" in summary(proc.stderr)


def test_strict_fails_on_errors_but_never_on_warnings_alone(tmp_path: Path):
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "ok.cu").write_bytes(GOOD)
    os.mkfifo(tree / "pipe.cu")                               # I007
    (tmp_path / "outside.cu").write_bytes(GOOD)
    (tree / "link.cu").symlink_to(tmp_path / "outside.cu")    # I006 in place
    (tree / "bad.cu").write_bytes(b"int a; // \xff\n")          # I003
    proc = run("translate", str(tree), "-o", str(tmp_path / "out"), "--strict", *ROCM)
    assert proc.returncode == 0, proc.stderr
    assert "[I007]" in proc.stderr.decode() and "[I003]" in proc.stderr.decode()
    assert ", 0 errors, 2 warnings;" in summary(proc.stderr)
    proc = run("translate", str(tree), "--in-place", "--strict", *ROCM)
    assert proc.returncode == 0, proc.stderr
    assert "[I006]" in proc.stderr.decode()
    (tree / "bin.cu").write_bytes(b"\0")                     # I002, an error
    proc = run("translate", str(tree), "-o", str(tmp_path / "out2"), "--strict", *ROCM)
    assert proc.returncode == 1 and ", 1 errors, 2 warnings" in summary(proc.stderr)


def test_a_file_outside_the_configured_folder_is_a_diagnostic(tmp_path: Path):
    root = tmp_path / "r"
    (root / "src").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.cu2hip]\noutput = "hip"\n')
    (root / "src" / "k.cu").write_bytes(GOOD)
    (tmp_path / "other.cu").write_bytes(GOOD)
    proc = run("translate", str(tmp_path / "other.cu"), str(root / "src" / "k.cu"), "--config",
               str(root / "pyproject.toml"), *ROCM)
    err = proc.stderr.decode()
    assert "Traceback" not in err
    assert f"{tmp_path / 'other.cu'}:1:1: error: outside {root}, the folder the output folder mirrors; " \
           "not translated [I009]" in err.splitlines()
    assert (root / "hip" / "src" / "k.cu").read_bytes() == HIP_GOOD


# --- 5. check and diff ---------------------------------------------------------------------

def test_check_and_diff_report_link_loops_and_never_read_devices(tmp_path: Path):
    tree = loop_tree(tmp_path)
    os.mkfifo(tree / "pipe.cu")
    (tree / "z.cu").symlink_to("/dev/zero")
    (tree / "ok.cu").write_bytes(b'#include "zero.h"\n' + GOOD)
    (tree / "zero.h").symlink_to("/dev/zero")
    translated = tmp_path / "hip"
    translated.mkdir()
    for command in (["check", str(tree)], ["check", str(tree), "-o", str(translated)], ["diff", str(tree)],
                    ["diff", str(tree), "--against", str(translated)]):
        proc = run(*command, *ROCM, timeout=30)
        err = proc.stderr.decode()
        assert "Traceback" not in err, command
        assert f"{tree / 'loop1.cu'}:1:1: error: cannot read: symbolic link loop; skipped [I001]" in \
            err.splitlines(), command
        assert f"{tree / 'pipe.cu'}:1:1: warning: not a regular file; skipped [I007]" in err.splitlines(), command
    assert proc.stdout.count(b"+++ ") == 1     # ok.cu, the one file that could be read


def test_a_fifo_where_a_translation_goes_is_never_read(tmp_path: Path):
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "empty.cu").write_bytes(b"")         # its translation is empty too: the sizes agree
    (tree / "ok.cu").write_bytes(GOOD)
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "ok.cu")
    proc = run("check", str(tree), "-o", str(out), *ROCM, timeout=30)
    assert proc.returncode == 1 and f"{out / 'ok.cu'}: missing:" in proc.stderr.decode()
    proc = run("diff", str(tree), "--against", str(out), "--strict", *ROCM, timeout=30)
    assert proc.returncode == 0 and b"+#include <hip/hip_runtime.h>" in proc.stdout
    os.mkfifo(out / "empty.cu")
    proc = run("translate", str(tree), "-o", str(out), *ROCM, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert (out / "empty.cu").is_file() and (out / "ok.cu").read_bytes() == HIP_GOOD


def test_diff_strict_fails_on_an_unreadable_input(tmp_path: Path):
    tree = loop_tree(tmp_path)
    assert run("diff", str(tree), "--strict", *ROCM).returncode == 1
    (tree / "loop1.cu").unlink()
    (tree / "self.h").unlink()
    assert run("diff", str(tree), "--strict", *ROCM).returncode == 0


def test_no_write_goes_through_a_link_below_the_output_folder(tmp_path: Path, capsys) -> None:
    """Issue 24 item 3: a dangling link tree/sub -> victim is mirrored as a link; once
    tree/sub is a folder, the next run wrote tree/sub's files into victim/. A link below -o
    is never followed (it is refused with I005, naming it); -o itself may be a link."""
    from translator.cli import main
    victim = tmp_path / "victim"
    victim.mkdir()
    tree, out = tmp_path / "tree", tmp_path / "out"
    tree.mkdir()
    (tree / "a.cu").write_bytes(b"__global__ void k() {}\n")
    (tree / "sub").symlink_to(victim / "sub")
    assert main(["translate", str(tree), "-o", str(out), "-q", "--rocm-version", "6.0"]) == 0
    assert os.readlink(out / "sub") == str(victim / "sub")
    (tree / "sub").unlink()
    (tree / "sub").mkdir()
    (tree / "sub" / "b.cu").write_bytes(b"void f() { cudaDeviceSynchronize(); }\n")
    capsys.readouterr()
    assert main(["translate", str(tree), "-o", str(out), "-q", "--rocm-version", "6.0"]) == 1
    err = capsys.readouterr().err
    assert f"{out / 'sub' / 'b.cu'}:1:1: error: cannot write: {out / 'sub'} is a symbolic link inside the output " \
           "folder: not followed (remove it); the file is unchanged [I005]" in err
    assert list(victim.iterdir()) == []
    # The user's own -o naming a link is followed: that is where they asked for it.
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "o2").symlink_to(tmp_path / "elsewhere")
    assert main(["translate", str(tree), "-o", str(tmp_path / "o2"), "-q", "--rocm-version", "6.0"]) == 0
    assert (tmp_path / "elsewhere" / "sub" / "b.cu").read_bytes() == \
        b"#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n"


# Every command that writes to stdout (check writes only to stderr), over one CUDA file (`{a}`).
_WRITERS = [["diff", "{a}", "--format", f] for f in ("text", "patch", "json", "sarif", "markdown", "github")]
_WRITERS += [["report", "{a}", "--no-compile", "--format", f] for f in ("text", "json", "markdown", "html")]
_WRITERS += [["translate", "{a}", "--stdout"], ["translate", "{a}", "--examine"],
             ["translate", "{a}", "--examine", "--print-stats-csv"],
             ["rules"], ["rules", "--format", "json"], ["rules", "H001"], ["toolchain-file"]]


def _writer(args: list[str], tmp_path: Path) -> list[str]:
    (tmp_path / "a.cu").write_bytes(GOOD)
    return [a.format(a=tmp_path / "a.cu") for a in args] + \
        (ROCM + ["--no-cache"] if args[0] in ("diff", "report", "translate") else [])


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", _WRITERS, ids=" ".join)
def test_stdout_on_a_full_device_is_a_one_line_error(args: list[str], tmp_path: Path) -> None:
    # A traceback (OSError: [Errno 28]) before, or an I005 naming the input for --stdout.
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "translator", *_writer(args, tmp_path)], stdout=full,
                              stderr=subprocess.PIPE, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err, err
    assert err.splitlines()[-1] == "cu2hip: error: cannot write to standard output: No space left on device"
    assert err.count("standard output") == 1


@pytest.mark.parametrize("args", _WRITERS, ids=" ".join)
def test_stdout_whose_reader_went_away_ends_quietly(args: list[str], tmp_path: Path) -> None:
    # `cu2hip diff ... | head`: a BrokenPipeError traceback before; now the command ends as
    # a tool the SIGPIPE ended, saying nothing.
    proc = subprocess.Popen([sys.executable, "-m", "translator", *_writer(args, tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()         # before the command has started: its first write fails
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 128 + signal.SIGPIPE, err
    assert "Traceback" not in err and "Broken pipe" not in err and "standard output" not in err, err


def test_a_pools_translations_are_written_by_its_workers_and_reported_in_order(tmp_path: Path, monkeypatch,
                                                                                capsys):
    # Issue 23: the parent wrote every result, one after another, while the workers waited
    # on it; each worker now writes what it translates (below the output folder, as the
    # parent did), and the parent prints what was written and what failed, in job order.
    import translator.commands.run as run_module
    tree = tmp_path / "t"
    tree.mkdir()
    for name in ("a.cu", "b.cu", "c.cu", "d.cu"):
        (tree / name).write_bytes(GOOD)
    out = tmp_path / "out"
    out.mkdir()
    (out / "c.cu").mkdir()              # a folder where c.cu's translation must go
    writers = tmp_path / "writers"
    real = run_module.write_if_different

    def write(path, data, like, root=None):
        with open(writers, "a") as log:
            log.write(f"{os.getpid()} {path.name} {root}\n")
        return real(path, data, like, root)
    monkeypatch.setattr(run_module, "write_if_different", write)
    assert main(["translate", str(tree), "-o", str(out), "-j", "2", "--no-cache", *ROCM]) == 1
    err = capsys.readouterr().err
    logged = [line.split() for line in writers.read_text().splitlines()]
    assert sorted(name for _, name, _ in logged) == ["a.cu", "b.cu", "c.cu", "d.cu"]
    assert {root for _, _, root in logged} == {str(out)}
    assert str(os.getpid()) not in {pid for pid, _, _ in logged}
    assert [(out / n).read_bytes() for n in ("a.cu", "b.cu", "d.cu")] == [main_output(GOOD)] * 3
    assert [line for line in err.splitlines() if "cannot write" in line] == [
        f"{out / 'c.cu'}:1:1: error: cannot write: not a regular file; the file is unchanged [I005]"]
    assert ", 1 errors, 0 warnings;" in err.splitlines()[-1]


def main_output(source: bytes) -> bytes:
    return translate("x.cu", source, Options(rocm_version=(6, 0))).output
