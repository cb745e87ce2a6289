"""Positions in a file's bytes: lines, byte and code-point columns, output offsets.

A line is split on b"\\n" only, so a CRLF file keeps its "\\r" inside the line and
columns stay byte counts, the unit the diagnostics use. Code-point columns (for SARIF)
are derived from the bytes, decoding only the part of one line that is measured.
"""

from __future__ import annotations

import bisect
import os
import re


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


_SURROGATE = re.compile("[\ud800-\udfff]")
# What can end a line or drive a terminal where a name is printed: C0 controls, DEL, C1
# controls (U+0085 ends a line for some readers) and Unicode's line and paragraph
# separators. A name holding one could print a line of its own (`\n::error ...` is a
# GitHub workflow command) or, in Markdown, a blank line that ends its code span.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_BUT_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_NAME = re.compile(rb"[A-Za-z_]\w*\Z")
_HEADER_NAME = re.compile(rb"[\w./+-]+\Z")


def path_bytes(path: str) -> bytes:
    """A path's own bytes: names the file system gave as bytes that are not UTF-8 are
    held as lone surrogates (Python's surrogateescape), and come back as those bytes."""
    return os.fsencode(path)


def _escape_control(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"


def path_text(path: str) -> str:
    """A path as text that is valid UTF-8, on one line, and says its bytes exactly: a
    name that is UTF-8 with no backslash or control character is itself; otherwise each
    byte that is not UTF-8 and each control byte is written `\\xNN`, a C1 control or a
    line separator `\\uNNNN`, and a backslash `\\\\` (so the escape is lossless). Every
    format shows names through it (or through quoted_path, or percent-encoded in a URI)."""
    if not _SURROGATE.search(path) and "\\" not in path and not _CONTROL.search(path):
        return path
    text = path_bytes(path).replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace")
    return _CONTROL.sub(_escape_control, text)


def patch_path(path: str) -> str:
    """The path a patch header gives a file (after `a/` or `b/`), so that `git apply` and
    `patch -p1` take it from the folder the command ran in: a relative path as given; an
    absolute one as the path from the current folder when it is under it, else without its
    leading `/`, as git diff writes it (the patch then applies from `/`: a name with `..`
    takes neither tool)."""
    if not os.path.isabs(path):
        return path
    try:
        relative = os.path.relpath(path)
    except ValueError:           # another drive
        relative = os.pardir
    if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
        return relative
    return path.lstrip("/")


def quoted_path(path: str) -> str:
    """A path as git writes it in a diff header: itself, or, when it holds a byte that is
    not UTF-8, a double quote, a backslash or a control character (C0, DEL, C1, or a line
    or paragraph separator), quoted in double quotes with C escapes (octal for the
    bytes), which `git apply` reads back."""
    if not _SURROGATE.search(path) and not any(c in '"\\' for c in path) and not _CONTROL.search(path):
        return path
    out = []
    for b in path_bytes(path):
        c = chr(b)
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\t":
            out.append("\\t")
        elif c == "\n":
            out.append("\\n")
        elif b < 32 or b >= 127:
            out.append(f"\\{b:03o}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def text_safe(text: str) -> str:
    """Text for output that must be valid UTF-8 (a message that quotes a path, say): each
    lone surrogate, a byte a name held that is not UTF-8, written `\\xNN`."""
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}" if ord(m.group()) >= 0xDC80
                          else f"\\u{ord(m.group()):04x}", text)


def one_line(text: str) -> str:
    """A message as one line of valid UTF-8 (text_safe), each control character but the
    tab written as path_text writes it: a name the message quotes cannot start a line."""
    text = text_safe(text)
    return _CONTROL_BUT_TAB.sub(_escape_control, text) if _CONTROL_BUT_TAB.search(text) else text


SEVERITY_RANK = {"note": 0, "warning": 1, "error": 2}


def at_least(severity: str, minimum: str) -> bool:
    """Whether a diagnostic of `severity` is shown under `--min-severity minimum`."""
    return SEVERITY_RANK.get(severity, 0) >= SEVERITY_RANK[minimum]


def is_rename(fix, data: bytes) -> bool:
    """A plain rename: every edit of the fix swaps one identifier for another, or one
    header name for another inside an #include's delimiters (`data` is the input the
    edits are on). Review output folds these into counts."""
    if not fix.edits:
        return False
    for e in fix.edits:
        old = data[e.start:e.end]
        if _NAME.match(old) and _NAME.match(e.text):
            continue
        if _HEADER_NAME.match(old) and _HEADER_NAME.match(e.text) and \
                data[e.start - 1:e.start] in (b"<", b'"') and data[e.end:e.end + 1] in (b">", b'"'):
            continue
        return False
    return True


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
