"""`cu2hip rules [ID]`: list the rule catalog, or explain one rule (as `ruff rule` does).
The README's code list and docs/rules.md are rendered here too (scripts/gen_rules_doc.py)."""

from __future__ import annotations

import json
import sys

from translator.catalog import Rule, catalog
from translator.rules import RulesError, declare, load_rules
from translator.settings import UsageError


def run(args) -> int:
    if args.rules:
        try:
            declare(load_rules(args.rules))
        except RulesError as exc:
            raise UsageError(str(exc)) from None
    rules = catalog()
    if args.id is None:
        if args.format == "json":
            print(json.dumps([_as_json(r) for r in rules.values()], indent=2))
        elif args.format == "markdown":
            sys.stdout.write(markdown_page(rules))
        else:
            sys.stdout.write(listing(rules))
        return 0
    chosen = rules.get(args.id.upper())
    if chosen is None:
        near = [r for r in rules if r.startswith(args.id.upper()[:1])]
        raise UsageError(f"no rule {args.id!r}" + (f" (rules starting so: {', '.join(near)})" if near else ""))
    if args.format == "json":
        print(json.dumps(_as_json(chosen), indent=2))
    else:
        sys.stdout.write(explain(chosen, markdown=args.format == "markdown"))
    return 0


def _fix_word(r: Rule) -> str:
    return "-" if not r.edits else ("safe" if r.safe else "semantic")


def listing(rules: dict[str, Rule]) -> str:
    """One line a rule: id, name, severity, edit (safe, semantic or -), summary."""
    width = max(len(r.name) for r in rules.values())
    lines = [f"{'id':<5} {'name':<{width}} {'severity':<8} {'edit':<8} summary"]
    lines += [f"{r.id:<5} {r.name:<{width}} {r.severity:<8} {_fix_word(r):<8} {r.summary}" for r in rules.values()]
    return "\n".join(lines) + "\n"


def explain(r: Rule, markdown: bool = False) -> str:
    heading = f"## {r.id} {r.name}" if markdown else f"{r.id} {r.name}"
    edit = "no edit" if not r.edits else ("edits; always safe" if r.safe else
                                          "edits; semantic (relies on an analysis)")
    out = [heading, "", f"{r.summary}.", "", f"Severity: {r.severity}; {edit}.", "", r.explanation, ""]
    if r.example:
        options = f" (with `{' '.join(r.options)}`)" if r.options else ""
        out += [f"Example{options}:", ""]
        source, target = _languages(r)
        out += _block(r.example, source, markdown)
        if r.translation != r.example:
            out += ["", "becomes:", ""] + _block(r.translation, target, markdown)
        else:
            out += ["", "is left as it is."]
        out.append("")
    return "\n".join(out) + "\n"


def _languages(r: Rule) -> tuple[str, str]:
    """The fences of a rule's example and translation: CUDA and C++, or a build file's language."""
    from translator.buildfiles import build_kind
    kind = build_kind(r.example_path) if r.example_path else None
    return (kind, kind) if kind else ("cuda", "cpp")


def _block(code: str, language: str, markdown: bool) -> list[str]:
    shown = code.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace").replace("\0", "\\0")
    lines = shown.rstrip("\n").split("\n")
    if markdown:
        return [f"```{language}", *lines, "```"]
    return ["    " + line for line in lines]


def readme_table(rules: dict[str, Rule]) -> str:
    """The README's code list: one table row a rule."""
    rows = ["| id | name | severity | edit | summary |", "|---|---|---|---|---|"]
    rows += [f"| `{r.id}` | {r.name} | {r.severity} | {_fix_word(r)} | {r.summary} |" for r in rules.values()]
    return "\n".join(rows) + "\n"


def markdown_page(rules: dict[str, Rule]) -> str:
    head = ("# cu2hip rules\n\nGenerated from the rule catalog by `python scripts/gen_rules_doc.py`; do not edit.\n"
            "Every code cu2hip reports or edits with. Select or drop them with `--select`/`--ignore` (ids or\n"
            "prefixes), silence one on a line with `// cu2hip: ignore[ID]`, in a file with\n"
            "`// cu2hip: ignore-file[ID]`.\n\n" + readme_table(rules) + "\n")
    return head + "\n".join(explain(r, markdown=True) for r in rules.values())


def _as_json(r: Rule) -> dict:
    return {"id": r.id, "name": r.name, "severity": r.severity, "edits": r.edits, "safe": r.safe,
            "summary": r.summary, "explanation": r.explanation, "example": r.example, "translation": r.translation,
            "options": list(r.options)}
