"""A translation Result as plain JSON data and back, checked field by field.

`result_to_json` keeps what the cache needs (the slim result: no input bytes, the output
only where it differs, the IR's API uses only); `result_from_json` rebuilds the Result
from that data and the input's bytes, and raises ValueError (or TypeError, KeyError) at
the first thing it does not expect: a field missing or of the wrong type, a rule id the
catalog does not know, an edit outside the input, a diagnostic's fix that is none of the
result's. Bytes travel as text decoded with `surrogateescape` (JSON keeps the lone
surrogates), so every byte comes back.
"""

from __future__ import annotations

from translator.catalog import ERROR, NOTE, RULES, WARNING
from translator.diagnostics import Diagnostic
from translator.edits import SAFE, SEMANTIC, Edit, Fix
from translator.ir.model import ApiUse, Module
from translator.pipeline import Result

_SEVERITIES = frozenset({ERROR, WARNING, NOTE})
_SAFETIES = frozenset({SAFE, SEMANTIC})


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _bytes(value) -> bytes:
    return _str(value).encode("utf-8", "surrogateescape")


def _str(value) -> str:
    if type(value) is not str:
        raise TypeError("not a string")
    return value


def _int(value, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise ValueError("not a count")
    return value


def _bool(value) -> bool:
    if type(value) is not bool:
        raise TypeError("not a boolean")
    return value


def _list(value) -> list:
    if type(value) is not list:
        raise TypeError("not a list")
    return value


def _fix_json(fix: Fix) -> list:
    return [fix.rule, fix.reason, fix.safety, [[e.start, e.end, _text(e.text)] for e in fix.edits]]


def _fix(value, size: int) -> Fix:
    rule, reason, safety, edits = _list(value)
    if _str(rule) not in RULES or _str(safety) not in _SAFETIES:
        raise ValueError("unknown rule or safety")
    out = []
    for edit in _list(edits):
        start, end, text = _list(edit)
        if _int(end) > size:
            raise ValueError("an edit outside the input")
        out.append(Edit(_int(start), end, _bytes(text)))
    if not out:
        raise ValueError("a fix without edits")
    return Fix(tuple(out), rule, _str(reason), safety)


def result_to_json(result: Result) -> dict | None:
    """The cache's data for a result; None for one that cannot be told in it."""
    index = {id(f): ["a", i] for i, f in enumerate(result.applied)}
    index.update({id(f): ["r", i] for i, f in enumerate(result.rejected)})
    diagnostics = []
    for d in result.diagnostics:
        if d.fix is not None and id(d.fix) not in index:
            return None
        diagnostics.append([d.path, d.line, d.col, d.severity, d.message, d.code, d.end_line, d.end_col,
                            index[id(d.fix)] if d.fix is not None else None, d.subject])
    uses = [[u.name, u.kind, u.library, u.span[0], u.span[1], u.in_macro, u.in_preprocessor]
            for u in (result.module.api_uses if result.module is not None else ())]
    return {"path": result.path, "output": None if result.output == result.input else _text(result.output),
            "applied": [_fix_json(f) for f in result.applied], "rejected": [_fix_json(f) for f in result.rejected],
            "diagnostics": diagnostics, "module": result.module.path if result.module is not None else None,
            "uses": uses, "seconds": result.seconds, "skipped": result.skipped, "rounds": result.rounds}


def result_from_json(value, data: bytes) -> Result:
    """The Result the data tells, for input `data` (ValueError and the like for anything unexpected)."""
    if type(value) is not dict:
        raise TypeError("not an object")
    size = len(data)
    output = data if value["output"] is None else _bytes(value["output"])
    applied = [_fix(f, size) for f in _list(value["applied"])]
    rejected = [_fix(f, size) for f in _list(value["rejected"])]
    diagnostics = []
    for item in _list(value["diagnostics"]):
        path, line, col, severity, message, code, end_line, end_col, fix, subject = _list(item)
        if _str(severity) not in _SEVERITIES or _str(code) not in RULES:
            raise ValueError("unknown severity or rule")
        if fix is not None:
            which, i = _list(fix)
            fix = {"a": applied, "r": rejected}[which][_int(i)]
        if subject is not None:
            _str(subject)
        diagnostics.append(Diagnostic(_str(path), _int(line, 1), _int(col, 1), severity, _str(message), code,
                                      _int(end_line, 1), _int(end_col, 1), fix, subject))
    uses = []
    for item in _list(value["uses"]):
        name, kind, library, start, end, in_macro, in_preprocessor = _list(item)
        if _int(end) > size or start > end:
            raise ValueError("a use outside the input")
        uses.append(ApiUse(_str(name), _str(kind), _str(library), (_int(start), end), _bool(in_macro),
                           _bool(in_preprocessor)))
    module = None if value["module"] is None else Module(_str(value["module"]), (), (), tuple(uses), ())
    seconds = value["seconds"]
    if type(seconds) not in (int, float) or not 0 <= seconds < 1e9:
        raise ValueError("bad seconds")
    return Result(_str(value["path"]), data, output, applied, rejected, diagnostics, module, float(seconds),
                  _bool(value["skipped"]), _int(value["rounds"]))
