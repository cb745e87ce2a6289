"""The pull-request comment, kept under GitHub's 65,536-character limit.

It always holds: the totals, the counts per rule, and every rewrite and refusal of the
optimizing passes (the rules with a report topic) with its place and reason. Then, as
room allows: the counts per file, and each file's annotated diff and diagnostics folded
in a <details> block. When the full diffs do not fit, plain renames (an identifier or a
header name swapped for another) are folded into counts and each diff shows the rest;
a diff that still does not fit is left out. A closing section names what was folded
and what was left out, and how to see it (`cu2hip diff`).
"""

from __future__ import annotations

import html
from collections import Counter

from translator.output.diff import annotated_diff, fold_renames
from translator.output.positions import at_least, is_rename, one_line, path_text

TITLE = "## cu2hip translation review"
LIMIT = 65_536          # GitHub's limit on a comment, in characters
RESERVE = 6_000         # kept for the closing section while the optional parts are laid out


def to_markdown(results, rules=(), *, limit: int = LIMIT, min_severity: str = "note") -> str:
    """GitHub-flavoured Markdown for `results` (shorter than `limit` characters). `rules`
    (the catalog) gives each rule's name and report topic. Files with no change and no
    diagnostic are left out, and "No changes." stands alone when that is all of them;
    diagnostics below `min_severity` are not shown."""
    catalog = {r.id: r for r in rules}
    topic = lambda rule_id: getattr(catalog.get(rule_id), "topic", None)   # noqa: E731
    diagnostics = {id(r): [d for d in r.diagnostics if at_least(d.severity, min_severity)] for r in results}
    shown = [r for r in results if r.input != r.output or diagnostics[id(r)]]
    if not shown:
        return f"{TITLE}\n\nNo changes.\n"
    renames = {id(r): [f for f in r.applied if is_rename(f, r.input)] for r in shown}
    edits: Counter[str] = Counter(f.rule for r in shown for f in r.applied)
    folded: Counter[str] = Counter(f.rule for r in shown for f in renames[id(r)])
    diags: Counter[str] = Counter(d.code for r in shown for d in diagnostics[id(r)])
    severities = Counter(d.severity for r in shown for d in diagnostics[id(r)])

    head = [TITLE, "", _totals(len(results), shown, edits, folded, severities), "",
            "| Rule | Name | Edits | Renames | Diagnostics |", "| --- | --- | ---: | ---: | ---: |"]
    head += [f"| {rule} | {getattr(catalog.get(rule), 'name', '')} | {edits[rule]} | {folded[rule]} | {diags[rule]} |"
             for rule in sorted(edits | diags)]
    text = "\n".join(head) + "\n"
    left: list[str] = []
    findings = _optimizing(shown, diagnostics, topic)
    room = limit - RESERVE - len(text)
    for n, line in enumerate(findings):
        if len(line) + 1 > room:
            left.append(f"{len(findings) - n} lines of the optimizing passes' findings")
            break
        text += line + "\n"
        room -= len(line) + 1
    room = limit - RESERVE - len(text)
    table = _file_table(shown, renames, diagnostics)
    if len(table) <= room:
        text += table
        room -= len(table)
    else:
        left.append(f"the table of counts per file ({len(shown)} files)")

    full = [_block(r, annotated_diff(r), diagnostics[id(r)], topic, None) for r in shown]
    if sum(len(b or "") for b in full) <= room:
        blocks, fold = full, False
    else:
        blocks, fold = [], True
        for r in shown:
            f = fold_renames(r)
            blocks.append(_block(r, annotated_diff(f) if f.input != f.output else "", diagnostics[id(r)], topic,
                                 len(renames[id(r)])))
    # The smallest blocks first, so that as many files as possible are shown; shown in
    # input order. A block with nothing in it (renames only, all folded) is not written.
    keep, out_files = set(), []
    for k in sorted(range(len(shown)), key=lambda k: len(blocks[k] or "")):
        if blocks[k] is None:
            continue
        if len(blocks[k]) <= room:
            keep.add(k)
            room -= len(blocks[k])
        else:
            out_files.append(shown[k])
    text += "".join(blocks[k] for k in sorted(keep))
    out_files.sort(key=shown.index)
    if fold and folded:
        text += "\n### Folded\n\nPlain renames are counted, not shown: " + ", ".join(
            f"{rule} {getattr(catalog.get(rule), 'name', '')} ({_count(n, 'edit')})".replace("  ", " ")
            for rule, n in sorted(folded.items())) + ".\n"
    if out_files or left:
        text += _left_out(out_files, diagnostics, left, limit - len(text) - 200)
    return text


