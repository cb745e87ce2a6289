"""The pull-request comment, kept under GitHub's 65,536-character limit.

Ordered by severity. It always holds the totals and the counts per rule, then every
error with its place and message (as long as the errors alone fit: past that, the rest
counted per rule with their first places). Then, as room allows: every warning (those that do not fit
counted per rule, with the first few places); the notes, counted per rule with the first
few places (the rewrites of the optimizing passes, the rules with a report topic, the
same way); the counts per file; and each file's annotated diff and notes folded in a
<details> block, the files with errors first. When the full diffs do not fit, plain
renames (an identifier or a header name swapped for another) are folded into counts and
each diff shows the rest; a diff that still does not fit is left out. A closing section
names what was folded, counted or left out, and how to see it (`cu2hip diff`).
"""

from __future__ import annotations

import html
from collections import Counter

from translator.output.diff import annotated_diff, fold_renames
from translator.output.positions import SEVERITY_RANK, at_least, is_rename, one_line, path_text

TITLE = "## cu2hip translation review"
LIMIT = 65_536          # GitHub's limit on a comment, in characters
RESERVE = 6_000         # kept for the closing section while the optional parts are laid out
EXAMPLES = 3            # places shown for a rule whose findings are counted
MESSAGE = 160           # characters of a message shown beside an example place


def to_markdown(results, rules=(), *, limit: int = LIMIT, min_severity: str = "note") -> str:
    """GitHub-flavoured Markdown for `results` (shorter than `limit` characters). `rules`
    (the catalog) gives each rule's name and report topic. Files with no change and no
    diagnostic are left out, and "No changes." stands alone when that is all of them;
    diagnostics below `min_severity` are not shown."""
    catalog = {r.id: r for r in rules}
    name = lambda rule_id: getattr(catalog.get(rule_id), "name", "")     # noqa: E731
    topic = lambda rule_id: getattr(catalog.get(rule_id), "topic", None)   # noqa: E731
    diagnostics = {id(r): [d for d in r.diagnostics if at_least(d.severity, min_severity)] for r in results}
    shown = [r for r in results if r.input != r.output or diagnostics[id(r)]]
    if not shown:
        return f"{TITLE}\n\nNo changes.\n"
    # Files by their worst diagnostic, errors first; in input order within each.
    worst = {id(r): max((SEVERITY_RANK.get(d.severity, 0) for d in diagnostics[id(r)]), default=-1) for r in shown}
    shown = sorted(shown, key=lambda r: -worst[id(r)])
    renames = {id(r): [f for f in r.applied if is_rename(f, r.input)] for r in shown}
    edits: Counter[str] = Counter(f.rule for r in shown for f in r.applied)
    folded: Counter[str] = Counter(f.rule for r in shown for f in renames[id(r)])
    diags: Counter[str] = Counter(d.code for r in shown for d in diagnostics[id(r)])
    severities = Counter(d.severity for r in shown for d in diagnostics[id(r)])

    head = [TITLE, "", _totals(len(results), shown, edits, folded, severities), "",
            "| Rule | Name | Edits | Renames | Diagnostics |", "| --- | --- | ---: | ---: | ---: |"]
    head += [f"| {rule} | {name(rule)} | {edits[rule]} | {folded[rule]} | {diags[rule]} |"
             for rule in sorted(edits | diags)]
    text = "\n".join(head) + "\n"
    left: list[str] = []
    # Errors, then warnings, one line each while room allows; the rest counted per rule.
    for severity in ("error", "warning"):
        items = [d for r in shown for d in diagnostics[id(r)] if d.severity == severity]
        if not items:
            continue
        title = f"\n### {severity.capitalize()}s ({len(items):,})\n\n"
        room = limit - RESERVE - len(text) - len(title)
        lines = [f"- {code_span(_place(d))} [{d.code}]: {inline(d.message)}\n" for d in items]
        listed, used = 0, 0
        while listed < len(lines) and used + len(lines[listed]) <= room:
            used += len(lines[listed])
            listed += 1
        rest = ""
        while listed < len(lines):
            rest = "".join(line + "\n" for line in _by_rule(
                [(d.code, _place(d), d.message) for d in items[listed:]], name, f"more {severity}"))
            if used + len(rest) <= room or not listed:
                break
            listed -= 1
            used -= len(lines[listed])
        text += title + "".join(lines[:listed]) + rest
        if listed < len(items):
            left.append(f"{_count(len(items) - listed, severity)}, counted per rule with the first "
                        f"{EXAMPLES} places")
    # A note of an optimizing pass that says what a rewrite of its rule in the file says
    # is that rewrite: it is counted with the rewrites.
    said = {id(r): [(f.rule, f.reason) for f in r.applied if topic(f.rule) and f.edits] for r in shown}
    notes = [(d.code, _place(d), d.message) for r in shown for d in diagnostics[id(r)]
             if d.severity not in ("error", "warning") and not (topic(d.code) and any(
                 rule == d.code and reason.startswith(d.message) for rule, reason in said[id(r)]))]
    if notes:
        text += _counted(f"\n### Notes ({len(notes):,})\n\nCounted per rule, with the first {EXAMPLES} places:\n\n",
                         _by_rule(notes, name, "note"), limit - RESERVE - len(text), left, "notes")
    rewrites = [(f.rule, f"{path_text(r.path)}:{_line_of(r.input, f)}", f.reason)
                for r in shown for f in r.applied if topic(f.rule) and f.edits]
    if rewrites:
        text += _counted(f"\n### Optimizing passes ({_count(len(rewrites), 'rewrite')})\n\nCounted per rule, "
                         f"with the first {EXAMPLES} places (`cu2hip report PATH` lists every one, and each one "
                         "refused):\n\n", _by_rule(rewrites, name, "rewrite"), limit - RESERVE - len(text), left,
                         "optimizing passes' rewrites")
    room = limit - RESERVE - len(text)
    table = _file_table(shown, renames, diagnostics)
    if len(table) <= room:
        text += table
        room -= len(table)
    else:
        left.append(f"the table of counts per file ({len(shown)} files)")

    full = [_block(r, annotated_diff(r), diagnostics[id(r)], None) for r in shown]
    if sum(len(b or "") for b in full) <= room:
        blocks, fold = full, False
    else:
        blocks, fold = [], True
        for r in shown:
            f = fold_renames(r)
            blocks.append(_block(r, annotated_diff(f) if f.input != f.output else "", diagnostics[id(r)],
                                 len(renames[id(r)])))
    # The smallest blocks first, so that as many files as possible are shown; shown in
    # the order of the table. A block with nothing in it (renames only, all folded) is
    # not written.
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
            f"{rule} {name(rule)} ({_count(n, 'edit')})".replace("  ", " ")
            for rule, n in sorted(folded.items())) + ".\n"
    if out_files or left:
        text += _left_out(out_files, diagnostics, left, limit - len(text) - 200)
    return text


