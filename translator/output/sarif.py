"""SARIF 2.1.0: the report for code-scanning services (GitHub, IDE viewers).

One run: the rule catalog as the driver's rules; a result per diagnostic and one per
applied fix (level "note"), each fix also given as a SARIF fix a viewer can apply.
Plain renames (an identifier or a header name swapped for another) are aggregated: one
result per file per rule, its locations every region renamed and its fix every
replacement, so that an upload opens one alert per file and rule, not one per name; a
file with more than 100 renames of a rule has one such result per 100 (GitHub shows 100
locations of a result and rejects one with more than 1,000). The diagnostics of a rule
the catalog marks `grouped` (P001, the parser's error sites: a third of a large tree's
results otherwise) are aggregated the same way: one result per file per rule, per 100.
Each result carries a `partialFingerprints` entry that does not move with line numbers
(the rule, the file, the text of the line and its occurrence), and the run an
`automationDetails` id (GitHub's analysis category).
Columns are counted in Unicode code points (`columnKind`), converted from the byte
columns the translator uses, on the bytes of the file's input. URIs are percent-encoded
from the path's bytes, so a name that is not UTF-8 is given exactly.
"""

from __future__ import annotations

import hashlib
import os
import urllib.parse
from collections import Counter

from translator.output.jsonfmt import dumps
from translator.output.markdown import longest_run
from translator.output.positions import LineIndex, at_least, display, is_rename, path_bytes, text_safe

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}
FINGERPRINT = "cu2hip/v1"
LOCATIONS = 100         # the locations of one result that GitHub shows


def to_sarif(results, rules, *, tool_version: str, root: str | None = None,
             automation_id: str = "cu2hip/", min_severity: str = "note") -> str:
    """A SARIF 2.1.0 log as JSON text (indent 2, no trailing newline). Artifact URIs are
    the paths relative to `root` when given, with forward slashes, percent-encoded.
    Diagnostics below `min_severity` are left out, and the fixes (notes) unless it is
    "note"."""
    descriptors = [_descriptor(rule) for rule in rules]
    positions = {d["id"]: i for i, d in enumerate(descriptors)}
    grouped = {rule.id for rule in rules if getattr(rule, "grouped", False)}
    out = []
    for result in results:
        index = LineIndex(result.input)
        uri = {"uri": artifact_uri(result.path, root)}
        seen: Counter[tuple] = Counter()
        groups: dict[tuple, tuple[int, list]] = {}     # (rule, level) -> (its place in `out`, its sites)
        for d in result.diagnostics:
            if not at_least(d.severity, min_severity):
                continue
            region = _region(index, d.line, d.col, d.end_line, d.end_col)
            if d.code in grouped and d.fix is None and d.path == result.path:
                level = LEVELS.get(d.severity, "none")
                if (d.code, level) not in groups:
                    groups[d.code, level] = (len(out), [])
                    out.append(None)
                groups[d.code, level][1].append(((d.line, d.col), region, d.message))
                continue
            entry = _result(d.code, positions, LEVELS.get(d.severity, "none"), d.message,
                            [(artifact_uri(d.path, root), region)])
            if d.fix is not None:
                entry["fixes"] = [_fix(index, uri, d.fix)]
            line = index.line_bytes(d.line) if d.path == result.path else b""
            entry["partialFingerprints"] = _fingerprint(seen, d.code, artifact_uri(d.path, root), line)
            out.append(entry)
        for (rule_id, level), (place, sites) in groups.items():
            sites.sort(key=lambda site: site[0])
            out[place] = [_result(rule_id, positions, level, message, [(uri["uri"], r) for _, r, _ in part])
                          | {"partialFingerprints": {FINGERPRINT: _hash(rule_id, uri["uri"], b"sites" + (
                              b"\0%d" % n if n else b""))}}
                          for n, (part, message) in enumerate(_parts(sites, "site", lambda site: site[2]))]
        if not at_least("note", min_severity):
            continue
        renames: dict[str, tuple[int, list]] = {}     # rule -> (its place in `out`, its fixes)
        for fix in result.applied:
            if not fix.edits:
                continue
            if is_rename(fix, result.input):
                if fix.rule not in renames:
                    renames[fix.rule] = (len(out), [])
                    out.append(None)
                renames[fix.rule][1].append(fix)
                continue
            first = fix.edits[0]
            entry = _result(fix.rule, positions, "note", fix.reason,
                            [(uri["uri"], _span(index, first.start, first.end))])
            entry["fixes"] = [_fix(index, uri, fix)]
            entry["partialFingerprints"] = _fingerprint(
                seen, fix.rule, uri["uri"], index.line_bytes(index.position(first.start)[0]))
            out.append(entry)
        for rule_id, (place, fixes) in renames.items():
            out[place] = _renames(index, uri, positions, rule_id, fixes)
    out = [entry for item in out for entry in (item if isinstance(item, list) else [item])]
    run = {
        "tool": {"driver": {"name": "cu2hip", "version": tool_version, "rules": descriptors}},
        "automationDetails": {"id": automation_id},
        "columnKind": "unicodeCodePoints",
        "results": out,
    }
    return dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})


