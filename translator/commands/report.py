"""`cu2hip report PATH...`: what the optimizing passes found, file by file, in sections
named by the rules' topics (each rewrite made, and each one considered and refused, with
the reason). Translates as `translate` would, with the same options, and writes nothing
but the report: text, JSON or Markdown.

The command knows no pass: a rule joins a section by declaring its `topic` in the
catalog, and its diagnostics are the section's lines.
"""

from __future__ import annotations

import json
import sys

from translator import __version__
from translator.catalog import catalog
from translator.commands.run import Batch
from translator.settings import Settings
from translator.workspace import Selection, Workspace


def run(args, settings: Settings) -> int:
    workspace = Workspace.collect(args.paths, Selection(None, complete=False, include=settings.include,
                                                        exclude=settings.exclude))
    for d in workspace.problems:
        print(d.format(), file=sys.stderr)
    rules = catalog()
    topics = sorted({r.topic for r in rules.values() if r.topic})
    findings = {t: [] for t in topics}
    errors = sum(d.severity == "error" for d in workspace.problems)
    for _, result in Batch(workspace, settings.options, settings.jobs, args.cache).results():
        errors += result.errors
        for d in result.diagnostics:
            topic = rules[d.code].topic if d.code in rules else None
            if topic:
                findings[topic].append(d)
    sys.stdout.write({"text": _text, "json": _json, "markdown": _markdown}[args.format](findings, rules))
    return 1 if settings.strict and errors else 0


def _entry(d, rules) -> dict:
    return {"file": d.path, "line": d.line, "column": d.col, "rule": d.code, "name": rules[d.code].name,
            "applied": d.fix is not None, "message": d.message}


def _text(findings, rules) -> str:
    out = []
    for topic, items in findings.items():
        done = sum(d.fix is not None for d in items)
        out.append(f"{topic}: {len(items)} finding{'s' if len(items) != 1 else ''}, {done} applied")
        out += [f"  {d.path}:{d.line}:{d.col}: {'applied' if d.fix is not None else 'not applied'}: {d.message} "
                f"[{d.code}]" for d in items]
    return "\n".join(out) + "\n"


def _json(findings, rules) -> str:
    doc = {"tool": {"name": "cu2hip", "version": __version__},
           "topics": {topic: [_entry(d, rules) for d in items] for topic, items in findings.items()}}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _markdown(findings, rules) -> str:
    out = ["## cu2hip report"]
    for topic, items in findings.items():
        out += ["", f"### {topic}", ""]
        if not items:
            out.append("Nothing found.")
            continue
        out += ["| Where | Rule | Applied | What |", "| --- | --- | --- | --- |"]
        out += [f"| `{d.path}:{d.line}` | {d.code} | {'yes' if d.fix is not None else 'no'} | "
                f"{d.message.replace('|', chr(92) + '|')} |" for d in items]
    return "\n".join(out) + "\n"
