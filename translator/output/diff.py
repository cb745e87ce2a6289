"""The annotated unified diff: what a translation changes, and which rule changed it.

Each hunk header is followed by one `# RULE reason` line per applied fix whose new text
lies on the hunk's changed lines, so a reviewer sees why every line moved. Fixes are
placed by their position in the output, which both sides of the diff share in either
mode: input vs output, or an existing translation on disk vs output (a regeneration).
"""

from __future__ import annotations

import bisect
import difflib
from dataclasses import dataclass

from translator.output.positions import (LineIndex, display, is_rename, one_line, output_spans, patch_path,
                                        quoted_path, split_lines)

BOLD, RED, GREEN, CYAN, YELLOW = "1", "31", "32", "36", "33"
NO_NEWLINE = "\\ No newline at end of file"


def annotated_diff(result, *, color: bool = False, context: int = 3,
                   against: bytes | None = None, annotate: bool = True) -> str:
    """A unified diff of `result.input` (or of `against`, an existing translation) vs
    `result.output`, each hunk annotated with the fixes behind it (unless `annotate` is
    False: a plain patch that `patch` and `git apply` take); "" when they agree."""
    old = result.input if against is None else against
    new = result.output
    if old == new:
        return ""
    a, b = split_lines(old), split_lines(new)

    def paint(code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color else text

    path = patch_path(result.path)
    label = quoted_path(f"a/{path}") + (" (existing translation)" if against is not None else "")
    out = [paint(BOLD, f"--- {label}"), paint(BOLD, f"+++ {quoted_path(f'b/{path}')}")]
    notes = _fix_notes(result.applied, new) if annotate else []
    matcher = difflib.SequenceMatcher(None, a, b)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        out.append(paint(CYAN, f"@@ -{_range(first[1], last[2])} "
                               f"+{_range(first[3], last[4])} @@"))
        changed = [(j1, j2) for tag, _, _, j1, j2 in group if tag != "equal"]
        seen: set[str] = set()
        for spans, note in notes:
            if note not in seen and any(_meets(s, c) for s in spans for c in changed):
                seen.add(note)
                out.append(paint(YELLOW, one_line(note)))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                _lines(out, " ", a[i1:i2], None, paint)
                continue
            _lines(out, "-", a[i1:i2], RED, paint)
            _lines(out, "+", b[j1:j2], GREEN, paint)
    return "\n".join(out) + "\n"


def _lines(out: list[str], prefix: str, lines: list[bytes], code: str | None, paint) -> None:
    for line in lines:
        text = prefix + display(line.removesuffix(b"\n"))
        out.append(paint(code, text) if code else text)
        if not line.endswith(b"\n"):
            out.append(NO_NEWLINE)


def _range(start: int, stop: int) -> str:
    """A hunk range as `diff -u` writes it: `l,n`, `l` alone when n is 1, `l-1,0` when empty."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _fix_notes(applied, output: bytes) -> list[tuple[list[tuple[int, int]], str]]:
    """Per applied fix in source order: the 0-based output line intervals of its edits'
    new text ([l, l) for a deletion, at the line where the text was) and its note."""
    index = LineIndex(output)
    notes = []
    for order, (fix, spans) in enumerate(zip(applied, output_spans(applied))):
        if not fix.edits:
            continue
        lines = []
        for start, end in spans:
            first = index.line_of(start)
            lines.append((first, index.line_of(end - 1) + 1 if end > start else first))
        key = (min(e.start for e in fix.edits), order)
        notes.append((key, lines, f"# {fix.rule} {fix.reason}"))
    notes.sort(key=lambda n: n[0])
    return [(lines, note) for _, lines, note in notes]


def _meets(x: tuple[int, int], y: tuple[int, int]) -> bool:
    """Whether two line intervals overlap; an empty one is a point between lines."""
    (x1, x2), (y1, y2) = x, y
    if x1 == x2 and y1 == y2:
        return x1 == y1
    if x1 == x2:
        return y1 <= x1 < y2
    if y1 == y2:
        return x1 <= y1 < x2
    return x1 < y2 and y1 < x2


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: bytes


@dataclass(frozen=True)
class _Fix:
    edits: tuple
    rule: str
    reason: str
    safety: str


@dataclass(frozen=True)
class Folded:
    """A result with its plain renames already applied to the input: its diff shows
    what else the translation changes. `renames` counts the folded fixes by rule."""
    path: str
    input: bytes
    output: bytes
    applied: tuple
    diagnostics: tuple
    renames: dict


def fold_renames(result) -> Folded:
    """`result` with its plain renames (positions.is_rename) moved into the input, and
    the other fixes' edits shifted onto that input."""
    renames = [f for f in result.applied if is_rename(f, result.input)]
    counts: dict[str, int] = {}
    for f in renames:
        counts[f.rule] = counts.get(f.rule, 0) + 1
    swaps = sorted((e for f in renames for e in f.edits), key=lambda e: e.start)
    parts, pos, ends, shifts = [], 0, [], []
    for e in swaps:
        parts += [result.input[pos:e.start], e.text]
        pos = e.end
        ends.append(e.end)
        shifts.append((shifts[-1] if shifts else 0) + len(e.text) - (e.end - e.start))
    parts.append(result.input[pos:])

    def shift(offset: int) -> int:
        # the renames that end at or before `offset` (a rename is never empty, and never
        # overlaps another fix's edit)
        k = bisect.bisect_right(ends, offset)
        return offset + (shifts[k - 1] if k else 0)

    others = tuple(_Fix(tuple(_Edit(shift(e.start), shift(e.start) + (e.end - e.start), e.text) for e in f.edits),
                        f.rule, f.reason, getattr(f, "safety", "safe"))
                   for f in result.applied if not is_rename(f, result.input))
    return Folded(result.path, b"".join(parts), result.output, others, tuple(result.diagnostics), counts)
