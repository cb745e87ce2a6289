"""`cu2hip diff PATH...`: what translation changes, for review: each file's unified diff
against its translation (or, with --against DIR, against an existing translated tree:
what a regeneration would change), each hunk annotated with its edits' rule ids and
reasons; as text, JSON, SARIF 2.1.0, Markdown (a pull-request comment that fits GitHub's
limit) or GitHub workflow annotations, or as a plain patch. `--min-severity` drops the
diagnostics below it from every format (and, above "note", the fixes from the formats
that list them as notes: SARIF and annotations). Writes nothing."""

from __future__ import annotations

import os
import sys

from translator.catalog import catalog
from translator.commands.run import Batch
from translator.inputs import read_regular
from translator.output.diff import annotated_diff
from translator.output.github import to_github
from translator.output.jsonfmt import to_json
from translator.output.markdown import to_markdown
from translator.output.positions import at_least
from translator.output.sarif import to_sarif
from translator.settings import Settings, UsageError
from translator.stats import Stats
from translator.workspace import Selection, Workspace


def run(args, settings: Settings) -> int:
    against = args.against
    if against is not None and not against.is_dir():
        raise UsageError(f"--against {against}: {'not a folder' if against.exists() else 'no such folder'} "
                         "(give the folder of the translated tree)")
    selection = Selection(against, complete=False, include=settings.include, exclude=settings.exclude,
                          project=settings.config.root, skip=tuple(p for p in (settings.output,) if p),
                          patterns_root=settings.patterns_root, gitignore=settings.gitignore, stdin=args.stdin)
    workspace = Workspace.collect(args.paths, selection, settings.jobs)
    if workspace.onto_inputs:
        workspace.close()
        raise UsageError(f"--against {against} is where the inputs are ({', '.join(workspace.onto_inputs)}): "
                         "give the folder of their translations")
    for d in workspace.problems:
        print(d.format(), file=sys.stderr)
    # auto: on a terminal, unless NO_COLOR is set and not empty (no-color.org); --color
    # always still colours.
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                       and not os.environ.get("NO_COLOR"))
    minimum = args.min_severity
    results, total = [], Stats()
    errors = sum(d.severity == "error" for d in workspace.problems)
    for job, result in Batch(workspace, settings.options, settings.jobs, args.cache, settings.nearest).results():
        errors += result.errors
        total.add(result, count_lines=False)
        result = _at_least(result, minimum)
        if args.format in ("text", "patch"):
            for d in result.diagnostics:
                print(d.format(), file=sys.stderr)
            existing = None
            if against is not None:
                try:
                    existing = read_regular(job.destination)
                except OSError:
                    existing = b""      # not translated yet: all of it is new
            sys.stdout.write(annotated_diff(result, color=color and args.format == "text", against=existing,
                                            annotate=args.format == "text"))
        results.append(result)
    from translator import __version__
    if args.format == "json":
        sys.stdout.write(to_json(results, tool_version=__version__, summary=total.summary()) + "\n")
    elif args.format == "sarif":
        sys.stdout.write(to_sarif(results, catalog().values(), tool_version=__version__,
                                  automation_id=f"cu2hip/{settings.options.target}/", min_severity=minimum) + "\n")
    elif args.format == "markdown":
        sys.stdout.write(to_markdown(results, catalog().values()))
    elif args.format == "github":
        sys.stdout.write(to_github(results, min_severity=minimum))
    return 1 if (settings.strict and errors) or workspace.missing else 0


def _at_least(result, minimum: str):
    """`result` with only the diagnostics of `minimum` severity or above."""
    if minimum == "note":
        return result
    import dataclasses
    return dataclasses.replace(result, diagnostics=[d for d in result.diagnostics if at_least(d.severity, minimum)])
