"""Source files as bytes, with a line index for byte offset <-> line:col.

The translator never decodes and re-encodes a file: it keeps the bytes and decodes
only the pieces that go into messages.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import PurePath

_LINE_BREAK = re.compile(rb"\r\n?|\n")
# The suffixes of headers: files other files include, never compiled alone.
HEADER_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc", ".ipp"})
# The build files (translated as such, never parsed as CUDA: translator.buildfiles), by name.
CMAKE = "cmake"
MAKE = "make"
BUILD_KINDS = (CMAKE, MAKE)
_MAKE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})


def build_kind(path: str | PurePath) -> str | None:
    """"cmake", "make", or None for a file that is not a build file."""
    name = PurePath(path).name
    if name == "CMakeLists.txt" or name.endswith(".cmake"):
        return CMAKE
    if name in _MAKE_NAMES or name.endswith(".mk"):
        return MAKE
    return None


@dataclass
class SourceFile:
    path: str
    data: bytes
    line_starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        starts = [0]
        data = self.data
        find = data.find
        if b"\r" not in data or data.count(b"\r") == data.count(b"\r\n"):
            pos = find(b"\n")      # LF or CRLF: a line starts after each LF
            while pos != -1:
                starts.append(pos + 1)
                pos = find(b"\n", pos + 1)
        else:
            # Lone CRs too (a classic Mac OS file, or a mixed one): a line break is
            # CRLF, LF or CR, as compilers count lines.
            starts += [m.end() for m in _LINE_BREAK.finditer(data)]
        self.line_starts = starts

    @property
    def newline(self) -> bytes:
        """The file's dominant newline, for inserted lines: CRLF, LF or (a CR-only file)
        CR."""
        lf = self.data.count(b"\n")
        crlf = self.data.count(b"\r\n")
        if self.data.count(b"\r") - crlf > lf:
            return b"\r"
        return b"\r\n" if crlf and crlf * 2 >= lf else b"\n"

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and byte column of a byte offset (lines end at LF, CRLF or a lone
        CR)."""
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", "replace")


def first_invalid_utf8(data: bytes) -> int | None:
    """Offset of the first byte that is not valid UTF-8, or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return None


def looks_binary(data: bytes) -> int | None:
    """Offset of a NUL byte in the first 8 KiB (what git and grep call binary), or None."""
    pos = data.find(b"\0", 0, 8192)
    return None if pos == -1 else pos