def _counted(title: str, lines: list[str], room: int, left: list[str], what: str) -> str:
    """A section of lines counted per rule, as many as fit in `room` (the rest said in `left`)."""
    text = title
    for n, line in enumerate(lines):
        if len(text) + len(line) + 1 > room:
            left.append(f"the counts of {len(lines) - n} more rules' {what}")
            break
        text += line + "\n"
    return text if len(text) > len(title) else ""


def _line_of(data: bytes, fix) -> int:
    return data.count(b"\n", 0, min(e.start for e in fix.edits)) + 1


def _place(d) -> str:
    return f"{path_text(d.path)}:{d.line}:{d.col}"


def _by_rule(items, name, noun: str) -> list[str]:
    """One line per rule for `items` ((rule, place, message)): how many, and the first
    few places, each with its message (cut short); the most frequent rule first."""
    by: dict[str, list] = {}
    for rule, place, message in items:
        by.setdefault(rule, []).append((place, message))
    out = []
    for rule, found in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        label = f"**{rule}**" + (f" {name(rule)}" if name(rule) else "")
        places = "; ".join(f"{code_span(place)}: {inline(_cut(message))}" for place, message in found[:EXAMPLES])
        out.append(f"- {label}: {_count(len(found), noun)}, e.g. {places}")
    return out


def _cut(message: str) -> str:
    return message if len(message) <= MESSAGE else message[:MESSAGE - 1].rstrip() + "…"


def _totals(count: int, shown, edits: Counter, folded: Counter, severities: Counter) -> str:
    changed = sum(r.input != r.output for r in shown)
    return (f"{_count(count, 'file')}, {changed} changed: {_count(sum(edits.values()), 'edit')} "
            f"({sum(folded.values()):,} of them plain renames), "
            f"{_count(sum(severities.values()), 'diagnostic')} ({_count(severities['error'], 'error')}, "
            f"{_count(severities['warning'], 'warning')}, {_count(severities['note'], 'note')}).")


def _file_table(shown, renames, diagnostics) -> str:
    rows = ["", "### Files", "", "| File | Edits | Renames | Errors | Warnings | Notes |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in shown:
        s = Counter(d.severity for d in diagnostics[id(r)])
        name = code_span(path_text(r.path)).replace("|", "\\|")     # a pipe escaped, even in code
        rows.append(f"| {name} | {len(r.applied)} | "
                    f"{len(renames[id(r)])} | {s['error']} | {s['warning']} | {s['note']} |")
    return "\n".join(rows) + "\n"


def _block(r, diff: str, diagnostics, folded: int | None) -> str | None:
    """A file's <details>: its diff (renames folded when `folded` is a count) and its
    notes (its errors and warnings are listed above); None when that is nothing."""
    notes = [d for d in diagnostics if d.severity not in ("error", "warning")]
    if not diff and not notes:
        return None
    note = f" ({_count(folded, 'rename')} folded)" if folded else ""
    summary = (f"<code>{html.escape(path_text(r.path))}</code>: {_count(len(r.applied), 'edit')}{note}, "
               f"{_count(len(diagnostics), 'diagnostic')}")
    out = ["", f"<details><summary>{summary}</summary>", ""]
    if diff:
        fence = "`" * max(3, longest_run(diff, "`") + 1)
        out += [f"{fence}diff", diff.rstrip("\n"), fence, ""]
    if notes:
        out += [f"- {code_span(one_line(d.format()))}" for d in notes] + [""]
    out.append("</details>")
    return "\n".join(out) + "\n"


def _left_out(files, diagnostics, parts: list[str], room: int) -> str:
    """What did not fit, by name as far as room allows."""
    out = ["", "### Left out", "",
           f"To stay under GitHub's {LIMIT:,}-character limit, this comment leaves out:"]
    out += [f"- {p}" for p in parts]
    if files:
        count = sum(d.severity not in ("error", "warning") for r in files for d in diagnostics[id(r)])
        names, used = [], 0
        for r in files:
            name = code_span(path_text(r.path))
            if used + len(name) > room - 400:
                break
            names.append(name)
            used += len(name) + 2
        more = f" and {len(files) - len(names)} more" if len(names) < len(files) else ""
        notes = f" (and their {_count(count, 'note')})" if count else ""
        out.append(f"- the diffs of {_count(len(files), 'file')}{notes}: "
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
