"""Bytes in, bytes out: front end, IR, passes, apply_fixes, the include finalizer and
the re-parse check, for one file."""

from __future__ import annotations

import bisect
import dataclasses
import re
import time
from dataclasses import dataclass, field

from translator import diagnostics as dg
from translator.edits import Edit, Fix, apply_fixes
from translator.frontend import ParsedFile, error_sites, parse, parse_file
from translator.ir import Module, build_ir
from translator.mapping import load_tables
from translator.passes import Context, Options, passes_for
from translator.passes.hipify import runtime_header_insertion
from translator.scan import mentions_api, scan_api_uses
from translator.source import SourceFile, first_invalid_utf8, looks_binary

MAX_FILE_BYTES = 32 * 1024 * 1024


@dataclass
class Result:
    path: str
    input: bytes
    output: bytes
    applied: list[Fix] = field(default_factory=list)
    rejected: list[Fix] = field(default_factory=list)
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    module: Module | None = None
    seconds: float = 0.0
    skipped: bool = False      # not translated (binary, too large...): output == input

    @property
    def changed(self) -> bool:
        return self.output != self.input

    @property
    def uses(self) -> tuple:
        """ApiUse, in source order (plain data: results cross processes)."""
        return self.module.api_uses if self.module is not None else ()

    @property
    def errors(self) -> int:
        return sum(d.severity == dg.ERROR for d in self.diagnostics)


def check_input(source: SourceFile) -> list[dg.Diagnostic]:
    """Problems that stop a file from being translated at all (reported as errors), or
    that are worth knowing (invalid UTF-8: the bytes are kept as they are)."""
    path, data = source.path, source.data
    if len(data) > MAX_FILE_BYTES:
        return [dg.Diagnostic(path, 1, 1, dg.ERROR, f"file is {len(data)} bytes, over the "
                              f"{MAX_FILE_BYTES}-byte limit; not translated", "I004")]
    nul = looks_binary(data)
    if nul is not None:
        return [dg.at(source, nul, dg.ERROR, "binary file (NUL byte); not translated", "I002")]
    bad = first_invalid_utf8(data)
    if bad is not None:
        return [dg.at(source, bad, dg.WARNING, f"invalid UTF-8 byte 0x{data[bad]:02x}; bytes are kept as "
                      "they are", "I003")]
    return []


def translate(path: str, data: bytes, options: Options = Options()) -> Result:
    started = time.perf_counter()
    result = Result(path, data, data)
    source = SourceFile(path, data)
    result.diagnostics = check_input(source)
    if any(d.severity == dg.ERROR for d in result.diagnostics):
        result.skipped = True
        return result
    tables = load_tables()
    ctx = _analyse(source, options, tables)
    parsed, module = ctx.parsed, ctx.module
    baseline = None     # the parse the output is checked against, when not the input's
    # The one finalizer: HIP code includes hip/hip_runtime.h (scheduled, applied with the rest).
    if options.target == "hip" and ctx.fixes and not ctx.runtime_header_included:
        insertion = runtime_header_insertion(parsed, source.newline)
        if parsed.main.root.has_error:
            # The new line can change how tree-sitter recovers from the file's parse errors,
            # and so what a second run would rewrite: decide on the text with the line in it.
            ctx = _analyse(ShiftedSource(source, insertion), options, tables)
            ctx.fixes = [_unshift(fix, insertion) for fix in ctx.fixes]
            baseline = ctx.parsed
        ctx.fixes.append(Fix((insertion,), "H002", "HIP code needs hip/hip_runtime.h (HIPIFY inserts it)"))
    output, applied, rejected = apply_fixes(data, ctx.fixes)
    for fix in rejected:
        ctx.diagnostics.append(dg.at(source, fix.start, dg.WARNING,
                                     f"edit not applied, it overlaps another: {fix.reason}", "P004"))
    if baseline is not None:
        # Input error regions, from the parse with the inserted line, in input offsets.
        before = [(_unshift_offset(s.start, insertion), _unshift_offset(s.end, insertion))
                  for s in error_sites(baseline.main.root)]
        after = error_sites(parse_file(output, None, options.qualifier_macros).main.root)
        _report_new_errors(source, before, after, applied, output, ctx.diagnostics)
    elif applied and (parsed.main.root.has_error
                      or not all(_token_preserving(data, e) for f in applied for e in f.edits)):
        before = [(s.start, s.end) for s in error_sites(parsed.main.root)]
        _report_new_errors(source, before, _reparse(source, parsed, applied), applied, output, ctx.diagnostics)
    result.output, result.applied, result.rejected = output, applied, rejected
    result.diagnostics += sorted(ctx.diagnostics, key=lambda d: (d.line, d.col, d.code))
    result.module = module
    result.seconds = time.perf_counter() - started
    return result


def _analyse(source: SourceFile, options: Options, tables) -> Context:
    """Front end, IR and passes over one text: the context holds the fixes and diagnostics."""
    parsed = parse_file(source.data, mentions_api(tables), options.qualifier_macros)
    uses = scan_api_uses(parsed, tables)
    ctx = Context(source, parsed, build_ir(source.path, parsed, uses), uses, options, tables)
    for site in parsed.error_sites:
        ctx.report(site.start, dg.WARNING, f"{site.message}; only renames are made here", "P001")
    for info in passes_for(options.target):
        info.run(ctx)
    return ctx


