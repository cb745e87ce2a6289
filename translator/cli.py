"""The `cu2hip` command."""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from translator import __version__
from translator import diagnostics as dg
from translator.frontend import QualifierMacros
from translator.mapping import parse_version, version_str
from translator.passes import DEFAULT_ROCM_VERSION, Options
from translator.pipeline import Result, translate
from translator.stats import Stats
from translator.toolchain import installed_hip_version

CUDA_SUFFIXES = frozenset({".cu", ".cuh"})
CXX_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".ipp", ".tpp"})
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


class UsageError(Exception):
    pass


@dataclass(frozen=True)
class Job:
    source: Path          # the file to read
    destination: Path | None   # where its translation goes (-o), None otherwise
    display: str          # the path as diagnostics show it
    included: bool = False  # a local header that a translated file includes, whatever its suffix


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return _translate(args)
    except UsageError as exc:
        print(f"cu2hip: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cu2hip", description="Translate CUDA C++ to HIP C++.")
    parser.add_argument("--version", action="version", version=f"cu2hip {__version__}")
    sub = parser.add_subparsers(dest="command")
    t = sub.add_parser("translate", help="translate files and trees",
                       description="Translate CUDA files and trees to HIP. Diagnostics go to stderr "
                                   "as path:line:col: severity: message [ID].")
    t.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    out = t.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="DIR", help="write translations under DIR, mirroring the input tree")
    out.add_argument("--in-place", action="store_true", help="rewrite the files (atomically)")
    out.add_argument("--stdout", action="store_true", help="write the translation of one file to stdout")
    out.add_argument("--examine", action="store_true", help="statistics only, write nothing (implies --print-stats)")
    t.add_argument("--target", choices=("hip", "cuda"), default="hip",
                   help="hip (default): translate to HIP; cuda: keep CUDA, run only the optimizing passes")
    t.add_argument("--rocm-version", metavar="X.Y",
                   help="the ROCm/HIP version the output must compile with (default: the installed hipcc's, "
                        f"else {version_str(DEFAULT_ROCM_VERSION)})")
    t.add_argument("--roc", action="store_true", help="map cuBLAS/cuRAND/cuSPARSE/cuSOLVER to roc* libraries")
    t.add_argument("--miopen", action="store_true", help="map cuDNN to MIOpen")
    t.add_argument("--experimental", action="store_true", help="translate APIs that HIP marks experimental")
    t.add_argument("--use-hip-data-types", action="store_true",
                   help="use hipDataType for library data types (the tables' default; accepted for HIPIFY scripts)")
    syntax = t.add_mutually_exclusive_group()
    syntax.add_argument("--hip-kernel-execution-syntax", action="store_true",
                        help="rewrite k<<<...>>>(...) as hipLaunchKernelGGL(...)")
    syntax.add_argument("--cuda-kernel-execution-syntax", action="store_true",
                        help="keep k<<<...>>>(...) (the default)")
    t.add_argument("--only-translated", action="store_true",
                   help="with -o, write only CUDA files, the headers they include and files that change "
                        "(by default every file of the tree is written, translated or copied)")
    t.add_argument("--copy-all", action="store_true",
                   help="with -o, copy every other file too (the default; accepted for HIPIFY scripts)")
    t.add_argument("--print-stats", action="store_true", help="statistics per file and in total")
    t.add_argument("--strict", action="store_true", help="exit 1 when any error diagnostic is reported")
    t.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="translate N files at a time")
    t.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    return parser


def _options(args) -> Options:
    if args.rocm_version:
        try:
            version = parse_version(args.rocm_version)
        except ValueError:
            raise UsageError(f"--rocm-version: not a version: {args.rocm_version!r}") from None
        if version is None:
            raise UsageError("--rocm-version: empty")
    else:
        version = installed_hip_version() or DEFAULT_ROCM_VERSION
    return Options(target=args.target, rocm_version=version, roc=args.roc, miopen=args.miopen,
                   experimental=args.experimental, use_hip_data_types=args.use_hip_data_types,
                   hip_kernel_execution_syntax=args.hip_kernel_execution_syntax)


