"""`cu2hip report PATH...`: what the optimizing passes found, file by file, in sections
named by the rules' topics (each rewrite made, and each one considered and refused, with
the reason), then the kernel table (translator.output.kernels): per kernel its launches,
bounds, static register estimate, launch-configuration changes and compiler figures, then
the host functions that hold findings, each with its own (translator.output.functions).
Translates as `translate` would, with the same options, and writes nothing but the
report: text, JSON, Markdown or HTML.

The command knows no pass: a rule joins a section by declaring its `topic` in the
catalog, and its diagnostics are the section's lines (and a kernel's launch changes,
when their subject is the kernel).
"""

from __future__ import annotations

import dataclasses
import sys

from translator import __version__, compile_context
from translator.catalog import catalog
from translator.commands.run import Batch, varied
from translator.ignore import repository_root
from translator.diagnostics import Diagnostic
from translator.output import functions, kernels
from translator.output.html import to_html
from translator.output.jsonfmt import dumps
from translator.output.markdown import code_span, inline
from translator.output.positions import one_line, path_text
from translator.source import SourceFile
from translator.settings import Settings, UsageError
from translator.workspace import Selection, Workspace


def run(args, settings: Settings) -> int:
    try:
        context = compile_context.load(args.include_dir or (), args.define or (), args.std, args.database)
    except compile_context.ContextError as exc:
        raise UsageError(str(exc)) from None
    workspace = Workspace.collect(args.paths, Selection(None, complete=False, include=settings.include,
                                                        exclude=settings.exclude, project=settings.config.root,
                                                        skip=tuple(p for p in (settings.output,) if p),
                                                        patterns_root=settings.patterns_root,
                                                        gitignore=settings.gitignore, stdin=args.stdin),
                                  settings.jobs)
    for d in workspace.problems:
        print(d.format(), file=sys.stderr)
    nearest = settings.nearest
    if context.defines:     # the build's configuration is parsed first (frontend)
        settings = dataclasses.replace(settings, options=dataclasses.replace(settings.options,
                                                                             defines=context.defines))
        nearest = varied(nearest, lambda options: dataclasses.replace(options, defines=context.defines))
    rules = catalog()
    topics = sorted({r.topic for r in rules.values() if r.topic})
    findings = {t: [] for t in topics}
    errors = sum(d.severity == "error" for d in workspace.problems)
    batch = Batch(workspace, settings.options, settings.jobs, args.cache, nearest)
    pairs = list(batch.results())
    for _, result in pairs:
        errors += result.errors
        for d in result.diagnostics:
            topic = rules[d.code].topic if d.code in rules else None
            if topic:
                findings[topic].append(d)
        # A rewrite whose rule says nothing of it in a diagnostic (a launch bound) is listed too.
        said = {d.code for d in result.diagnostics}
        source = SourceFile(result.path, result.input)
        for fix in result.applied:
            rule = rules.get(fix.rule)
            if rule is not None and rule.topic and fix.rule not in said:
                start = min(e.start for e in fix.edits)
                line, col = source.position(start)
                findings[rule.topic].append(Diagnostic(result.path, line, col, rule.severity, fix.reason, fix.rule,
                                                       line, col, fix))
    for items in findings.values():
        items.sort(key=lambda d: (d.path, d.line, d.col))
    table = kernels.rows(pairs, batch.options)
    kernels.launch_changes(table, findings)
    hosts = functions.rows(pairs, findings, batch.options)
    # Where a header a compile did not find is looked for: the project, and the repository it is in.
    search = tuple(dict.fromkeys(p for p in (workspace.project, workspace.project and repository_root(
        workspace.project)) if p is not None))
    if not args.compile:
        missing = ["--no-compile: no compiler figures"]
    elif settings.options.target != "hip":
        missing = ["--target cuda: hipcc's figures are for HIP translations"]
    elif not table:
        missing = []
    else:
        plain = kernels.without_passes(settings.options, [r.id for r in rules.values() if r.topic])
        without = [r for _, r in Batch(workspace, plain, settings.jobs, args.cache, varied(
            nearest, lambda options: kernels.without_passes(options, [r.id for r in rules.values() if r.topic]))
            ).results()]
        missing = kernels.compile_figures(table, pairs, without, settings.options.offload_arch[0], settings.jobs, context,
                                          settings.compile_timeout, search)
    if args.compile and table:
        missing += kernels.nvcc_figures(table, pairs, settings.jobs, context, settings.compile_timeout, search)
    if args.format == "html":
        sys.stdout.write(to_html(findings, table, missing, settings.options.offload_arch[0], hosts))
    else:
        sys.stdout.write({"text": _text, "json": _json, "markdown": _markdown}[args.format](
            findings, rules, table, missing, settings.options.offload_arch[0], hosts))
    return 1 if (settings.strict and errors) or workspace.missing else 0


