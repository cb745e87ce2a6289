"""Diagnostics: `path:line:col: severity: message [ID]`, the clang format.

A diagnostic has a start and an end (1-based lines, byte columns, the end exclusive) so
that a diff hunk, a SARIF result and a suppression comment point at the same thing, and
it may own the fix that answers it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from translator.catalog import ERROR, NOTE, WARNING  # noqa: F401  (re-exported)
from translator.output.positions import one_line, path_text


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    severity: str
    message: str
    code: str
    end_line: int = 0          # 0: the start (a point)
    end_col: int = 0
    fix: object = field(default=None, compare=False)       # translator.edits.Fix or None
    subject: str | None = field(default=None, compare=False)  # the name it is about, for statistics

    def __post_init__(self) -> None:
        if not self.end_line:
            object.__setattr__(self, "end_line", self.line)
            object.__setattr__(self, "end_col", self.col)

    def format(self) -> str:
        """One line, whatever the path or message holds (positions.path_text, one_line)."""
        return (f"{path_text(self.path)}:{self.line}:{self.col}: {self.severity}: {one_line(self.message)} "
                f"[{self.code}]")

    def to_json(self) -> dict:
        return {
            "path": self.path, "line": self.line, "col": self.col, "end_line": self.end_line,
            "end_col": self.end_col, "severity": self.severity, "message": self.message, "code": self.code,
        }


def at(source, start: int, severity: str, message: str, code: str, end: int | None = None,
       fix=None, subject: str | None = None) -> Diagnostic:
    """A diagnostic over bytes [start, end) of a SourceFile (a point when `end` is None)."""
    line, col = source.position(start)
    end_line, end_col = source.position(end) if end is not None and end > start else (line, col)
    return Diagnostic(source.path, line, col, severity, message, code, end_line, end_col, fix, subject)
