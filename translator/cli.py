"""The `cu2hip` command: argument parsing and dispatch to translator.commands."""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from pathlib import Path

from translator import __version__, hipify_compat
from translator.inputs import MAX_FILE_BYTES, StreamError, stream_failed, tag_standard_streams
from translator.output.positions import one_line
from translator.settings import UsageError, resolve


def main(argv: list[str] | None = None) -> int:
    """The command: its exit status. A failed write to stdout or stderr ends it as a Unix
    tool ends (translator.inputs.stream_failed), whichever command was writing."""
    tag_standard_streams()
    try:
        status = _main(argv)
        sys.stdout.flush()
        sys.stderr.flush()
        return status
    except StreamError as exc:
        return stream_failed(exc)


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    translate_options: list[str] = []
    if argv[:1] == ["batch"] and "--" in argv:
        # `cu2hip batch MANIFEST [options] -- TRANSLATE OPTIONS`: argparse cannot take a
        # list after the options of a subcommand, so the tail is cut off first.
        cut = argv.index("--")
        argv, translate_options = argv[:cut], argv[cut + 1:]
    # The command is the first word that is no option (the command line's own options,
    # -h and --version, take no value): its parser alone gets its arguments.
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = _parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.command == "batch":
        args.translate_options = translate_options
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "rules":
            from translator.commands import rules
            return rules.run(args)
        if args.command == "batch":
            from translator.commands import batch
            return batch.run(args)
        if args.command == "toolchain-file":
            from translator.commands import toolchain
            return toolchain.run(args)
        if args.command == "translate":
            try:
                notes = hipify_compat.normalize(args)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            if not args.quiet:
                for note in notes:
                    print(f"cu2hip: note: {one_line(note)}", file=sys.stderr)
        _standard_input(args)
        settings = resolve(args)
        # Only the command's own module is imported (report's kernel tables, diff's formats).
        return importlib.import_module(f"translator.commands.{args.command}").run(args, settings)
    except UsageError as exc:
        message = one_line(str(exc))
        print(message if ": error: " in message else f"cu2hip: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _standard_input(args) -> None:
    """`-` as the input (as Ruff's): the source is read from standard input and translated as
    the file `--stdin-filename` names (its diagnostics' path, its language by the suffix, the
    configuration found from its folder; default `-`, in the current folder); `translate`
    writes it to stdout (or to `-o FILE`). Sets `args.stdin` to (name, bytes), or None."""
    args.stdin = None
    name = args.stdin_filename
    if "-" not in args.paths:
        if name is not None:
            raise UsageError("--stdin-filename names the source read from standard input: give `-` as the input")
        return
    if args.paths != ["-"]:
        raise UsageError(f"`-` (standard input) is the only input of a run, not one of {len(args.paths)}: "
                         "translate the other paths in a run of their own")
    refused = None
    if args.command == "check":
        refused = "check compares committed files with their translations: standard input has none"
    elif args.command == "translate":
        refused = ("--in-place rewrites files: with `-` the translation goes to stdout" if args.in_place else
                   "--pre-commit writes under the output folder: standard input has no place in it"
                   if args.pre_commit else
                   f"-o {args.output} is a folder, which mirrors a tree: with `-` the translation goes to stdout, "
                   "or to -o FILE (a name with a suffix)" if args.output else None)
    elif args.command == "diff" and args.against is not None:
        refused = "--against compares a tree with its translation: standard input is no file of a tree"
    if refused:
        raise UsageError(refused)
    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"standard input is over the {MAX_FILE_BYTES}-byte limit of a file; not translated")
    args.paths = [name or "-"]
    args.stdin = (args.paths[0], data)
    if args.command == "translate" and not (args.output_file or args.examine):
        args.stdout = True