def _entry(d, rules) -> dict:
    return {"file": d.path, "line": d.line, "column": d.col, "rule": d.code, "name": rules[d.code].name,
            "applied": d.fix is not None, "message": d.message}


def _figure(row: dict, key: str, unit: str = "") -> str:
    value, before = row.get(key), (row.get("without") or {}).get(key)
    if value is None:
        return "?"
    return f"{value}{unit}" + (f" ({before}{unit} without)" if before is not None and before != value else "")


def _estimate(row: dict) -> str:
    """The static estimate in words: `12 VGPRs`, `128 VGPRs, spill predicted (demand 170,
    cap 128)`, or why there is none."""
    e = row.get("estimate") or {}
    if e.get("vgprs") is None:
        return f"none ({e['reason']})" if e.get("reason") else "none"
    out = f"{e['vgprs']} VGPRs" + (f", spill predicted (demand {e['demand']}, cap {e['cap']})" if e["spill"] else "")
    return out + (f", scratch arrays: {', '.join(e['scratch_arrays'])}" if e.get("scratch_arrays") else "")


def _text(findings, rules, table, missing, arch, hosts=()) -> str:
    out = []
    for topic, items in findings.items():
        done = sum(d.fix is not None for d in items)
        out.append(f"{topic}: {len(items)} finding{'s' if len(items) != 1 else ''}, {done} applied")
        out += [f"  {path_text(d.path)}:{d.line}:{d.col}: {'applied' if d.fix is not None else 'not applied'}: "
                f"{one_line(d.message)} [{d.code}]" for d in items]
    out.append(f"kernels: {len(table)} (figures: hipcc for {arch}, with the optimizing passes and without them; "
               "estimate: counted from the source)")
    for row in table:
        sizes = ", ".join(map(str, row["launch_sizes"])) or "none"
        out.append(f"  {path_text(row['file'])}:{row['line']}: {row['kernel']}: launched with {sizes}"
                   + (f" (unknown: {one_line(row['unknown'])})" if row["unknown"] else "")
                   + f"; bounds {row['bounds'] or 'none'}; VGPRs {_figure(row, 'vgprs')}, AGPRs {_figure(row, 'agprs')}, "
                   f"SGPRs {_figure(row, 'sgprs')}, scratch {_figure(row, 'scratch_bytes', ' B')}, "
                   f"spills {_figure(row, 'vgpr_spills')}, occupancy {_figure(row, 'occupancy')}"
                   + (f"; CUDA (sm_90): {row['nvcc_registers']} registers, {row['nvcc_spill_bytes']} B spilled"
                      if row.get("nvcc_registers") is not None else "")
                   + f"; estimate {_estimate(row)}")
        out += [f"    launch change: {one_line(c['message'])} [{c['code']}]" for c in row.get("launch_changes", ())]
    out.append(f"host functions with findings: {len(hosts)}")
    for row in hosts:
        out.append(f"  {path_text(row['file'])}:{row['line']}: {row['function']}: {len(row['findings'])} "
                   f"finding{'s' if len(row['findings']) != 1 else ''}")
        out += [f"    line {f['line']}: {'applied' if f['applied'] else 'not applied'}: {one_line(f['message'])} "
                f"[{f['code']}]" for f in row["findings"]]
    out += [f"missing: {one_line(m)}" for m in missing]
    return "\n".join(out) + "\n"


def _json(findings, rules, table, missing, arch, hosts=()) -> str:
    doc = {"tool": {"name": "cu2hip", "version": __version__},
           "topics": {topic: [_entry(d, rules) for d in items] for topic, items in findings.items()},
           "offload_arch": arch, "kernels": [dict(row, spills=row.get("vgpr_spills")) for row in table],
           "host_functions": list(hosts), "missing": missing}
    return dumps(doc) + "\n"


LIMIT = 65_536          # GitHub's limit on a comment, in characters
RESERVE = 8_000         # kept for the headings, the counts of what is left out and the closing section
EXAMPLES = 3
FINDINGS = 0.6          # the share of the room the topics' findings may take


