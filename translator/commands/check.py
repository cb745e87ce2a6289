"""`cu2hip check PATH...`: the checks of the pre-commit hooks, writing nothing.

Fails (exit 1) when a file has an error diagnostic, or, where an output folder is set
(`output` in the configuration, or -o), when its committed translation there is missing
or stale; says what to run. With an output folder, the translations checked are the
inputs' and those of the project's files whose translation reads them (a header's
kernel bounded by the launches of the file that changed)."""

from __future__ import annotations

import shlex
import sys

from translator import runcache
from translator.cache import default_dir
from translator.commands.run import Batch
from translator.inputs import read_regular
from translator.output.positions import path_bytes, path_text
from translator.settings import Settings, UsageError
from translator.workspace import Selection, Workspace


def run(args, settings: Settings) -> int:
    output = settings.output
    base = settings.config.root if settings.output_from_config else None
    workspace = Workspace.collect(args.paths, Selection(output, complete=False, include=settings.include,
                                                        exclude=settings.exclude, base=base,
                                                        project=settings.config.root,
                                                        patterns_root=settings.patterns_root,
                                                        gitignore=settings.gitignore,
                                                        dependents=output is not None), settings.jobs)
    if workspace.onto_inputs:
        workspace.close()
        raise UsageError(f"the output folder {output} is where the inputs are ({', '.join(workspace.onto_inputs)}): "
                         "there is no translation there to check")
    for d in workspace.problems:
        print(d.format(), file=sys.stderr)
    errors = sum(d.severity == "error" for d in workspace.problems)
    stale = []
    for job, result in Batch(workspace, settings.options, settings.jobs, args.cache, settings.nearest).results():
        for d in result.diagnostics:
            if d.severity == "error" or not args.quiet:
                print(d.format(), file=sys.stderr)
        errors += result.errors
        for where in (job.destination, *job.also) if not result.skipped else ():
            if where is None:
                continue
            try:
                current = read_regular(where)   # never a FIFO's or device's endless bytes
            except OSError:
                current = None
            if current != result.output:
                stale += [job] if job not in stale else []
                print(f"{path_text(str(where))}: {'missing' if current is None else 'stale'}: the translation of "
                      f"{path_text(job.display)} differs", file=sys.stderr)
    if stale:
        # A run record of that folder would answer the command below without looking: it
        # must do the work again.
        runcache.forget(default_dir(), output)
        # With the output folder from the configuration, paths mirror from its folder, so
        # the stale files alone can be named; with -o, from the inputs' common parent.
        command = ["cu2hip", "translate", *(j.display for j in stale)] if settings.output_from_config else \
            ["cu2hip", "translate", *args.paths, "-o", str(output)]
        print(f"cu2hip: {len(stale)} translations out of date; run: {' '.join(map(shell_word, command))}",
              file=sys.stderr)
    if errors:
        print(f"cu2hip: {errors} errors; fix them, or silence one with `// cu2hip: ignore[ID]` "
              "(see `cu2hip rules ID`)", file=sys.stderr)
    return 1 if errors or stale or workspace.missing else 0


def shell_word(word: str) -> str:
    """`word` quoted for a POSIX shell, on one line: shlex's quoting, or, for a name with a
    control character or a byte that is not UTF-8, `$'...'` with each such byte `\\xNN`."""
    if path_text(word) == word.replace("\\", "\\\\"):
        return shlex.quote(word)
    out = []
    for b in path_bytes(word):
        out.append("\\" + chr(b) if b in b"\\'" else chr(b) if 0x20 <= b < 0x7f else f"\\x{b:02x}")
    return "$'" + "".join(out) + "'"