def _common(p: argparse.ArgumentParser) -> None:
    """The options of every command that translates."""
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or directories; `-`: read the source from "
                   "standard input (translate writes it to stdout)")
    p.add_argument("--stdin-filename", metavar="PATH",
                   help="with `-`: the file the source on standard input is, for its diagnostics, its language "
                        "(by the suffix) and the configuration found from its folder (default: `-`)")
    p.add_argument("--config", metavar="FILE", help="the configuration file of every input (default: each file's nearest cu2hip.toml "
                   "or pyproject.toml with [tool.cu2hip], walking up from its folder)")
    p.add_argument("--target", choices=("hip", "cuda"), default=None,
                   help="hip (default): translate to HIP; cuda: keep CUDA, run only the optimizing passes")
    p.add_argument("--rocm-version", metavar="X.Y",
                   help="the ROCm/HIP version the output must compile with (default: the configuration's, "
                        "else the installed hipcc's, else the newest the mapping tables know)")
    p.add_argument("--skip-excluded-preprocessor-conditional-blocks", action="store_true",
                   help="accepted for HIPIFY scripts: cu2hip translates every #if branch whatever it says")
    p.add_argument("--roc", action="store_true", default=None,
                   help="map cuBLAS/cuRAND/cuSPARSE/cuSOLVER to roc* libraries")
    p.add_argument("--miopen", action="store_true", default=None, help="map cuDNN to MIOpen")
    p.add_argument("--experimental", action="store_true", default=None,
                   help="translate APIs that HIP marks experimental")
    p.add_argument("--use-hip-data-types", action="store_true",
                   help="declare variables of cudaDataType_t as hipDataType, as HIPIFY's option does (it matters "
                        "with --roc, where library data types map to the roc* libraries' own)")
    syntax = p.add_mutually_exclusive_group()
    syntax.add_argument("--hip-kernel-execution-syntax", action="store_true", default=None,
                        help="rewrite k<<<...>>>(...) as hipLaunchKernelGGL(...)")
    syntax.add_argument("--cuda-kernel-execution-syntax", action="store_false", dest="hip_kernel_execution_syntax",
                        help="keep k<<<...>>>(...) (the default)")
    add_pass_options(p)
    p.add_argument("--offload-arch", default=None, metavar="ARCH[,ARCH]",
                   help="the AMD targets: what translated build files compile for, and what `report`'s register "
                        "figures are for (default: the configuration's `offload-arch`, else gfx90a)")
    p.add_argument("--select", action="append", metavar="IDS",
                   help="report and apply only these rule ids or prefixes (comma-separated; default: all)")
    p.add_argument("--ignore", action="append", metavar="IDS", help="drop these rule ids or prefixes")
    p.add_argument("--rules", action="append", metavar="FILE",
                   help="a file of user rules (renames, header maps, call rewrites); repeatable")
    p.add_argument("--only", metavar="PASS", help="run this pass alone (for debugging; `cu2hip rules` lists the codes of each)")
    p.add_argument("--include", action="append", metavar="GLOB",
                   help="translate only the files matching (gitignore syntax, relative to the current folder; the "
                        "configuration's relative to its folder)")
    p.add_argument("--exclude", action="append", metavar="GLOB", help="do not translate the files matching")
    p.add_argument("--no-ignore", action="store_true",
                   help="also take the files that .gitignore files ignore (by default a tree's ignored files are "
                        "neither translated nor copied)")
    p.add_argument("--strict", action="store_true", default=None, help="exit 1 when any error diagnostic is reported")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="translate N files at a time (default: the CPU count)")
    p.add_argument("--no-cache", action="store_false", dest="cache",
                   help="translate every file again (default: reuse the cached translation of unchanged files)")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")


COMMANDS = ("translate", "check", "diff", "report", "batch", "rules", "toolchain-file")


