"""`cu2hip translate`: translate files and trees, write the results, summarize."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import time
from pathlib import Path

from translator.cache import default_dir
from translator.ignore import ignore_files_above
from translator.inputs import (STALE_TEMPORARY_S, UNWRITABLE, StreamError, open_for_writing, open_regular, problem,
                               write_problem)
from translator.output.positions import path_text
from translator.settings import Settings, UsageError


def _output_folder(args, settings: Settings) -> Path | None:
    """The folder translations go under (None: in place, to stdout, to one file, or nowhere)."""
    output = settings.output
    if args.pre_commit and output is None:
        raise UsageError("--pre-commit writes under the configured `output`: set it in [tool.cu2hip] or give -o")
    elsewhere = args.stdout or args.examine or args.in_place or args.output_file
    if not (output or elsewhere):
        raise UsageError("say where the output goes: -o DIR, --in-place, --stdout or --examine")
    if args.only_translated and args.copy_all:
        raise UsageError("--only-translated and --copy-all contradict each other")
    return None if elsewhere else output


def _stats_stream(args):
    """Where statistics go: --o-stats FILE, else stdout (stderr when stdout has the translation)."""
    if not args.o_stats:
        return sys.stderr if args.stdout else sys.stdout
    try:
        return open_for_writing(args.o_stats)
    except OSError as exc:
        raise UsageError(f"--o-stats: cannot write {args.o_stats}: {write_problem(exc)}") from None


def run(args, settings: Settings) -> int:
    output = _output_folder(args, settings)
    replay = _Replay.for_run(args, settings, output)
    if replay is None:
        return _run(args, settings, output, None)
    with replay.locked():
        if replay.matches():
            return replay.play()
        with replay.recording():
            status = _run(args, settings, output, replay)
    return status


def _run(args, settings: Settings, output: Path | None, replay: _Replay | None) -> int:
    # Imported here: a run replayed from its record (translator.runcache) walks no tree
    # and translates nothing.
    from translator.commands.run import Batch, Mirror, Progress, write_atomic
    from translator.stats import CSV_HEADER, Stats
    from translator.workspace import Selection, Workspace
    selection = Selection(output, not settings.only_translated, args.in_place, settings.include, settings.exclude,
                          settings.config.root if settings.output_from_config and output is not None else None,
                          settings.config.root, tuple(p for p in (settings.output,) if p is not None),
                          settings.patterns_root, settings.gitignore, dependents=args.pre_commit, stdin=args.stdin)
    workspace = Workspace.collect(args.paths, selection, settings.jobs)
    if workspace.onto_inputs:
        workspace.close()
        raise UsageError(f"the output folder {output} would overwrite the inputs themselves "
                         f"({', '.join(workspace.onto_inputs)}): to rewrite them, use --in-place")
    if workspace.missing and (args.stdout or args.output_file):
        workspace.close()
        for d in workspace.problems:
            print(d.format(), file=sys.stderr)
        return 1
    if (args.stdout or args.output_file) and len(workspace.jobs) != 1:
        workspace.close()
        raise UsageError(f"{'--stdout' if args.stdout else '-o FILE'} takes exactly one file "
                         f"({len(workspace.jobs)} given)")
    if args.pre_commit and settings.config.rocm_version is None and args.rocm_version is None:
        print(f"cu2hip: warning: rocm-version is not set in the configuration: the output depends on this "
              f"machine ({settings.describe_target()})", file=sys.stderr)
    for d in workspace.problems:
        print(d.format(), file=sys.stderr)
    _remove_leftovers(workspace.leftovers)
    total = Stats()
    stats_stream = _stats_stream(args)
    print_stats = args.print_stats or (args.examine and not args.no_output)
    csv_rows = [CSV_HEADER] if args.print_stats_csv else None
    errors = sum(d.severity == "error" for d in workspace.problems)
    warnings = sum(d.severity == "warning" for d in workspace.problems)
    write_failed = printed_nothing = False
    rewritten = 0
    results = []
    quiet = args.quiet or args.pre_commit
    # The progress line and the summary go to the terminal only, not into a run's record.
    stderr = replay.stderr if replay is not None else sys.stderr
    progress = Progress.on(stderr, len(workspace.jobs), quiet)
    # Into an output folder, each translation is written where it was made (a worker).
    mirror = None if args.stdout or args.output_file or args.in_place else Mirror(output, settings.only_translated)
    batch = Batch(workspace, settings.options, settings.jobs, args.cache, settings.nearest, mirror)
    if replay is not None:
        replay.read(batch.headers_probed, workspace, settings, batch.variants)
    for job, result, wrote in batch.written():
        progress.clear()
        for d in result.diagnostics:
            print(d.format(), file=sys.stderr)
        errors += result.errors
        if args.report:
            results.append(result)
        where = job.source if args.in_place or job.destination is None else job.destination
        try:
            if result.skipped and result.errors:
                # Not translated (binary, unreadable, too large): nothing is written, and
                # --stdout fails, or `> f.hip` would leave an empty file and a success.
                printed_nothing = args.stdout
            elif args.stdout:
                sys.stdout.buffer.write(result.output)
                sys.stdout.flush()
            elif args.output_file:
                where = Path(args.output_file)
                write_atomic(where, result.output, like=job.source)
            elif args.in_place:
                if result.changed:
                    # Through a symbolic link the user named: rewrite the file it points to.
                    target = Path(os.path.realpath(job.source))
                    if not target.stat().st_mode & stat.S_IWUSR:
                        # Its owner made it read-only (a locked checkout, a generated file): a
                        # rename would replace it all the same, so it is refused, and said.
                        raise PermissionError(errno.EACCES, f"the file is read-only (mode "
                                              f"{target.stat().st_mode & 0o777:o}); make it writable to rewrite "
                                              "it in place")
                    write_atomic(target, result.output, like=target, durable=True)
            elif wrote is not None:
                done, failed = wrote
                for where in done:
                    rewritten += 1
                    if args.pre_commit:
                        print(f"Rewriting {_shown(where)}")
                if failed is not None:
                    where, why = failed
                    write_failed = True
                    errors += 1
                    print(problem(UNWRITABLE, where, f"cannot write: {why}; the file is unchanged").format(),
                          file=sys.stderr)
        except StreamError:
            raise       # stdout itself: the command ends (translator.inputs.stream_failed)
        except OSError as exc:
            write_failed = True
            errors += 1
            print(problem(UNWRITABLE, where, f"cannot write: {exc.strerror or exc}; the file is unchanged").format(),
                  file=sys.stderr)
        if print_stats:
            one = Stats()
            one.add(result, count_lines=True)
            if csv_rows is not None:
                csv_rows += one.csv_rows(path_text(job.display))
            else:
                stats_stream.write(one.render(path_text(job.display)))
        total.add(result, count_lines=print_stats)
        progress.show(job.display)
    progress.clear()
    for src, dst in workspace.copies:
        try:
            _copy(src, dst, workspace.links.get(dst), output)
        except OSError as exc:
            write_failed = True
            errors += 1
            print(problem(UNWRITABLE, dst, f"cannot write: {exc.strerror or exc}").format(), file=sys.stderr)
    if csv_rows is not None:
        csv_rows += total.csv_rows("total")
        import csv
        csv.writer(stats_stream, lineterminator="\n").writerows(csv_rows)
    elif print_stats and total.files > 1:
        stats_stream.write(total.render("total"))
    if args.o_stats:
        stats_stream.close()
    if args.report:
        from translator.output.jsonfmt import to_json
        try:
            with open_for_writing(args.report) as handle:
                handle.write(to_json(results, tool_version=_version(), summary=total.summary()))
        except OSError as exc:
            raise UsageError(f"--report: cannot write {args.report}: {write_problem(exc)}") from None
    summary = {"total": total, "copies": len(workspace.copies), "errors": errors,
               "warnings": total.warnings + warnings}
    if not quiet:
        print(_summary_line(settings, cached=batch.hits, **summary), file=stderr)
    if write_failed or printed_nothing or workspace.missing:
        return 1        # a failed write or a missing input breaks the command's contract whatever --strict says
    if args.pre_commit and rewritten:
        return 1        # pre-commit's contract: files were changed, look at them and commit again
    status = 1 if settings.strict and errors else 0
    if replay is not None:
        replay.keep(_summary_line(settings, cached=total.files, **summary) if not quiet else None, status)
    return status


def _summary_line(settings: Settings, total: Stats, copies: int, errors: int, warnings: int, cached: int) -> str:
    rules = ", ".join(f"{k}: {v}" for k, v in sorted(total.by_rule.items())) or "none"
    copied = f"{copies} copied, " if copies else ""
    hits = f", {cached} cached" if cached else ""
    return (f"cu2hip: {total.files} files, {total.changed_files} changed, {copied}{total.edits} edits ({rules}), "
            f"{errors} errors, {warnings} warnings{hits}; target {settings.describe_target()}")


class _Replay:
    """A run repeated over an unchanged tree is answered from its record (translator.runcache):
    the same messages and status, no file read or written."""

    def __init__(self, folder: Path, key: str, paths: list[str], output: Path | None):
        from translator import runcache
        self.folder, self.key, self.paths, self.output = folder, key, paths, output
        self.inputs: list[tuple] = []
        self.reads = runcache.Reads([])
        self.read_states: list[tuple] = []
        self.record: runcache.RunRecord | None = None
        self.kept: runcache.RunRecord | None = None
        self.stderr = sys.stderr           # the stream under the recording

    @classmethod
    def for_run(cls, args, settings: Settings, output: Path | None) -> _Replay | None:
        """None for a run that writes to stdout, rewrites its inputs, writes a report or
        statistics file, or may not use the cache."""
        if not args.cache or args.stdin or args.stdout or args.output_file or args.in_place or args.report \
                or args.o_stats:
            return None
        # Imported here, as in each method: a run that keeps no record imports no part of it.
        from translator import runcache
        mode = (str(output) if output else None, args.examine, args.no_output, args.print_stats,
                args.print_stats_csv, args.pre_commit, settings.only_translated, args.quiet, settings.strict,
                settings.include, settings.exclude, settings.patterns_root, settings.gitignore,
                ignore_files_above(args.paths) if settings.gitignore else (),
                settings.output_from_config, settings.target_source,
                str(settings.config.root) if settings.config.root else None)
        key = runcache.run_key(args.paths, settings.options, mode)
        return cls(default_dir(), key, args.paths, output)

    @contextlib.contextmanager
    def locked(self):
        """The output folder's lock, from the first look at the states to the record's write."""
        from translator import runcache
        with runcache.lock(self.folder, self.output):
            self.inputs = runcache.tree_state(self.paths, skip=self.output)
            self.record = runcache.load(self.folder, self.output, self.key)
            yield

    def _outputs(self) -> list[tuple]:
        from translator import runcache
        return runcache.tree_state([self.output]) if self.output is not None and self.output.exists() else []

    def matches(self) -> bool:
        r = self.record
        return r is not None and r.inputs == self.inputs and r.reads.state() == r.read_states \
            and r.outputs == self._outputs()

    def read(self, headers: set[str], workspace: Workspace, settings: Settings, variants: list = ()) -> None:
        """What the run's results read beyond the input trees (runcache.Reads), and its
        state now, once the run has read it: the local headers looked for, the
        configuration and rules files, and the project's files when its folder is not in
        one of the trees (the launch universe reads them all)."""
        from translator import runcache
        paths = set(headers) | {str(p) for p in settings.options.rules}
        if settings.config.path is not None:
            paths.add(os.path.abspath(settings.config.path))
        if settings.nearest is not None:     # the other projects' configurations (and their rules)
            paths.update(os.path.abspath(p) for p in settings.nearest.files())
            paths.update(str(p) for options in variants for p in options.rules)
        project = None
        if workspace.project is not None:
            home = os.path.realpath(workspace.project)
            trees = [os.path.realpath(p) for p in self.paths if os.path.isdir(p)]
            if not any(home == t or home.startswith(t.rstrip(os.sep) + os.sep) for t in trees):
                project = os.path.abspath(workspace.project)
        self.reads = runcache.Reads(sorted(paths), project, [os.path.abspath(p) for p in workspace.skip])
        self.read_states = self.reads.state()

    def play(self) -> int:
        r = self.record
        sys.stdout.write(r.stdout)
        sys.stdout.flush()
        sys.stderr.write(r.stderr)
        if r.summary is not None:
            print(r.summary, file=sys.stderr)
        return r.status

    @contextlib.contextmanager
    def recording(self):
        """Print as usual and keep a copy of what is printed."""
        from translator import runcache
        out, err = io.StringIO(), io.StringIO()
        real_out, real_err = sys.stdout, sys.stderr
        self.stderr = real_err
        sys.stdout, sys.stderr = _Tee(real_out, out), _Tee(real_err, err)
        try:
            yield
        finally:
            sys.stdout, sys.stderr = real_out, real_err
        # Inputs (or what else it read) changed while the run read them (an editor, another
        # run --in-place): what was written may be of neither state, so nothing is recorded.
        if self.kept is not None and runcache.tree_state(self.paths, skip=self.output) == self.inputs \
                and self.reads.state() == self.read_states:
            self.kept.stdout, self.kept.stderr = out.getvalue(), err.getvalue()
            runcache.save(self.folder, self.output, self.key, self.kept)

    def keep(self, summary: str | None, status: int) -> None:
        """Record this run (called when it wrote all it had to)."""
        from translator import runcache
        self.kept = runcache.RunRecord(self.inputs, self._outputs(), self.reads, self.read_states, summary=summary,
                                       status=status)


class _Tee(io.TextIOBase):
    def __init__(self, stream, copy: io.StringIO):
        self.stream, self.copy = stream, copy

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def _remove_leftovers(paths: list[Path]) -> None:
    """Remove the temporary files a killed run left (`inputs.TEMPORARY`), once they are old
    enough that no run can still be writing them."""
    now = time.time()
    for path in paths:
        try:
            if now - os.lstat(path).st_mtime > STALE_TEMPORARY_S:
                os.unlink(path)
        except OSError:
            pass


def _shown(path: Path) -> str:
    """A path relative to the working folder when it is below it (as pre-commit shows them),
    on one line (positions.path_text)."""
    relative = os.path.relpath(path)
    return path_text(str(path) if relative.startswith("..") else relative)


def _copy(src: Path, dst: Path, link: str | None, root: Path | None = None) -> None:
    """Copy a file, never blocking on one that became a FIFO since the walk; a link stays a
    link: `link`, to its target's mirror, where the target is in the tree. Below the output
    folder `root` no link is followed on the way (run.write_atomic)."""
    from translator.commands.run import link_below, write_atomic
    if src.is_symlink():
        link_below(root, dst, link if link is not None else os.readlink(src))
        return
    with open_regular(src) as handle:
        write_atomic(dst, handle, like=src, root=root)



def _version() -> str:
    from translator import __version__
    return __version__