def _totals(count: int, shown, edits: Counter, folded: Counter, severities: Counter) -> str:
    changed = sum(r.input != r.output for r in shown)
    return (f"{_count(count, 'file')}, {changed} changed: {_count(sum(edits.values()), 'edit')} "
            f"({sum(folded.values()):,} of them plain renames), "
            f"{_count(sum(severities.values()), 'diagnostic')} ({_count(severities['error'], 'error')}, "
            f"{_count(severities['warning'], 'warning')}, {_count(severities['note'], 'note')}).")


def _optimizing(shown, diagnostics, topic) -> list[str]:
    """Every fix and diagnostic of a rule with a report topic, by topic, in full."""
    by_topic: dict[str, list[str]] = {}
    for r in shown:
        said = [(f.rule, f.reason) for f in r.applied if topic(f.rule) and f.edits]
        for f in r.applied:
            if topic(f.rule) and f.edits:
                line = r.input.count(b"\n", 0, min(e.start for e in f.edits)) + 1
                by_topic.setdefault(topic(f.rule), []).append(
                    f"- {code_span(f'{path_text(r.path)}:{line}')} rewritten [{f.rule}]: {inline(f.reason)}")
        for d in diagnostics[id(r)]:
            # A note that says what a rewrite of its rule in the file says is that rewrite.
            if topic(d.code) and not (d.severity == "note" and any(
                    rule == d.code and reason.startswith(d.message) for rule, reason in said)):
                by_topic.setdefault(topic(d.code), []).append(
                    f"- {code_span(f'{path_text(d.path)}:{d.line}:{d.col}')} {d.severity} [{d.code}]: "
                    f"{inline(d.message)}")
    if not by_topic:
        return []
    out = ["", "### Optimizing passes: every rewrite and refusal"]
    for name in sorted(by_topic):
        out += ["", f"#### {name}", ""] + by_topic[name]
    return out


def _file_table(shown, renames, diagnostics) -> str:
    rows = ["", "### Files", "", "| File | Edits | Renames | Errors | Warnings | Notes |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in shown:
        s = Counter(d.severity for d in diagnostics[id(r)])
        name = code_span(path_text(r.path)).replace("|", "\\|")     # a pipe escaped, even in code
        rows.append(f"| {name} | {len(r.applied)} | "
                    f"{len(renames[id(r)])} | {s['error']} | {s['warning']} | {s['note']} |")
    return "\n".join(rows) + "\n"


def _block(r, diff: str, diagnostics, topic, folded: int | None) -> str | None:
    """A file's <details>: its diff (renames folded when `folded` is a count) and its
    diagnostics, less those the optimizing section lists; None when that is nothing."""
    rest = [d for d in diagnostics if not topic(d.code)]
    if not diff and not rest:
        return None
    note = f" ({_count(folded, 'rename')} folded)" if folded else ""
    summary = (f"<code>{html.escape(path_text(r.path))}</code>: {_count(len(r.applied), 'edit')}{note}, "
               f"{_count(len(diagnostics), 'diagnostic')}")
    out = ["", f"<details><summary>{summary}</summary>", ""]
    if diff:
        fence = "`" * max(3, longest_run(diff, "`") + 1)
        out += [f"{fence}diff", diff.rstrip("\n"), fence, ""]
    if rest:
        out += [f"- {code_span(one_line(d.format()))}" for d in rest] + [""]
    out.append("</details>")
    return "\n".join(out) + "\n"


def _left_out(files, diagnostics, parts: list[str], room: int) -> str:
    """What did not fit, by name as far as room allows."""
    out = ["", "### Left out", "",
           f"To stay under GitHub's {LIMIT:,}-character limit, this comment leaves out:"]
    out += [f"- {p}" for p in parts]
    if files:
        count = sum(len(diagnostics[id(r)]) for r in files)
        names, used = [], 0
        for r in files:
            name = code_span(path_text(r.path))
            if used + len(name) > room - 400:
                break
            names.append(name)
            used += len(name) + 2
        more = f" and {len(files) - len(names)} more" if len(names) < len(files) else ""
        out.append(f"- the diffs and diagnostics ({_count(count, 'diagnostic')}) of {_count(len(files), 'file')}: "
                   + ", ".join(names) + more)
    out += ["", "`cu2hip diff PATH` shows all of it."]
    return "\n".join(out) + "\n"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def inline(text: str) -> str:
    """A message on one Markdown line (positions.one_line), its HTML escaped."""
    return html.escape(one_line(text), quote=False)


def longest_run(text: str, char: str) -> int:
    """The longest run of `char` in `text`: a code fence or span must outrun it."""
    best = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        best = max(best, run)
    return best


def code_span(text: str) -> str:
    """`text` as inline code, whatever backticks it holds."""
    ticks = "`" * (longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"
