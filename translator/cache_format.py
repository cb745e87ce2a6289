"""A translation Result as plain JSON data and back, checked field by field.

`result_to_json` keeps what the cache needs (the slim result: no input bytes, the output
only where it differs, the IR's API uses only); `result_from_json` rebuilds the Result
from that data and the input's bytes, and raises ValueError (or TypeError, KeyError) at
the first thing it does not expect: a field missing or of the wrong type, a rule id the
catalog does not know, an edit outside the input, a diagnostic's fix that is none of the
result's, an output that is not what the fixes make of the input. Bytes travel as text
decoded with `surrogateescape` (JSON keeps the lone surrogates), so every byte comes back.
"""

from __future__ import annotations

from translator.catalog import ERROR, NOTE, RULES, WARNING
from translator.diagnostics import Diagnostic
from translator.edits import SAFE, SEMANTIC, Edit, Fix, apply_fixes
from translator.result import ApiUse, Result

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


def result_to_json(result: Result) -> dict:
    """The cache's data for a result."""
    index = {id(f): ["a", i] for i, f in enumerate(result.applied)}
    index.update({id(f): ["r", i] for i, f in enumerate(result.rejected)})
    diagnostics = []
    for d in result.diagnostics:
        # The fix a diagnostic owns: one of the result's (the same object again once read),
        # or its own (a fix a later round replaced).
        fix = None if d.fix is None else index.get(id(d.fix)) or ["i", _fix_json(d.fix)]
        diagnostics.append([d.path, d.line, d.col, d.severity, d.message, d.code, d.end_line, d.end_col, fix,
                            d.subject])
    uses = [[u.name, u.kind, u.library, u.span[0], u.span[1], u.in_macro, u.in_preprocessor]
            for u in result.uses]
    return {"path": result.path, "output": None if result.output == result.input else _text(result.output),
            "applied": [_fix_json(f) for f in result.applied], "rejected": [_fix_json(f) for f in result.rejected],
            "diagnostics": diagnostics, "module": result.path if result.api_uses is not None else None,
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
            fix = _fix(i, size) if which == "i" else {"a": applied, "r": rejected}[which][_int(i)]
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
    # The output is what the fixes make of the input, or the entry was altered (its output,
    # or its fixes, alone): a miss.
    made, accepted, refused = apply_fixes(data, applied)
    if made != output or refused or len(accepted) != len(applied):
        raise ValueError("the output is not what the fixes make of the input")
    if value["module"] is not None:
        _str(value["module"])       # the file was analysed: its uses are the input's
    api_uses = None if value["module"] is None else tuple(uses)
    seconds = value["seconds"]
    if type(seconds) not in (int, float) or not 0 <= seconds < 1e9:
        raise ValueError("bad seconds")
    return Result(_str(value["path"]), data, output, applied, rejected, diagnostics, api_uses, float(seconds),
                  _bool(value["skipped"]), _int(value["rounds"]))
