"""Where lines start, for questions asked at many offsets of one text.

`text.rfind(b"\\n", 0, offset)` scans back to the line's start: cheap on ordinary
lines, but asked once per name on one 5 MB line it scans the line again for every name,
quadratic in the line's length (and so does anything that copies the line's head). The
functions here look back a short window first (what ordinary code needs) and past that
use a LineIndex of the text, built once per text: line starts found by bisection, and
per line what the questions need (where its logical line starts, its first non-blank
byte, its quotes, where a `//` begins), each line read a few times however many offsets
are asked about. `line_start` is `rfind + 1`; `in_directive` and
`comment_or_open_string` answer translator.scan's `_in_directive` and
`_in_broken_literal` on long lines.
"""

from __future__ import annotations

import bisect
import re
from array import array

_WINDOW = 4096          # bytes looked back before the index is built
_NEWLINE = re.compile(rb"\n")
_BLANKS = re.compile(rb"[ \t]*")
_QUOTE = re.compile(rb'(?<!\\)"')


class LineIndex:
    """The line starts of one text, and (on demand) where each logical line starts: a
    line continued from the one before it (a `\\` before the newline) starts with it."""

    def __init__(self, text: bytes):
        self.text = text
        self.starts = array("q", [0])
        self.starts.extend(m.end() for m in _NEWLINE.finditer(text))
        self._logical: dict[int, int] = {}
        self._code: dict[int, int] = {}          # logical line start -> its first non-blank byte
        self._comment: dict[int, int] = {}       # line start -> see `comment_or_open_string`
        self._quotes: dict[int, list[int]] = {}  # line start -> its unescaped quotes

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def line_start(self, offset: int) -> int:
        """The start of the line holding `offset`: `text.rfind(b"\\n", 0, offset) + 1`."""
        return self.starts[self.line_of(offset)]

    def logical_start(self, line: int) -> int:
        """The start of the logical line that physical line `line` belongs to; each line is
        looked at once, however many offsets are asked about."""
        memo, starts = self._logical, self.starts
        pending = []
        while line not in memo:
            if not _continued(self.text, starts[line]):
                memo[line] = starts[line]
                break
            pending.append(line)
            line -= 1
        start = memo[line]
        for k in pending:
            memo[k] = start
        return start

    def in_directive(self, offset: int) -> bool:
        """Is `offset` on a preprocessor directive's (logical) line, at or after its `#`?"""
        start = self.logical_start(self.line_of(offset))
        code = self._code.get(start)
        if code is None:
            code = self._code[start] = _BLANKS.match(self.text, start).end()
        return code < offset and self.text[code] == 0x23

    def comment_or_open_string(self, offset: int) -> bool:
        """`_line_says_literal` of the text from the line's start to `offset`, with each
        line read a few times, not once per offset."""
        text = self.text
        start = self.line_start(offset)
        first = self._comment.get(start)
        if first is None:
            # Whether the prefix up to an offset holds a `//` (with `://` taken out) only
            # turns from false to true as the offset grows: bisect for where it turns.
            line = self.line_of(offset)
            end = self.starts[line + 1] if line + 1 < len(self.starts) else len(text)
            lo, hi = start, end + 1           # answer in (lo, hi]; hi: never
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if b"//" in text[start:mid].replace(b"://", b""):
                    hi = mid
                else:
                    lo = mid
            first = self._comment[start] = hi
            self._quotes[start] = [m.start() for m in _QUOTE.finditer(text, start, end)]
        if offset >= first:
            return True
        return bisect.bisect_left(self._quotes[start], offset) % 2 == 1


def _line_says_literal(line: bytes) -> bool:
    """A line's text before a name that says the name is in a comment or a string: a
    `//` (a URL's `://` aside), or an odd number of unescaped quotes."""
    if b"//" in line.replace(b"://", b""):
        return True
    return len(_QUOTE.findall(line)) % 2 == 1


def _continued(text: bytes, start: int) -> bool:
    """Does the line that starts at `start` continue the line before it (a `\\` ends it)?"""
    return start > 1 and (text[start - 2:start - 1] == b"\\" or text[max(start - 3, 0):start - 1] == b"\\\r")


_LAST: list = [None]        # the LineIndex of the text asked about last


def index_of(text: bytes) -> LineIndex:
    held = _LAST[0]
    if held is None or held.text is not text:
        held = _LAST[0] = LineIndex(text)
    return held


def line_start(text: bytes, offset: int) -> int:
    """`text.rfind(b"\\n", 0, offset) + 1`, in time independent of the line's length
    (after one index of the text, built when a line is longer than a few KiB)."""
    lo = max(offset - _WINDOW, 0)
    found = text.rfind(b"\n", lo, offset)
    if found != -1 or lo == 0:
        return found + 1
    return index_of(text).line_start(offset)


def in_directive(text: bytes, offset: int) -> bool:
    """Is the offset on a preprocessor directive's line (a continued one included), after
    the `#`? (translator.scan._in_directive)"""
    lo = max(offset - _WINDOW, 0)
    found = text.rfind(b"\n", lo, offset)
    if found != -1 or lo == 0:
        start = found + 1
        if not _continued(text, start):
            code = _BLANKS.match(text, start, offset).end()
            return code < offset and text[code] == 0x23
    return index_of(text).in_directive(offset)


def comment_or_open_string(text: bytes, offset: int) -> bool:
    """Does the line's text before `offset` hold a `//` (a URL's `://` aside) or an odd
    number of unescaped quotes? (translator.scan._in_broken_literal)"""
    lo = max(offset - _WINDOW, 0)
    found = text.rfind(b"\n", lo, offset)
    if found != -1 or lo == 0:
        return _line_says_literal(text[found + 1:offset])
    return index_of(text).comment_or_open_string(offset)
