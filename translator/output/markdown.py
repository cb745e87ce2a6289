"""The pull-request comment: counts per rule, then each file's annotated diff and
diagnostics folded in a <details> block, so a long translation stays readable."""

from __future__ import annotations

import html
from collections import Counter

from translator.output.diff import annotated_diff

TITLE = "## cu2hip translation review"


def to_markdown(results) -> str:
    """GitHub-flavoured Markdown for `results`; files with no change and no diagnostic
    are left out, and "No changes." stands alone when that is all of them."""
    shown = [r for r in results if r.input != r.output or r.diagnostics]
    if not shown:
        return f"{TITLE}\n\nNo changes.\n"
    edits: Counter[str] = Counter(f.rule for r in shown for f in r.applied)
    diags: Counter[str] = Counter(d.code for r in shown for d in r.diagnostics)
    out = [TITLE, "", "| Rule | Edits | Diagnostics |", "| --- | ---: | ---: |"]
    out += [f"| {rule} | {edits[rule]} | {diags[rule]} |" for rule in sorted(edits | diags)]
    for r in shown:
        summary = (f"<code>{html.escape(r.path)}</code>: {_count(len(r.applied), 'edit')}, "
                   f"{_count(len(r.diagnostics), 'diagnostic')}")
        out += ["", f"<details><summary>{summary}</summary>", ""]
        diff = annotated_diff(r)
        if diff:
            fence = "`" * max(3, longest_run(diff, "`") + 1)
            out += [f"{fence}diff", diff.rstrip("\n"), fence, ""]
        if r.diagnostics:
            out += [f"- {_code_span(d.format())}" for d in r.diagnostics] + [""]
        out.append("</details>")
    return "\n".join(out) + "\n"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def longest_run(text: str, char: str) -> int:
    """The longest run of `char` in `text`: a code fence or span must outrun it."""
    best = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        best = max(best, run)
    return best


def _code_span(text: str) -> str:
    """`text` as inline code, whatever backticks it holds."""
    ticks = "`" * (longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"