def _markdown(findings, rules, table, missing, arch, hosts=(), limit: int = LIMIT) -> str:
    """The report as Markdown under `limit` characters (GitHub's limit on a comment): each
    section's rows while room allows, the findings left out counted per rule (with their
    first places), the kernels and host functions left out counted, and a closing section
    saying what was left out."""
    # The findings get at most FINDINGS of the room, so that kernels and host functions
    # are seen too; what they leave is the tables'.
    budget = _Budget(int((limit - RESERVE) * FINDINGS))
    left: list[str] = []
    out = ["## cu2hip report"]
    for topic, items in findings.items():
        out += ["", f"### {topic}", ""]
        if not items:
            out.append("Nothing found.")
            continue
        rows = [f"| {_where(d.path, d.line)} | {d.code} | "
                f"{'yes' if d.fix is not None else 'no'} | {_cell(inline(d.message))} |" for d in items]
        shown = _table(out, ["| Where | Rule | Applied | What |", "| --- | --- | --- | --- |"], rows, budget)
        if shown < len(items):
            rest = items[shown:]
            out += ([""] if shown else []) + _counted_per_rule(rest, "more " if shown else "")
            left.append(f"{len(rest)} of the {len(items)} findings of {topic} (counted per rule above)")
    budget.room += int((limit - RESERVE) * (1 - FINDINGS))
    out += ["", f"### kernels (hipcc, {arch}: with the optimizing passes, and without)", ""]
    if table:
        head = ["| Where | Kernel | Launched with | Bounds | VGPRs | Scratch B/lane | Spills | Occupancy | Estimate "
                "| Launch changes |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        rows = [f"| {_where(r['file'], r['line'])} | {r['kernel']} | "
                f"{', '.join(map(str, r['launch_sizes'])) or 'none'} | "
                f"{_cell(inline(r['bounds'] or 'none'))} | {_figure(r, 'vgprs')} | {_figure(r, 'scratch_bytes')} | "
                f"{_figure(r, 'vgpr_spills')} | {_figure(r, 'occupancy')} | {_cell(inline(_estimate(r)))} | "
                + _cell("<br>".join(f"{c['code']}: {inline(c['message'])}" for c in r.get("launch_changes", ()))
                        or "none") + " |" for r in table]
        shown = _table(out, head, rows, budget)
        if shown < len(rows):
            left.append(f"{len(rows) - shown} of the {len(rows)} kernels")
    else:
        out.append("No kernel.")
    out += ["", "### host functions", ""]
    if hosts:
        head = ["| Where | Function | Findings |", "| --- | --- | --- |"]
        rows = [f"| {_where(r['file'], r['line'])} | {r['function']} | "
                + _cell("<br>".join(f"line {f['line']}, {f['code']}{' (applied)' if f['applied'] else ''}: "
                                    f"{inline(f['message'])}" for f in r["findings"])) + " |" for r in hosts]
        shown = _table(out, head, rows, budget)
        if shown < len(rows):
            left.append(f"{len(rows) - shown} of the {len(rows)} host functions with findings")
    else:
        out.append("No host function with a finding.")
    out += [f"- missing: {inline(m)}" for m in missing]
    if left:
        out += ["", "### Left out", "", f"To stay under GitHub's {LIMIT:,}-character limit, this report leaves out:"]
        out += [f"- {p}" for p in left]
        out += ["", "`cu2hip report --format json PATH` lists all of it."]
    return "\n".join(out) + "\n"


class _Budget:
    """Characters left for rows: take() says how many of the lines given fit."""

    def __init__(self, room: int):
        self.room = room

    def take(self, lines: list[str]) -> int:
        n = 0
        for line in lines:
            if len(line) + 1 > self.room:
                break
            self.room -= len(line) + 1
            n += 1
        return n


def _table(out: list[str], head: list[str], rows: list[str], budget: _Budget) -> int:
    """A table of as many `rows` as fit (none, not even the head, when none does); how many."""
    shown = max(budget.take(head + rows) - len(head), 0)
    if shown:
        out += head + rows[:shown]
    else:
        out.append("Left out (see the end).")
    return shown


def _counted_per_rule(items, more: str) -> list[str]:
    """One line per rule for findings left out: how many (how many applied), the first places."""
    by: dict[str, list] = {}
    for d in items:
        by.setdefault(d.code, []).append(d)
    out = []
    for code, found in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        places = ", ".join(code_span(f"{path_text(d.path)}:{d.line}") for d in found[:EXAMPLES])
        applied = sum(d.fix is not None for d in found)
        out.append(f"- {code}: {len(found)} {more}({applied} applied), e.g. {places}")
    return out


def _where(path: str, line: int) -> str:
    """A place in a table cell: inline code, the name on one line (positions.path_text)."""
    return _cell(code_span(f"{path_text(path)}:{line}"))


def _cell(text: str) -> str:
    """Markdown for a table cell: a pipe escaped, even in code."""
    return text.replace("|", "\\|")