def _translate(args) -> int:
    options = _options(args)
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if not (args.output or args.in_place or args.stdout or args.examine):
        raise UsageError("say where the output goes: -o DIR, --in-place, --stdout or --examine")
    problems: list[dg.Diagnostic] = []
    jobs, copies, macros = _collect(args, problems)
    if args.only_translated and args.copy_all:
        raise UsageError("--only-translated and --copy-all contradict each other")
    if args.stdout and len(jobs) != 1:
        raise UsageError(f"--stdout takes exactly one file ({len(jobs)} given)")
    # Qualifier macros defined in one header and used in another (HOST_DEVICE ...).
    options = dataclasses.replace(options, qualifier_macros=macros)
    for d in problems:
        print(d.format(), file=sys.stderr)
    total = Stats()
    stats_stream = sys.stderr if args.stdout else sys.stdout
    print_stats = args.print_stats or args.examine
    errors = len(problems)
    write_failed = False
    only_translated = args.only_translated
    progress = Progress(sys.stderr, len(jobs)) if sys.stderr.isatty() and not args.quiet and len(jobs) > 1 else None
    for done, (job, result) in enumerate(_run(jobs, options, args.jobs), 1):
        if progress is not None:
            progress.clear()
        for d in result.diagnostics:
            print(d.format(), file=sys.stderr)
        errors += result.errors
        try:
            if result.skipped and result.errors:
                pass   # not translated (binary, unreadable, too large): nothing is written
            elif args.stdout:
                sys.stdout.buffer.write(result.output)
                sys.stdout.flush()
            elif args.in_place:
                if result.changed:
                    # Through a symbolic link the user named: rewrite the file it points to.
                    target = Path(os.path.realpath(job.source))
                    _write_atomic(target, result.output, like=target, durable=True)
            elif job.destination is not None:
                if result.changed or job.source.suffix in CUDA_SUFFIXES or job.included or not only_translated:
                    _write_atomic(job.destination, result.output, like=job.source)
        except OSError as exc:
            write_failed = True
            where = job.destination if job.destination is not None and not args.in_place else job.source
            print(dg.Diagnostic(str(where), 1, 1, dg.ERROR, f"cannot write: {exc.strerror or exc}; "
                                "the file is unchanged", "I005").format(), file=sys.stderr)
        if print_stats:
            one = Stats()
            one.add(result, count_lines=True)
            stats_stream.write(one.render(job.display))
        total.add(result, count_lines=print_stats)
        if progress is not None:
            progress.show(done, job.display)
    if progress is not None:
        progress.clear()
    for src, dst in copies:
        try:
            if src.is_symlink():
                dst.parent.mkdir(parents=True, exist_ok=True)
                if dst.is_symlink() or dst.exists():
                    dst.unlink()
                os.symlink(os.readlink(src), dst)
            else:
                _copy_atomic(src, dst)
        except OSError as exc:
            write_failed = True
            print(dg.Diagnostic(str(dst), 1, 1, dg.ERROR, f"cannot write: {exc.strerror or exc}", "I005").format(),
                  file=sys.stderr)
    if print_stats and total.files > 1:
        stats_stream.write(total.render("total"))
    if not args.quiet:
        passes = ", ".join(f"{k}: {v}" for k, v in sorted(total.by_rule.items())) or "none"
        copied = f"{len(copies)} copied, " if copies else ""
        print(f"cu2hip: {total.files} files, {total.changed_files} changed, {copied}{total.converted} edits ({passes}), "
              f"{total.errors + len(problems)} errors, {total.warnings} warnings", file=sys.stderr)
    # A failed write breaks the command's contract whatever --strict says.
    return 1 if write_failed or (args.strict and errors) else 0


class Progress:
    """`[done/total] path` on one terminal line, cleared before anything else is printed."""

    def __init__(self, stream, total: int):
        self.stream, self.total, self.width = stream, total, 0

    def show(self, done: int, path: str) -> None:
        columns = shutil.get_terminal_size((80, 20)).columns
        line = f"[{done}/{self.total}] {path}"[:max(columns - 1, 10)]
        self.stream.write("\r" + line + " " * max(self.width - len(line), 0))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _run(jobs: list[Job], options: Options, workers: int):
    if workers == 1 or len(jobs) < 2:
        for job in jobs:
            yield job, _translate_one(job, options)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from zip(jobs, pool.map(_translate_one, jobs, [options] * len(jobs), chunksize=4))


def _translate_one(job: Job, options: Options) -> Result:
    try:
        data = job.source.read_bytes()
    except OSError as exc:
        result = Result(job.display, b"", b"", skipped=True)
        result.diagnostics = [dg.Diagnostic(job.display, 1, 1, dg.ERROR, f"cannot read: {exc.strerror}", "I001")]
        return result
    return translate(job.display, data, options)


