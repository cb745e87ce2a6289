"""GitHub Actions workflow commands: annotations on the file and line of the pull
request's view (`::warning file=...,line=...,col=...::message`).

GitHub shows at most 10 annotations of each level per step, in the order they come, so
the errors come first, then the warnings, then the notices. A level with more than
`limit` annotations is given one by one as far as room allows and then one annotation
per rule for the rest (at the first of them, counting them and naming the next places).
Notes and the applied fixes are `::notice`, one per rule over all the files, at its
first place, counting them (renames, edits, notes); the most frequent rule first. Values are escaped as the Actions toolkit escapes them (data: `%`, CR, LF;
properties also `:` and `,`), and a path that is not UTF-8 or holds a control character
(a line feed that would start a workflow command of its own) is written with
positions.path_text's lossless escape. Columns are code points, as GitHub counts them.
"""

from __future__ import annotations

import re
from collections import Counter

from translator.output.positions import LineIndex, _escape_control, at_least, is_rename, path_text, text_safe

_BREAK = re.compile("[\x85\u2028\u2029]")
COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}
LIMIT = 10          # annotations of one level that GitHub shows per step
EXAMPLES = 3        # further places named in a summary annotation
REASONS = 3         # distinct messages quoted in a summary annotation
MESSAGE = 200       # characters of a message quoted in a summary


def to_github(results, *, min_severity: str = "note", limit: int = LIMIT) -> str:
    """The workflow commands for `results`, one per line ("" when there are none)."""
    levels: dict[str, list] = {"error": [], "warning": []}
    notices: dict[str, list] = {}      # rule -> its notices: (kind, where, message)
    for r in results:
        index = LineIndex(r.input)
        for d in r.diagnostics:
            if not at_least(d.severity, min_severity):
                continue
            own = d.path == r.path
            col = index.codepoint_col(d.line, d.col) if own else d.col
            end_col = index.codepoint_col(d.end_line, d.end_col) if own else d.end_col
            where = (d.path, d.line, col, d.end_line, end_col)
            if d.severity in levels:
                levels[d.severity].append((d.code, where, d.message))
            else:
                notices.setdefault(d.code, []).append(("note", where, d.message))
        if not at_least("note", min_severity):
            continue
        for f in r.applied:
            if f.edits:
                kind = "rename" if is_rename(f, r.input) else "edit"
                first = min(f.edits, key=lambda e: e.start)
                notices.setdefault(f.rule, []).append((kind, _where(index, r.path, first), f.reason))
    out = []
    for severity, items in levels.items():
        out += _level(COMMANDS[severity], items, limit)
    for rule_id, items in sorted(notices.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append(_command("notice", items[0][1], rule_id, _summary(items)))
    return "".join(line + "\n" for line in out)


def _level(kind: str, items: list, limit: int) -> list[str]:
    """Annotations of one level: each of `items` while fewer than `limit` remain to be
    shown, then one per rule for the rest."""
    shown = len(items)
    while shown and shown + len({rule for rule, _, _ in items[shown:]}) > limit:
        shown -= 1
    out = [_command(kind, where, rule_id, message) for rule_id, where, message in items[:shown]]
    rest: dict[str, list] = {}
    for item in items[shown:]:
        rest.setdefault(item[0], []).append(item)
    for rule_id, group in rest.items():
        noun = {"notice": "note"}.get(kind, kind)
        others = group[1:1 + EXAMPLES]
        places = ", ".join(f"{path_text(p)}:{line}" for _, (p, line, *_), _ in others)
        more = f" and {len(group) - 1 - len(others)} more" if len(group) - 1 > len(others) else ""
        also = f"; also at {places}{more}" if others else ""
        message = (f"{len(group)} {noun}s of {rule_id} not annotated one by one (GitHub shows {limit} per step); "
                   f"this one: {_cut(group[0][2])}{also}; `cu2hip diff` lists them all"
                   if len(group) > 1 else group[0][2])
        out.append(_command(kind, group[0][1], rule_id, message))
    return out


def _summary(items: list) -> str:
    """The message of the one notice of a rule: its message when it is alone, else how
    many (renames, edits or notes; in how many files) and the most frequent messages."""
    if len(items) == 1:
        return items[0][2]
    kinds = {kind for kind, _, _ in items}
    if len(kinds) > 1:
        kinds = {"edit" if kind == "rename" else kind for kind in kinds}      # renames are edits
    noun = f"{kinds.pop()}s" if len(kinds) == 1 else "notes and edits"
    files = len({where[0] for _, where, _ in items})
    reasons = Counter(message for _, _, message in items)
    top = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    text = "; ".join(_cut(reason) + (f" (x{n})" if n > 1 else "") for reason, n in top[:REASONS])
    more = f"; and {len(top) - REASONS} other messages" if len(top) > REASONS else ""
    where = f" in {files} files" if files > 1 else ""
    return f"{len(items)} {noun}{where}: {text}{more}"


def _cut(message: str) -> str:
    return message if len(message) <= MESSAGE else message[:MESSAGE - 1].rstrip() + "…"


def _where(index: LineIndex, path: str, edit) -> tuple:
    (line, col), (end_line, end_col) = index.codepoint_position(edit.start), index.codepoint_position(edit.end)
    return path, line, col, end_line, end_col


def _command(kind: str, where: tuple, title: str, message: str) -> str:
    path, line, col, end_line, end_col = where
    props = [("file", path_text(path)), ("line", line), ("col", col), ("endLine", end_line),
             ("endColumn", end_col), ("title", title)]
    return f"::{kind} " + ",".join(f"{k}={escape_property(str(v))}" for k, v in props) + \
        f"::{escape_data(message)}"


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")


def escape_data(text: str) -> str:
    """As the toolkit escapes a message; the line breaks it does not know of (NEL, the
    line and paragraph separators, which a name a message quotes may hold) as `\\uNNNN`."""
    # A terminal control (ESC, BEL...) a quoted name holds is written as path_text writes it:
    # the runner's log shows annotations as text.
    text = _CONTROL.sub(_escape_control, text_safe(text))
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _BREAK.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _BREAK.search(text) else text


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