class ShiftedSource(SourceFile):
    """The text with an insertion made, reporting positions of the original text (the
    inserted bytes themselves map to the insertion point)."""

    def __init__(self, original: SourceFile, insertion: Edit):
        at, text = insertion.start, insertion.text
        super().__init__(original.path, original.data[:at] + text + original.data[at:])
        self.original, self.at, self.length = original, at, len(text)

    def position(self, offset: int) -> tuple[int, int]:
        if offset >= self.at:
            offset = max(self.at, offset - self.length)
        return self.original.position(offset)


def _unshift_offset(offset: int, insertion: Edit) -> int:
    """An offset of the text with the insertion made, in the original text."""
    at = insertion.start
    return offset if offset <= at else max(at, offset - len(insertion.text))


def _unshift(fix: Fix, insertion: Edit) -> Fix:
    """A fix on the text with the insertion made, in the original text's offsets."""
    return dataclasses.replace(fix, edits=tuple(
        Edit(_unshift_offset(e.start, insertion), _unshift_offset(e.end, insertion), e.text) for e in fix.edits))


_NAME = re.compile(rb"[A-Za-z_]\w*\Z")
_HEADER_NAME = re.compile(rb"[\w./+-]+\Z")


def _token_preserving(data: bytes, edit) -> bool:
    """True for an edit that cannot change the parse of a file that parses: one identifier
    replaced by another (no HIP name is a keyword), or one header name by another inside an
    #include's delimiters. (Where the file has parse errors, tree-sitter's recovery weighs
    token lengths, so there the output is always re-parsed.)"""
    old = data[edit.start:edit.end]
    if _NAME.match(old) and _NAME.match(edit.text):
        return (edit.start == 0 or not (data[edit.start - 1:edit.start].isalnum() or data[edit.start - 1] == 95)) \
            and not (data[edit.end:edit.end + 1].isalnum() or data[edit.end:edit.end + 1] == b"_")
    return bool(_HEADER_NAME.match(old) and _HEADER_NAME.match(edit.text)) and \
        data[edit.start - 1:edit.start] in (b"<", b'"') and data[edit.end:edit.end + 1] in (b">", b'"')


def _reparse(source: SourceFile, parsed: ParsedFile, applied: list[Fix]) -> list:
    """The output's error sites, parsed incrementally from the input's tree."""
    edits = sorted((e for f in applied for e in f.edits), key=lambda e: (e.start, e.end))
    tree = parsed.main.tree.copy()
    cleaned = bytearray(parsed.cleaned)
    # From the last edit to the first, so that each edit's offsets and points are still
    # those of the original text.
    for e in reversed(edits):
        start_point = _point(source, e.start)
        new_lines = e.text.count(b"\n")
        if new_lines:
            new_end = (start_point[0] + new_lines, len(e.text) - e.text.rindex(b"\n") - 1)
        else:
            new_end = (start_point[0], start_point[1] + len(e.text))
        tree.edit(start_byte=e.start, old_end_byte=e.end, new_end_byte=e.start + len(e.text),
                  start_point=start_point, old_end_point=_point(source, e.end), new_end_point=new_end)
        cleaned[e.start:e.end] = e.text
    return error_sites(parse(bytes(cleaned), tree).root_node)


def _report_new_errors(source: SourceFile, before: list[tuple[int, int]], after: list, applied: list[Fix],
                       output: bytes, diagnostics: list[dg.Diagnostic]) -> None:
    """P003 for an error site of the output where the input parsed: a bug of ours. Inside a
    region the input already failed to parse, tree-sitter may recover differently from a
    renamed token, which says nothing about the translation."""
    edits = sorted((e for f in applied for e in f.edits), key=lambda e: (e.start, e.end))
    starts, shifts, ends, shift = [], [], [], 0
    for e in edits:
        starts.append(e.start + shift)
        ends.append(e.start + shift + len(e.text))
        shift += len(e.text) - (e.end - e.start)
        shifts.append(shift)

    def to_input(offset: int) -> int:
        i = bisect.bisect_right(starts, offset) - 1
        if i < 0:
            return offset
        if offset < ends[i]:          # inside an edit's new text
            return edits[i].start
        return offset - shifts[i]
    regions = sorted(before)
    new = [site for site in after
           if not any(lo <= to_input(site.end) and to_input(site.start) <= hi for lo, hi in regions)]
    if new:
        first = new[0].start
        line, col = SourceFile(source.path, output).position(first)
        diagnostics.append(dg.Diagnostic(
            source.path, line, col, dg.ERROR,
            f"internal error: the translation does not parse at output {line}:{col}, where the input "
            f"did ({len(new)} new error sites); please report this", "P003"))


def _point(source: SourceFile, offset: int) -> tuple[int, int]:
    line, col = source.position(offset)
    return line - 1, col - 1