def _collect(args, problems: list[dg.Diagnostic]) -> tuple[list[Job], list[tuple[Path, Path]], frozenset[bytes]]:
    """The files to translate (and, with --copy-all, the others to copy), each with its
    destination, and the qualifier macros their definitions establish."""
    out_dir = Path(args.output).resolve() if args.output else None
    complete = out_dir is not None and not args.only_translated   # -o mirrors the whole tree
    jobs: dict[Path, Job] = {}
    copies: list[tuple[Path, Path]] = []
    trees: list[Path] = []
    for raw in args.paths:
        root = Path(raw)
        if not root.exists():
            problems.append(dg.Diagnostic(raw, 1, 1, dg.ERROR, "no such file or directory", "I001"))
            continue
        if root.is_file():
            dest = out_dir / root.name if out_dir else None
            jobs.setdefault(root.resolve(), Job(root, dest, str(root)))
            continue
        for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: problems.append(
                dg.Diagnostic(e.filename or raw, 1, 1, dg.ERROR, f"cannot read: {e.strerror}", "I001"))):
            here = Path(dirpath)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                 and (out_dir is None or (here / d).resolve() != out_dir))
            for name in sorted(filenames):
                path = here / name
                rel = path.relative_to(root)
                dest = out_dir / rel if out_dir else None
                wanted = path.suffix in CUDA_SUFFIXES or path.suffix.lower() in CXX_SUFFIXES
                mirrored = dest is not None and (wanted or complete)
                if path.is_symlink():
                    # A link to a file of the tree stays a link (its target is translated
                    # in its own right); a link out of the tree is translated as a file
                    # with -o and left alone in place.
                    inside = _inside(Path(os.path.realpath(path)), root)
                    if inside or args.in_place or args.examine or args.stdout:
                        if inside and mirrored:
                            copies.append((path, dest))
                        elif not inside and args.in_place and wanted:
                            problems.append(dg.Diagnostic(str(path), 1, 1, dg.WARNING, "symbolic link to a "
                                                          "file outside the tree; not rewritten", "I006"))
                        continue
                if path.exists() and not path.is_file():
                    # A FIFO, socket or device (or a link to one) is never read: it could block or never end.
                    if wanted or mirrored:
                        problems.append(dg.Diagnostic(str(path), 1, 1, dg.WARNING,
                                                      "not a regular file; skipped", "I007"))
                    continue
                if wanted:
                    jobs.setdefault(path.resolve(), Job(path, dest, str(path)))
                elif mirrored:
                    copies.append((path, dest))
        trees.append(root)
    macros = _read_jobs(jobs, trees, out_dir)
    # A file found to be an included local header is translated, not copied.
    copies = [(src, dst) for src, dst in copies if src.is_symlink() or src.resolve() not in jobs]
    return list(jobs.values()), copies, macros


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root.resolve())
    except ValueError:
        return False
    return path.exists()


def _read_jobs(jobs: dict[Path, Job], trees: list[Path], out_dir: Path | None) -> frozenset[bytes]:
    """Read every file once: add the local headers the files of a tree include
    (`#include "x.inc"`, whatever the suffix), and collect the qualifier macros."""
    macros = QualifierMacros()
    tree_roots = [(root, root.resolve()) for root in trees]
    pending = list(jobs.values())
    while pending:
        job = pending.pop()
        try:
            data = job.source.read_bytes()
        except OSError:
            continue   # reported when the file itself is translated
        macros.add(data)
        for match in _LOCAL_INCLUDE.finditer(data):
            target = job.source.parent / match.group(1).decode("utf-8", "replace")
            resolved = target.resolve()
            if resolved in jobs:
                # A header a translated file includes is written with it, even unchanged.
                jobs[resolved] = dataclasses.replace(jobs[resolved], included=True)
                continue
            if not target.is_file():
                continue
            inside = next((resolved.relative_to(r) for _, r in tree_roots if resolved.is_relative_to(r)), None)
            if inside is None:
                continue   # outside the trees being translated: left alone
            new = Job(target, out_dir / inside if out_dir else None, str(target), included=True)
            jobs[resolved] = new
            pending.append(new)
    return macros.names()


_MADE_FOLDERS: set[Path] = set()


def _copy_atomic(src: Path, dst: Path) -> None:
    """Copy a file the translator does not change (a plain header, data, a build file) the
    way translations are written, streaming rather than reading it whole."""
    with open(src, "rb") as handle:
        _write_atomic(dst, handle, like=src)


def _write_atomic(path: Path, data, like: Path | None = None, durable: bool = False) -> None:
    """Write `data` (bytes, or a binary file to stream) through a temporary file in the same
    folder and an atomic rename, keeping the original's permission bits. `durable` (for a
    user's own file, --in-place) also flushes it to disk before the rename."""
    if path.parent not in _MADE_FOLDERS:
        path.parent.mkdir(parents=True, exist_ok=True)
        _MADE_FOLDERS.add(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".cu2hip-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                shutil.copyfileobj(data, handle)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if like is not None:
            try:
                os.chmod(tmp, like.stat().st_mode & 0o7777)
            except OSError:
                pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
