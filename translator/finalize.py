"""Work requested by passes and done once per round, after every pass: headers.

A pass asks for a header through `Context.request_header`; here each request that the
round's output would not already satisfy becomes one inserted `#include`, where HIPIFY
puts the HIP runtime include: after `#pragma once` or the include guard's `#define`,
else before the first `#include`, else at the top (after a UTF-8 byte-order mark).
"""

from __future__ import annotations

import re

from translator.edits import Edit, Fix, SAFE, apply_fixes
from translator.frontend import directives, include_directives, lines_of

_ONCE = re.compile(rb"[ \t]+once\b")
# Leading blanks and comments, then `#ifndef X` / `#define X`. Possessive (`*+`) and a
# comment body that cannot run past its `*/`: a lazy `.*?` here backtracked exponentially
# on files that open with many comments and no guard.
_GUARD = re.compile(rb"\A(?:\s|//[^\n]*+\n|/\*(?:[^*]|\*(?!/))*+\*/)*+"
                    rb"#[ \t]*ifndef[ \t]+(\w+)[ \t]*(?://[^\n]*+)?\r?\n[ \t]*#[ \t]*define[ \t]+(\w+)")


def header_fixes(ctx) -> list[Fix]:
    """Fixes that add each requested header the output would lack (policy permitting)."""
    if not ctx.header_requests:
        return []
    output = lines_of(apply_fixes(ctx.source.data, ctx.fixes)[0])    # CR-only lines read as lines
    out = []
    for request in ctx.header_requests:
        if _includes(output, request.header):
            continue
        edit = insertion(ctx.parsed, ctx.source.newline, request.header)
        if ctx.policy.allows(request.rule, ctx.source.position(edit.start)[0]):
            out.append(Fix((edit,), request.rule, request.reason, SAFE))
    return out


def _includes(text: bytes, header: str) -> bool:
    name = header.encode()
    for _, end in directives(text, b"include"):
        rest = text[end:text.find(b"\n", end) if b"\n" in text[end:] else len(text)].strip()
        if rest[1:-1] == name and rest[:1] + rest[-1:] in (b"<>", b'""'):
            return True
    return False


def insertion(parsed, newline: bytes, header: str) -> Edit:
    """The edit that adds `#include <header>` where HIPIFY puts it (offsets of the text
    `parsed` was parsed from; without the blank line HIPIFY leaves at the top)."""
    data = lines_of(parsed.data)      # same length: a CR-only file's lines are lines here too
    candidates = []
    once = next((m for m in (_ONCE.match(data, end) for _, end in directives(data, b"pragma")) if m), None)
    if once is not None:
        candidates.append(_line_end(data, once.end()))
    guard = _GUARD.match(data)
    if guard is not None and guard.group(1) == guard.group(2):
        candidates.append(_line_end(data, guard.end(1)))
    line = b"#include <" + header.encode() + b">" + newline
    found = include_directives(parsed)
    if candidates or found:
        at = min(candidates) if candidates else found[0][0].start_byte
        return Edit(at, at, newline + line)
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    return Edit(at, at, line)


def _line_end(data: bytes, offset: int) -> int:
    """The end of the line holding `offset`, before its newline: the include goes after
    what else the line holds (`#pragma once // why`), a continued line included."""
    while True:
        end = data.find(b"\n", offset)
        if end == -1:
            return len(data)
        if data[end - 1:end] == b"\\" or data[end - 2:end] == b"\\\r":
            offset = end + 1
            continue
        return end - 1 if data[end - 1:end] == b"\r" else end
