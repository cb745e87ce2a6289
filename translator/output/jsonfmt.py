"""The JSON report: every edit and diagnostic of every file, with exact positions.

For tools and scripts. Offsets are bytes into the input; lines and columns are 1-based,
columns in bytes (as in the diagnostics); an end is exclusive. Texts are decoded for
display (UTF-8, invalid bytes replaced), never written back. A path whose name is not
UTF-8 keeps its bytes: each one that is not UTF-8 is the escape of a lone surrogate,
`\\udcNN` for byte 0xNN (Python's surrogateescape: `os.fsencode(json.loads(...))` gives
the name back), so the text is valid UTF-8 and loses nothing.
"""

from __future__ import annotations

import json
import re

from translator.output.positions import LineIndex, display


def to_json(results, *, tool_version: str, summary: dict | None = None) -> str:
    """The report as JSON text (indent 2, non-ASCII kept, no trailing newline). Without
    `summary`, a count of files, changed files, fixes, edits and diagnostics is given."""
    results = list(results)
    doc = {
        "tool": {"name": "cu2hip", "version": tool_version},
        "files": [_file(r) for r in results],
        "summary": summary if summary is not None else _summary(results),
    }
    return dumps(doc)


_SURROGATE = re.compile("[\ud800-\udfff\u2028\u2029]")


def dumps(doc) -> str:
    """JSON text (indent 2, non-ASCII kept) that is valid UTF-8: a lone surrogate (a
    byte of a file name that is not UTF-8) is written as its `\\uXXXX` escape, and so are
    the line and paragraph separators (a line break to some readers, JavaScript's
    among them), which JSON allows raw in a string."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _file(result) -> dict:
    index = LineIndex(result.input)
    edits = []
    for n, fix in enumerate(result.applied):
        for e in fix.edits:
            edits.append({"rule": fix.rule, "reason": fix.reason, "safety": fix.safety,
                          "fix": n, **edit_json(index, e)})
    return {
        "path": result.path,
        "changed": result.input != result.output,
        "edits": edits,
        "diagnostics": [_diagnostic(index, result.path, d) for d in result.diagnostics],
    }


def edit_json(index: LineIndex, edit) -> dict:
    """One edit's span (offset, line, col at both ends) and its old and new text."""
    return {
        "start": _position(index, edit.start),
        "end": _position(index, edit.end),
        "original": display(index.data[edit.start:edit.end]),
        "replacement": display(edit.text),
    }


def _position(index: LineIndex, offset: int) -> dict:
    line, col = index.position(offset)
    return {"offset": offset, "line": line, "col": col}


def _diagnostic(index: LineIndex, path: str, d) -> dict:
    entry = {
        "code": d.code,
        "severity": d.severity,
        "message": d.message,
        "start": {"line": d.line, "col": d.col},
        "end": {"line": d.end_line, "col": d.end_col},
        "fix": None,
    }
    if d.path != path:      # a diagnostic about another file (a header, say)
        entry = {"path": d.path, **entry}
    if d.fix is not None:
        entry["fix"] = {"rule": d.fix.rule, "reason": d.fix.reason, "safety": d.fix.safety,
                        "edits": [edit_json(index, e) for e in d.fix.edits]}
    return entry


def _summary(results) -> dict:
    severities = [d.severity for r in results for d in r.diagnostics]
    return {
        "files": len(results),
        "changed": sum(r.input != r.output for r in results),
        "fixes": sum(len(r.applied) for r in results),
        "edits": sum(len(f.edits) for r in results for f in r.applied),
        "errors": severities.count("error"),
        "warnings": severities.count("warning"),
        "notes": severities.count("note"),
    }
