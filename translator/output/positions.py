"""Positions in a file's bytes: lines, byte and code-point columns, output offsets.

A line is split on b"\\n" only, so a CRLF file keeps its "\\r" inside the line and
columns stay byte counts, the unit the diagnostics use. Code-point columns (for SARIF)
are derived from the bytes, decoding only the part of one line that is measured.
"""

from __future__ import annotations

import bisect


def split_lines(data: bytes) -> list[bytes]:
    """The lines of `data`, each with its b"\\n" (the last one may lack it); none for b""."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def display(data: bytes) -> str:
    """Bytes as text for display only: UTF-8, invalid bytes replaced."""
    return data.decode("utf-8", errors="replace")


class LineIndex:
    """Line starts of one text, for offset -> (line, column) in both directions."""

    def __init__(self, data: bytes):
        self.data = data
        self.starts = [0]
        i = data.find(b"\n")
        while i >= 0:
            self.starts.append(i + 1)
            i = data.find(b"\n", i + 1)

    def line_of(self, offset: int) -> int:
        """The 0-based line that holds `offset` (the end of the text is on the last line)."""
        return bisect.bisect_right(self.starts, offset) - 1

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, byte column) of a byte offset."""
        line = self.line_of(offset)
        return line + 1, offset - self.starts[line] + 1

    def line_bytes(self, line: int) -> bytes:
        """The bytes of 1-based `line` without its b"\\n"; b"" past either end."""
        if not 1 <= line <= len(self.starts):
            return b""
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.data)
        return self.data[start:end]

    def codepoint_col(self, line: int, col: int) -> int:
        """The 1-based code-point column of 1-based byte column `col` on `line`; a column
        past the end of the line counts the missing bytes as one code point each."""
        text = self.line_bytes(line)
        prefix = text[:max(col - 1, 0)]
        return len(display(prefix)) + 1 + max(0, col - 1 - len(text))

    def codepoint_position(self, offset: int) -> tuple[int, int]:
        """1-based (line, code-point column) of a byte offset."""
        line, col = self.position(offset)
        return line, self.codepoint_col(line, col)


def output_spans(fixes) -> list[list[tuple[int, int]]]:
    """For each applied fix, the (start, end) byte span of each of its edits' new text in
    the output. Edits are laid out as the applier does: by start, an insertion before a
    replacement at the same point, then in the order accepted; each shifts the ones after
    it by its change in length."""
    keyed = []
    for fi, fix in enumerate(fixes):
        for ei, e in enumerate(fix.edits):
            keyed.append((e.start, 0 if e.start == e.end else 1, len(keyed), fi, ei, e))
    keyed.sort(key=lambda k: k[:3])
    spans: list[list[tuple[int, int]]] = [[(0, 0)] * len(f.edits) for f in fixes]
    shift = 0
    for start, _, _, fi, ei, e in keyed:
        spans[fi][ei] = (start + shift, start + shift + len(e.text))
        shift += len(e.text) - (e.end - e.start)
    return spans
