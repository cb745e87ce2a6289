"""SARIF 2.1.0: the report for code-scanning services (GitHub, IDE viewers).

One run: the rule catalog as the driver's rules; a result per diagnostic and one per
applied fix (level "note"), each fix also given as a SARIF fix a viewer can apply.
Columns are counted in Unicode code points (`columnKind`), converted from the byte
columns the translator uses, on the bytes of the file's input.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import PurePath

from translator.output.markdown import longest_run
from translator.output.positions import LineIndex, display

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}


def to_sarif(results, rules, *, tool_version: str, root: str | None = None) -> str:
    """A SARIF 2.1.0 log as JSON text (indent 2, no trailing newline). Artifact URIs are
    the paths relative to `root` when given, with forward slashes, percent-encoded."""
    descriptors = [_descriptor(rule) for rule in rules]
    positions = {d["id"]: i for i, d in enumerate(descriptors)}
    out = []
    for result in results:
        index = LineIndex(result.input)
        uri = {"uri": artifact_uri(result.path, root)}
        for d in result.diagnostics:
            region = _region(index, d.line, d.col, d.end_line, d.end_col)
            entry = _result(d.code, positions, LEVELS.get(d.severity, "none"), d.message,
                            artifact_uri(d.path, root), region)
            if d.fix is not None:
                entry["fixes"] = [_fix(index, uri, d.fix)]
            out.append(entry)
        for fix in result.applied:
            if not fix.edits:
                continue
            first = fix.edits[0]
            entry = _result(fix.rule, positions, "note", fix.reason, uri["uri"],
                            _span(index, first.start, first.end))
            entry["fixes"] = [_fix(index, uri, fix)]
            out.append(entry)
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cu2hip", "version": tool_version, "rules": descriptors}},
            "columnKind": "unicodeCodePoints",
            "results": out,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def artifact_uri(path: str, root: str | None = None) -> str:
    """`path` as a URI reference: relative to `root` when given, "/"-separated and
    percent-encoded; an absolute path outside any root becomes a file: URI."""
    if root is not None:
        path = os.path.relpath(path, root)
    if os.path.isabs(path):
        return PurePath(path).as_uri()
    return urllib.parse.quote(path.replace(os.sep, "/"), safe="/")


def _descriptor(rule) -> dict:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation},
        "help": {"text": _help(rule, markdown=False), "markdown": _help(rule, markdown=True)},
        "defaultConfiguration": {"level": LEVELS.get(rule.severity, "none")},
        "properties": {"edits": rule.edits, "safe": rule.safe},
    }


def _help(rule, *, markdown: bool) -> str:
    """The explanation, then the example and its translation as code blocks."""
    parts = [rule.explanation]
    for title, code, lang in (("CUDA", rule.example, "cuda"), ("HIP", rule.translation, "cpp")):
        if not code:
            continue
        body = code.rstrip("\n")
        if markdown:
            fence = "`" * max(3, longest_run(body, "`") + 1)
            parts.append(f"{title}:\n\n{fence}{lang}\n{body}\n{fence}")
        else:
            parts.append(f"{title}:\n\n" + "\n".join("    " + ln for ln in body.split("\n")))
    return "\n\n".join(p for p in parts if p)


def _result(rule_id: str, positions: dict, level: str, message: str, uri: str,
            region: dict) -> dict:
    entry = {"ruleId": rule_id}
    if rule_id in positions:
        entry["ruleIndex"] = positions[rule_id]
    entry.update({
        "level": level,
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri},
                                            "region": region}}],
    })
    return entry


def _region(index: LineIndex, line: int, col: int, end_line: int, end_col: int) -> dict:
    """A region from 1-based byte positions, its columns in code points."""
    return {"startLine": line, "startColumn": index.codepoint_col(line, col),
            "endLine": end_line, "endColumn": index.codepoint_col(end_line, end_col)}


def _span(index: LineIndex, start: int, end: int) -> dict:
    """The region of a byte span of the input (empty for an insertion)."""
    (l1, c1), (l2, c2) = index.position(start), index.position(end)
    return _region(index, l1, c1, l2, c2)


def _fix(index: LineIndex, location: dict, fix) -> dict:
    replacements = []
    for e in fix.edits:
        replacement = {"deletedRegion": _span(index, e.start, e.end)}
        if e.text:          # absent insertedContent: a pure deletion
            replacement["insertedContent"] = {"text": display(e.text)}
        replacements.append(replacement)
    return {"description": {"text": fix.reason},
            "artifactChanges": [{"artifactLocation": dict(location), "replacements": replacements}]}
