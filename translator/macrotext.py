"""Preprocessor directives read as text, with no parse: the `#define` lines of a file,
its object-like macros, the tree's qualifier-only macros (translator.frontend, which
re-exports them, blanks their uses before parsing), and lone CRs read as line breaks.

Apart from the front end: the workspace reads every file of a run with them before
anything is translated, and a run answered from the cache parses nothing.
"""

from __future__ import annotations

import re


def directives(text: bytes, name: bytes):
    """(offset of '#', end of name) of every `#name` directive line. bytes.find and a look
    at the line's start: a line-anchored regex scans every line, many times slower."""
    # A line's start is searched for back to the previous hit only: on one long line, a
    # search back to its start per hit would be quadratic.
    pos = text.find(name)
    line_start, scanned = 0, 0
    while pos != -1:
        end = pos + len(name)
        newline = text.rfind(b"\n", scanned, pos)
        if newline != -1:
            line_start = newline + 1
        scanned = pos
        # The line up to the name is blanks, `#`, blanks. (A long head, on a long line,
        # is matched in place, not copied once per hit.)
        if pos - line_start <= 64:
            head = text[line_start:pos]
            hash_at = line_start + head.index(b"#") if head.strip(b" \t") == b"#" else -1
        elif re.compile(rb"[ \t]*#[ \t]*").fullmatch(text, line_start, pos):
            hash_at = text.index(b"#", line_start, pos)
        else:
            hash_at = -1
        if hash_at != -1 and not text[end:end + 1].isalnum() and text[end:end + 1] != b"_":
            yield hash_at, end
        pos = text.find(name, end)


_OBJECT_DEFINE = re.compile(rb"[ \t]+([A-Za-z_]\w*)(?![\w(])([^\r\n]*)")   # after `#define`
_QUALIFIERS = frozenset({b"__host__", b"__device__", b"__global__", b"__forceinline__", b"__noinline__",
                         b"__inline__", b"inline", b"static", b"extern", b"constexpr"})


# A CR that no LF follows: a line break of a classic Mac OS file, as compilers read it.
_LONE_CR = re.compile(rb"\r(?!\n)")


def lines_of(data: bytes) -> bytes:
    """`data` with every lone CR made an LF, length-preserving: tree-sitter-cuda ends a
    `//` comment and a directive at LF only, so a CR-only file would be one line to it
    (everything after its first `//` comment a comment) while a compiler reads lines."""
    if b"\r" not in data or data.count(b"\r") == data.count(b"\r\n"):
        return data     # LF or CRLF: the usual cases, two C loops and no regex
    return _LONE_CR.sub(b"\n", data)


def object_macros(text: bytes):
    """(name, body) of every object-like `#define` of the text, the body without a
    trailing `//` comment, stripped."""
    if b"define" not in text:
        return
    text = lines_of(text)
    for _, end in directives(text, b"define"):
        match = _OBJECT_DEFINE.match(text, end)
        if match is not None:
            yield match.group(1), match.group(2).split(b"//")[0].strip()


class QualifierMacros:
    """Object-like macros that every definition seen makes empty or a run of qualifiers
    (`#define HOST_DEVICE __host__ __device__`): blanking their uses gives the parse the
    preprocessor would, whatever the configuration. Feed it texts with `add`."""

    def __init__(self) -> None:
        self._verdict: dict[bytes, bool] = {}

    def add(self, text: bytes) -> None:
        for name, body in object_macros(text):
            ok = not body.endswith(b"\\") and all(word in _QUALIFIERS for word in body.split())
            self._verdict[name] = self._verdict.get(name, True) and ok

    def verdicts(self) -> dict[bytes, bool]:
        """Each name's verdict over the texts added (a file's, merged by `merge`)."""
        return dict(self._verdict)

    def merge(self, verdicts: dict[bytes, bool]) -> None:
        """Add the verdicts of other texts (`verdicts()` of a collector that read them):
        the same as adding those texts, in any order (a verdict is an and)."""
        for name, ok in verdicts.items():
            self._verdict[name] = self._verdict.get(name, True) and ok

    def names(self) -> frozenset[bytes]:
        return frozenset(name for name, ok in self._verdict.items() if ok)


def qualifier_macros(texts) -> frozenset[bytes]:
    collector = QualifierMacros()
    for text in texts:
        collector.add(text)
    return collector.names()