@functools.cache
def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `command`, only that subcommand's arguments are added (a
    run parses its own: the others' add_argument calls would cost more than a cached
    translation), every subcommand still listed with its help. Built once per process
    and command: parse_args leaves the parser as it was, each call getting a namespace
    of its own."""
    def wanted(name: str) -> bool:
        return command is None or command == name

    parser = argparse.ArgumentParser(prog="cu2hip", description="Translate CUDA C++ to HIP C++.")
    parser.add_argument("--version", action="version", version=f"cu2hip {__version__}")
    sub = parser.add_subparsers(dest="command")
    t = sub.add_parser("translate", help="translate files and trees",
                       description="Translate CUDA files and trees to HIP. Diagnostics go to stderr "
                                   "as path:line:col: severity: message [ID].")
    if wanted("translate"):
        _common(t)
        out = t.add_mutually_exclusive_group()
        out.add_argument("-o", "--output", metavar="DIR",
                         help="write translations under DIR, mirroring the input tree (default: `output` of the "
                              "configuration); with one input file, -o FILE.hip writes that file (HIPIFY's -o)")
        out.add_argument("--in-place", action="store_true", help="rewrite the files (atomically)")
        out.add_argument("--stdout", action="store_true", help="write the translation of one file to stdout")
        out.add_argument("--examine", action="store_true",
                         help="statistics only, write nothing (implies --print-stats)")
        t.add_argument("--only-translated", action="store_true", default=None,
                       help="with -o, write only CUDA files, the headers they include and files that change "
                            "(by default every file of the tree is written, translated or copied)")
        t.add_argument("--copy-all", action="store_true",
                       help="with -o, copy every other file too (the default; accepted for HIPIFY scripts)")
        t.add_argument("--print-stats", action="store_true", help="statistics per file and in total")
        t.add_argument("--report", metavar="FILE.json", help="write every file's edits and diagnostics as JSON")
        hipify_compat.add_options(t)
        t.add_argument("--pre-commit", action="store_true",
                       help="the pre-commit hook: write under the output folder, print `Rewriting PATH` for each file "
                            "changed, exit 1 when any changed")

    c = sub.add_parser("check", help="the pre-commit checks, writing nothing",
                       description="Exit 1 when a file has an error diagnostic or, with an output folder "
                                   "(configuration or -o), when its translation there is missing or stale.")
    if wanted("check"):
        _common(c)
        c.add_argument("-o", "--output", metavar="DIR",
                       help="the translated tree to check (default: the configuration's)")

    d = sub.add_parser("diff", help="review what translation changes",
                       description="A unified diff of each CUDA file against its translation, each hunk annotated "
                                   "with the ids and reasons of its edits.")
    if wanted("diff"):
        _common(d)
        d.add_argument("--against", metavar="DIR", type=Path,
                       help="diff against an existing translated tree: what a regeneration would change")
        d.add_argument("--format", choices=("text", "patch", "json", "sarif", "markdown", "github"), default="text",
                       help="text: annotated for review; patch: plain, for patch or git apply; markdown: a pull-request "
                            "comment under GitHub's 65,536-character limit; github: workflow annotations")
        d.add_argument("--min-severity", choices=("note", "warning", "error"), default="note",
                       help="show only the diagnostics of this severity or above (above note, SARIF and github also "
                            "leave out the applied fixes)")
        d.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the text diff (auto: on a terminal, unless NO_COLOR is set)")

    rp = sub.add_parser("report", help="what the optimizing passes found, and why they did or did not act",
                        description="Translate as `translate` would and report, per topic, each rewrite "
                                    "an optimizing pass made and each one it refused, with the reason "
                                    "(`cu2hip rules` lists each rule's topic); writes nothing else.")
    if wanted("report"):
        _common(rp)
        rp.add_argument("--format", choices=("text", "json", "markdown", "html"), default="text",
                        help="html: one self-contained page with a chart of registers and occupancy")
        rp.add_argument("--no-compile", action="store_false", dest="compile",
                        help="no compiler figures (faster; the kernel table keeps launches and bounds)")
        rp.add_argument("--compile-timeout", type=float, metavar="SECONDS",
                        help="stop a compile (and its children) after this long; its figures are then missing "
                             "(default: `compile-timeout` of the configuration, else 300)")
        rp.add_argument("-I", dest="include_dir", action="append", metavar="DIR",
                        help="an include folder of the project's compiles (a folder of the tree: its translation)")
        rp.add_argument("-D", dest="define", action="append", metavar="NAME[=VALUE]",
                        help="a macro definition of the project's compiles")
        rp.add_argument("--std", metavar="STD", help="the language standard of the compiles (default c++17)")
        rp.add_argument("-p", dest="database", metavar="DIR",
                        help="read the include folders, definitions and standard of each file from "
                             "DIR/compile_commands.json (a compilation database, as clang tools read it)")

    b = sub.add_parser("batch", help="translate many repositories on a Dask cluster",
                       usage="cu2hip batch [-h] [-o DIR] [--scheduler ADDRESS] [--workers N] [--summary-json FILE] "
                             "[--summary-markdown FILE] [--strict] [-q] MANIFEST [-- TRANSLATE-OPTION...]",
                       description="Translate every repository of MANIFEST as `cu2hip translate` would (each with "
                                   "its own configuration), on an embedded Dask LocalCluster or a running cluster, "
                                   "and write one summary. Options after `--` are translate options for every "
                                   "repository. Needs cu2hip[batch].")
    if wanted("batch"):
        b.add_argument("manifest", metavar="MANIFEST", help="a TOML manifest, or a text file of `SOURCE [REF]` lines")
        b.add_argument("-o", "--output", metavar="DIR",
                       help="the folder of the repositories' outputs, each in DIR/NAME (default: the manifest's "
                            "`output`, else ./cu2hip-batch)")
        b.add_argument("--scheduler", metavar="ADDRESS",
                       help="a running Dask scheduler (tcp://host:8786); its workers need cu2hip and the local "
                            "repositories' folders (default: an embedded LocalCluster sized to this machine)")
        b.add_argument("--workers", type=int, metavar="N",
                       help="the embedded cluster's workers (default: one per repository, at most the CPU count)")
        b.add_argument("--summary-json", metavar="FILE", help="default: OUTPUT/cu2hip-batch.json")
        b.add_argument("--summary-markdown", metavar="FILE", help="default: OUTPUT/cu2hip-batch.md")
        b.add_argument("--strict", action="store_true", help="exit 1 when any repository has an error diagnostic")
        b.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary line")

    r = sub.add_parser("rules", help="list the rules, or explain one", description="The rule catalog.")
    if wanted("rules"):
        r.add_argument("id", nargs="?", metavar="ID", help="explain this rule")
        r.add_argument("--format", choices=("text", "markdown", "json"), default="text")
        r.add_argument("--rules", action="append", metavar="FILE", help="also list the user rules of FILE")

    tf = sub.add_parser("toolchain-file", help="the CMake toolchain file for Debian's ROCm packages",
                        description="Print the path of the CMake toolchain file that lets Debian 12's CMake "
                                    "(3.25) find Debian's hip-lang package and clang for CMake's HIP language: "
                                    "cmake -DCMAKE_TOOLCHAIN_FILE=\"$(cu2hip toolchain-file)\" ... "
                                    "Newer CMake and ROCm installs do not need it.")
    if wanted("toolchain-file"):
        tf.add_argument("-o", "--output", metavar="FILE", help="write a copy to FILE (or into the folder FILE)")
    return parser


def translate_options_error(options: list[str]) -> str | None:
    """Why `cu2hip translate` would not take `options` (argparse's message), or None."""
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            _parser("translate").parse_args(["translate", ".", "-o", ".", *options])
        except SystemExit:
            lines = err.getvalue().strip().splitlines()
            return lines[-1].split(": error: ", 1)[-1] if lines else "not taken"
    return None


def add_pass_options(p: argparse.ArgumentParser, default_none: bool = True) -> None:
    """The passes' declared options (translator.passes.PassOption) as flags: `--NAME` and
    `--no-NAME` for a switch, `--NAME N` for a number. Unset flags are None (the
    configuration's value or the declared default applies), unless `default_none` is
    False (the declared default then)."""
    from translator.options import pass_options
    for option in pass_options():
        default = None if default_none else option.default
        if option.switch:
            group = p.add_mutually_exclusive_group()
            group.add_argument(f"--{option.name}", action="store_true", default=default, dest=option.field,
                               help=option.help)
            group.add_argument(f"--no-{option.name}", action="store_false", dest=option.field, help=option.off_help)
        else:
            p.add_argument(f"--{option.name}", type=int, default=default, metavar=option.metavar, dest=option.field,
                           help=option.help)
