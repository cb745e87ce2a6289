"""GitHub Actions workflow commands: one annotation per diagnostic, on the file and line
of the pull request's view (`::warning file=...,line=...,col=...::message`).

Errors are `::error`, warnings `::warning`, notes and the applied fixes `::notice`; plain
renames are one notice per file and rule, at the first one, counting them all. Values
are escaped as the Actions toolkit escapes them (data: `%`, CR, LF; properties also
`:` and `,`), and a path that is not UTF-8 is written with positions.path_text's
lossless escape. Columns are code points, as GitHub counts them.
"""

from __future__ import annotations

from collections import Counter

from translator.output.positions import LineIndex, at_least, is_rename, path_text, text_safe

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def to_github(results, *, min_severity: str = "note") -> str:
    """The workflow commands for `results`, one per line ("" when there are none)."""
    out = []
    for r in results:
        index = LineIndex(r.input)
        for d in r.diagnostics:
            if not at_least(d.severity, min_severity):
                continue
            own = d.path == r.path
            col = index.codepoint_col(d.line, d.col) if own else d.col
            end_col = index.codepoint_col(d.end_line, d.end_col) if own else d.end_col
            out.append(_command(COMMANDS.get(d.severity, "notice"), d.path, d.line, col, d.end_line, end_col,
                                d.code, d.message))
        if not at_least("note", min_severity):
            continue
        renames: dict[str, list] = {}
        for f in r.applied:
            if not f.edits:
                continue
            if is_rename(f, r.input):
                renames.setdefault(f.rule, []).append(f)
                continue
            out.append(_at(index, r.path, f.edits[0], f.rule, f.reason))
        for rule_id, fixes in renames.items():
            first = min((e for f in fixes for e in f.edits), key=lambda e: e.start)
            edits = sum(len(f.edits) for f in fixes)
            reasons = Counter(f.reason for f in fixes)
            message = fixes[0].reason if len(fixes) == 1 else f"{edits} renames: " + "; ".join(
                reason + (f" (x{n})" if n > 1 else "") for reason, n in sorted(reasons.items()))
            out.append(_at(index, r.path, first, rule_id, message))
    return "".join(line + "\n" for line in out)


def _at(index: LineIndex, path: str, edit, rule_id: str, message: str) -> str:
    (line, col), (end_line, end_col) = index.codepoint_position(edit.start), index.codepoint_position(edit.end)
    return _command("notice", path, line, col, end_line, end_col, rule_id, message)


def _command(kind: str, path: str, line: int, col: int, end_line: int, end_col: int, title: str,
             message: str) -> str:
    props = [("file", path_text(path)), ("line", line), ("col", col), ("endLine", end_line),
             ("endColumn", end_col), ("title", title)]
    return f"::{kind} " + ",".join(f"{k}={escape_property(str(v))}" for k, v in props) + \
        f"::{escape_data(message)}"


def escape_data(text: str) -> str:
    return text_safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
