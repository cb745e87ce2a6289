"""Diagnostics: `path:line:col: severity: message [ID]`, the clang format."""

from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
NOTE = "note"


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    severity: str
    message: str
    code: str

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"

    def to_json(self) -> dict:
        return {
            "path": self.path, "line": self.line, "col": self.col,
            "severity": self.severity, "message": self.message, "code": self.code,
        }


def at(source, offset: int, severity: str, message: str, code: str) -> Diagnostic:
    """A diagnostic at a byte offset of a SourceFile."""
    line, col = source.position(offset)
    return Diagnostic(source.path, line, col, severity, message, code)
