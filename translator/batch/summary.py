"""The batch's summary, as JSON (for a dashboard or a bot) and as Markdown (a PR comment).

JSON: `{"tool": {...}, "totals": {...}, "repositories": [...]}`, a repository's entry with
name, source, ref, commit (the one checked out, for a git URL), output, status (`ok`,
`unchanged` when the output was already what the translation gives, `failed`), files,
changed files, edits, errors, warnings, edits and diagnostics by rule, files answered
from the cache, seconds, and the error of a failed one.
"""

from __future__ import annotations

import html

from translator.output.jsonfmt import dumps

COUNTS = ("files", "changed_files", "edits", "errors", "warnings", "cached")


def status(result: dict) -> str:
    if result["status"] != "ok":
        return "failed"
    return "ok" if result["output_changed"] else "unchanged"


def totals(results: list[dict], seconds: float) -> dict:
    done = [r for r in results if r["status"] == "ok"]
    out = {"repositories": len(results), "failed": len(results) - len(done),
           "unchanged": sum(not r["output_changed"] for r in done), "seconds": round(seconds, 3)}
    for key in COUNTS:
        out[key] = sum(r[key] for r in done)
    rules: dict[str, int] = {}
    for r in done:
        for table in (r["edits_by_rule"], r["diagnostics_by_rule"]):
            for rule, n in table.items():
                rules[rule] = rules.get(rule, 0) + n
    out["rules"] = dict(sorted(rules.items()))
    return out


def to_json(results: list[dict], seconds: float, version: str) -> str:
    repos = [{**r, "status": status(r)} for r in results]
    return dumps({"tool": {"name": "cu2hip", "version": version}, "totals": totals(results, seconds),
                  "repositories": repos}) + "\n"


def to_markdown(results: list[dict], seconds: float) -> str:
    t = totals(results, seconds)
    lines = [f"## cu2hip batch: {t['repositories']} repositories, {t['failed']} failed",
             "",
             f"{t['files']} files, {t['changed_files']} changed, {t['edits']} edits, {t['errors']} errors, "
             f"{t['warnings']} warnings; {t['cached']} files from the cache; {t['seconds']:.1f} s.",
             "",
             "| repository | status | files | changed | edits | errors | warnings | cached | seconds |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        if r["status"] == "ok":
            cells = [str(r[k]) for k in COUNTS[:3]] + [str(r["errors"]), str(r["warnings"]), str(r["cached"]),
                                                         f"{r['seconds']:.1f}"]
        else:
            cells = [""] * 7
        lines.append(f"| {_code(r['name'])} | {status(r)} | " + " | ".join(cells) + " |")
    if t["rules"]:
        lines += ["", "Rules fired (edits and diagnostics), all repositories: "
                  + ", ".join(f"{rule} {n}" for rule, n in t["rules"].items()) + "."]
    failures = [r for r in results if r["status"] != "ok"]
    if failures:
        lines += ["", "### Failed", ""]
        for r in failures:
            lines += [f"- {_code(r['name'])} ({_code(r['source'])}):", "",
                      f"<pre>{html.escape(r['error'], quote=False)}</pre>", ""]
    return "\n".join(lines) + "\n"


def _code(text: str) -> str:
    """Inline code that no name can break out of (a path may hold backticks, `|`, newlines)."""
    return "<code>" + html.escape(" ".join(text.splitlines()), quote=False).replace("|", "&#124;") + "</code>"