def _renames(index: LineIndex, uri: dict, positions: dict, rule_id: str, fixes: list) -> list[dict]:
    """The results for every rename of one rule in one file: one per LOCATIONS renamed
    regions in source order (GitHub shows 100 locations of a result and rejects a result
    with more than 1,000). A result's message counts each distinct reason among its
    renames, its locations are their regions, and its one fix holds their replacements."""
    edits = sorted(((e, f.reason) for f in fixes for e in f.edits), key=lambda er: (er[0].start, er[0].end))
    out = []
    for n, (part, message) in enumerate(_parts(edits, "rename", lambda er: er[1])):
        if len(fixes) == 1 and len(edits) <= LOCATIONS:
            message = fixes[0].reason
        entry = _result(rule_id, positions, "note", message,
                        [(uri["uri"], _span(index, e.start, e.end)) for e, _ in part])
        entry["fixes"] = [{"description": {"text": text_safe(message)},
                           "artifactChanges": [{"artifactLocation": dict(uri),
                                                "replacements": [_replacement(index, e) for e, _ in part]}]}]
        entry["partialFingerprints"] = {FINGERPRINT: _hash(rule_id, uri["uri"], b"renames" + (
            b"\0%d" % n if n else b""))}
        out.append(entry)
    return out


def _parts(items: list, noun: str, reason_of) -> list[tuple[list, str]]:
    """`items` (in source order) cut into parts of at most LOCATIONS, each with its message:
    how many, which part of how many, and each distinct reason with its count; one item
    alone is its reason."""
    parts = [items[k:k + LOCATIONS] for k in range(0, len(items), LOCATIONS)]
    out = []
    for n, part in enumerate(parts):
        reasons = Counter(map(reason_of, part))
        of = f" (part {n + 1} of {len(parts)}: {len(items)} in the file)" if len(parts) > 1 else ""
        message = reason_of(part[0]) if len(items) == 1 else f"{len(part)} {noun}{'s' if len(part) > 1 else ''}{of}: " + "; ".join(
            reason + (f" (x{k})" if k > 1 else "") for reason, k in sorted(reasons.items()))
        out.append((part, message))
    return out


def _fingerprint(seen: Counter, rule_id: str, uri: str, line: bytes) -> dict:
    """A fingerprint that survives lines moving: the rule, the file, the line's text with
    its white space dropped, and how many results before it in the file had all three."""
    key = (rule_id, uri, b"".join(line.split()))
    seen[key] += 1
    return {FINGERPRINT: _hash(rule_id, uri, key[2] + b"\0" + str(seen[key]).encode())}


def _hash(rule_id: str, uri: str, data: bytes) -> str:
    return hashlib.sha256(b"\0".join((rule_id.encode(), uri.encode(), data))).hexdigest()[:32]


def artifact_uri(path: str, root: str | None = None) -> str:
    """`path` as a URI reference: relative to `root` when given, "/"-separated and
    percent-encoded from its bytes; an absolute path outside any root becomes a file:
    URI."""
    if root is not None:
        path = os.path.relpath(path, root)
    quoted = urllib.parse.quote(path_bytes(path.replace(os.sep, "/")), safe="/")
    return "file://" + quoted if os.path.isabs(path) else quoted


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


def _result(rule_id: str, positions: dict, level: str, message: str, where: list) -> dict:
    entry = {"ruleId": rule_id}
    if rule_id in positions:
        entry["ruleIndex"] = positions[rule_id]
    entry.update({
        "level": level,
        "message": {"text": text_safe(message)},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}
                      for uri, region in where],
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


def _replacement(index: LineIndex, e) -> dict:
    replacement = {"deletedRegion": _span(index, e.start, e.end)}
    if e.text:          # absent insertedContent: a pure deletion
        replacement["insertedContent"] = {"text": display(e.text)}
    return replacement


def _fix(index: LineIndex, location: dict, fix) -> dict:
    return {"description": {"text": text_safe(fix.reason)},
            "artifactChanges": [{"artifactLocation": dict(location),
                                 "replacements": [_replacement(index, e) for e in fix.edits]}]}
