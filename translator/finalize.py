"""Work requested by passes and done once per round, after every pass: headers.

A pass asks for a header through `Context.request_header`; here each request that the
round's output would not already satisfy becomes one inserted `#include`, where HIPIFY
puts the HIP runtime include: after `#pragma once` or the include guard's `#define`,
else before the first `#include`, else at the top (after a UTF-8 byte-order mark); but
before the first line of code where code comes before the first `#include` (nvcc
included CUDA's runtime before any line: `static int *t = NULL;`, a `dim3` typedef), out
of any `#if` around that line. A .cu/.cuh file that includes the header only after its
first line of code gets it there too.
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
    if output.startswith(b"\xef\xbb\xbf"):
        output = b"   " + output[3:]         # a byte-order mark: the first line's directive is one
    out = []
    cuda = ctx.source.path.endswith((".cu", ".cuh"))
    for request in ctx.header_requests:
        at = _included_at(output, request.header)
        if at is not None and not (cuda and _code_before(output, at)):
            continue
        edit = insertion(ctx.parsed, ctx.source.newline, request.header)
        if ctx.policy.allows(request.rule, ctx.source.position(edit.start)[0]):
            out.append(Fix((edit,), request.rule, request.reason, SAFE))
    return out


def _included_at(text: bytes, header: str) -> int | None:
    """The offset of the first `#include` of `header` in `text`, or None."""
    name = header.encode()
    for start, end in directives(text, b"include"):
        rest = text[end:text.find(b"\n", end) if b"\n" in text[end:] else len(text)].strip()
        if rest[1:-1] == name and rest[:1] + rest[-1:] in (b"<>", b'""'):
            return start
    return None


def _code_before(text: bytes, at: int) -> bool:
    """Does a line of code (not a comment, a blank or a directive) come before offset
    `at`, after the `#pragma once` or include guard where the insertion would go?"""
    base = _base(text)
    # The code line itself, not the #if around it: an include inside a guard (its #ifndef
    # then its #include, the guard's #define after) comes before the guard's code.
    code = first_code(text, base if base is not None else _top(text), hoist=False)
    return code is not None and code < at


def _base(data: bytes) -> int | None:
    """The end of the `#pragma once` or include-guard `#define` line (the earlier), or None."""
    candidates = []
    once = next((m for m in (_ONCE.match(data, end) for _, end in directives(data, b"pragma")) if m), None)
    if once is not None:
        candidates.append(_line_end(data, once.end()))
    guard = _GUARD.match(data)
    if guard is not None and guard.group(1) == guard.group(2):
        candidates.append(_line_end(data, guard.end(1)))
    return min(candidates) if candidates else None


def _top(data: bytes) -> int:
    """Where the text starts: after a UTF-8 byte-order mark."""
    return 3 if data.startswith(b"\xef\xbb\xbf") else 0


_OPENS = (b"if", b"ifdef", b"ifndef")


def first_code(data: bytes, start: int, hoist: bool = True) -> int | None:
    """The start of the first line of code at or after `start`: neither blank, nor a
    comment, nor a directive; inside an `#if` opened after `start`, the outermost such
    `#if`'s line (the include must not become conditional, nor vanish in an `#if 0`)
    unless `hoist` is False. None when there is none."""
    opened: list[int] = []
    pos, n = start, len(data)
    while pos < n:
        c = data[pos:pos + 1]
        if c in b" \t\r\n\f\v":
            pos += 1
        elif data.startswith(b"//", pos):
            pos = _line_end(data, pos)
        elif data.startswith(b"/*", pos):
            close = data.find(b"*/", pos + 2)
            if close == -1:
                return None
            pos = close + 2
        elif c == b"#":
            line = max(data.rfind(b"\n", 0, pos) + 1, start)
            name = re.match(rb"#[ \t]*(\w*)", data[pos:pos + 64]).group(1)
            if name in _OPENS:
                opened.append(line)
            elif name == b"endif" and opened:
                opened.pop()
            pos = _line_end(data, pos)
        else:
            return opened[0] if opened and hoist else max(data.rfind(b"\n", 0, pos) + 1, start)
    return None


def insertion(parsed, newline: bytes, header: str) -> Edit:
    """The edit that adds `#include <header>` where HIPIFY puts it (offsets of the text
    `parsed` was parsed from; without the blank line HIPIFY leaves at the top), or before
    the first line of code where one comes before the first `#include` (after the
    comments that open the file)."""
    data = lines_of(parsed.data)      # same length: a CR-only file's lines are lines here too
    line = b"#include <" + header.encode() + b">" + newline
    base = _base(data)
    if base is not None:
        return Edit(base, base, newline + line)
    top = _top(data)
    code = first_code(data, top)
    found = include_directives(parsed)
    if not found:
        return Edit(top, top, line)
    if code is not None and code < found[0][0].start_byte:
        return Edit(code, code, line)
    at = found[0][0].start_byte
    return Edit(at, at, newline + line)


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
