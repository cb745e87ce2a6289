"""Bytes in, bytes out, for one file: front end, IR, passes, the finalizer, apply, and
again until no pass has more to do; then the re-parse check.

Rounds: each analyses the current text, runs the passes (translator.passes) and the
finalizer (translator.finalize) and applies their fixes; the next round analyses the
result, so that code one pass generates is translated too. A round whose edits are all
safe token swaps (a table name for a name, a header name for a header name, an include
line added) in a text that parses ends the loop: such edits cannot give any pass more
to do. (A semantic rule's edit, a user's rename for one, always gets another round.) The
pipeline knows no pass by name: it reads the rule catalog and the pass registry.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from translator import diagnostics as dg
from translator.catalog import ERROR, WARNING, rule
from translator.edits import SAFE, Fix, OffsetMap, apply_fixes, compose
from translator.finalize import header_fixes
from translator.frontend import error_sites, parse_file
from translator.inputs import check_input
from translator.ir import Module, build_ir
from translator.mapping import load_tables
from translator.passes import Context, Options, passes_for
from translator.scan import mentions_api, scan_api_uses
from translator.source import SourceFile
from translator.suppress import Policy, suppressions

MAX_ROUNDS = 4

PARSE_ERROR = rule(
    "P001", "parse-error", WARNING, "the parser cannot read this code: only renames are made here", """
tree-sitter could not parse the region (usually a macro it cannot see through). Names
are still renamed there, but no structural rewrite (launch syntax, HIP_SYMBOL, warp
masks) touches it, since its shape is not known.""", example="void f() { int x = ; cudaFree(0); }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f() { int x = ; hipFree(0); }\n")
NEW_PARSE_ERROR = rule(
    "P003", "output-does-not-parse", ERROR, "internal error: the translation does not parse where the input did", """
An edit made code that no longer parses. This is a bug in cu2hip: please report it with
the input. (Inside a region the input already failed to parse, tree-sitter may recover
differently after a rename; that is not reported.)""")
OVERLAP = rule(
    "P004", "overlapping-edit", WARNING, "an edit was not applied: it overlaps another", """
Two rewrites wanted the same bytes; the first one was applied, the other was not, and
the code it meant to change is as the first rewrite left it.""")
NO_FIXED_POINT = rule(
    "P005", "no-fixed-point", ERROR, "internal error: the passes did not settle", f"""
After {MAX_ROUNDS} rounds the passes still had edits to make on their own output. The
output is what the last round made; please report the input.""")


@dataclass
class Result:
    path: str
    input: bytes
    output: bytes
    applied: list[Fix] = field(default_factory=list)     # in the input's offsets
    rejected: list[Fix] = field(default_factory=list)
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    module: Module | None = None
    seconds: float = 0.0
    skipped: bool = False      # not translated (binary, too large...): output == input
    rounds: int = 0

    @property
    def changed(self) -> bool:
        return self.output != self.input

    @property
    def uses(self) -> tuple:
        """ApiUse, in source order (plain data: results cross processes)."""
        return self.module.api_uses if self.module is not None else ()

    @property
    def errors(self) -> int:
        return sum(d.severity == ERROR for d in self.diagnostics)


class MappedSource(SourceFile):
    """A round's text, whose positions are those of the input (through the round's
    OffsetMap): diagnostics and suppressions always speak of the user's file."""

    def __init__(self, original: SourceFile, data: bytes, omap: OffsetMap):
        super().__init__(original.path, data)
        self.original, self.omap = original, omap

    def position(self, offset: int) -> tuple[int, int]:
        return self.original.position(self.omap.to_old(offset))


def translate(path: str, data: bytes, options: Options = Options()) -> Result:
    started = time.perf_counter()
    result = Result(path, data, data)
    source = SourceFile(path, data)
    result.diagnostics = check_input(source)
    if any(d.severity == ERROR for d in result.diagnostics):
        result.skipped = True
        return result
    tables = load_tables()
    passes = passes_for(options.target, options.only)
    policy = Policy(options.select, options.ignore)    # the file's suppressions: in round 0
    text, applied, rejected, diagnostics = data, [], [], []
    seen: set[str] = set()
    first = last = None
    for round_ in range(MAX_ROUNDS + 1):
        here = source if round_ == 0 else MappedSource(source, text, OffsetMap(applied))
        ctx = _analyse(here, options, tables, policy, passes, first_round=round_ == 0)
        first, last = first or ctx, ctx
        for d in ctx.diagnostics:
            if d.format() not in seen:
                seen.add(d.format())
                diagnostics.append(d)
        # Requested headers first: an include and a rewrite inserting at the same offset (a
        # launch at the very start of a file) must come out in that order.
        fixes = header_fixes(ctx) + ctx.fixes
        if not fixes:
            break
        if round_ == MAX_ROUNDS:
            diagnostics.append(dg.at(source, 0, ERROR, f"internal error: the passes still had {len(fixes)} edits "
                                     f"to make after {MAX_ROUNDS} rounds; please report this", NO_FIXED_POINT.id))
            break
        new, done, refused = apply_fixes(text, fixes)
        for fix in refused:
            diagnostics.append(dg.at(here, fix.start, OVERLAP.severity, f"edit not applied, it overlaps another: "
                                     f"{fix.reason}", OVERLAP.id))
        rejected += refused
        applied = compose(data, applied, done)
        settled = not ctx.parsed.main.root.has_error and all(
            f.safety == SAFE and _token_swap(text, e) for f in done for e in f.edits)
        text = new
        result.rounds = round_ + 1
        if settled:
            last = None       # the output was not parsed
            break
    if applied:
        _check_output(source, first, last, text, applied, options, diagnostics)
    diagnostics += policy.unused(source)
    # In source order (stable: fixes inserting at one offset keep the order they were applied in).
    result.output, result.applied, result.rejected = text, sorted(applied, key=lambda f: f.start), rejected
    result.diagnostics += sorted(diagnostics, key=lambda d: (d.line, d.col, d.code))
    result.module = first.module
    result.seconds = time.perf_counter() - started
    return result


def _analyse(source: SourceFile, options: Options, tables, policy: Policy, passes, first_round: bool) -> Context:
    """Front end, IR and passes over one text: the context holds the fixes and diagnostics.
    The first round (the input) also reads the suppression comments and reports parse errors."""
    parsed = parse_file(source.data, mentions_api(tables), options.qualifier_macros)
    if first_round:
        policy.comments = suppressions(source, parsed.main.root)
    uses = scan_api_uses(parsed, tables)
    ctx = Context(source, parsed, build_ir(source.path, parsed, uses), uses, options, tables, policy)
    if first_round:
        for site in parsed.error_sites:
            ctx.report(PARSE_ERROR, site.start, f"{site.message}; only renames are made here", end=site.end)
    for info in passes:
        info.run(ctx)
    return ctx


_NAME = re.compile(rb"[A-Za-z_]\w*\Z")
_HEADER_NAME = re.compile(rb"[\w./+-]+\Z")
_INCLUDE_LINE = re.compile(rb"(\r?\n)?#include <[\w./+-]+>\r?\n\Z")


def _token_swap(data: bytes, edit) -> bool:
    """True for an edit that cannot change the parse of the rest of a file that parses:
    one identifier replaced by another (no HIP name is a keyword), one header name by
    another inside an #include's delimiters, or an #include line added at a line's end
    or start. (Where the file has parse errors, tree-sitter's recovery weighs token
    lengths, so there the output is always analysed again.)"""
    old = data[edit.start:edit.end]
    if _NAME.match(old) and _NAME.match(edit.text):
        return (edit.start == 0 or not (data[edit.start - 1:edit.start].isalnum() or data[edit.start - 1] == 95)) \
            and not (data[edit.end:edit.end + 1].isalnum() or data[edit.end:edit.end + 1] == b"_")
    if not old and _INCLUDE_LINE.match(edit.text):
        before, after = data[edit.start - 1:edit.start], data[edit.start:edit.start + 1]
        return edit.start == 0 or before == b"\n" or after in (b"\r", b"\n")
    return bool(_HEADER_NAME.match(old) and _HEADER_NAME.match(edit.text)) and \
        data[edit.start - 1:edit.start] in (b"<", b'"') and data[edit.end:edit.end + 1] in (b">", b'"')


def _check_output(source: SourceFile, first: Context, last: Context | None, output: bytes, applied: list[Fix],
                  options: Options, diagnostics: list[dg.Diagnostic]) -> None:
    """P003 for an error site of the output where the input parsed: a bug of ours. Inside
    a region the input already failed to parse, tree-sitter may recover differently
    from a renamed token or an added line, which says nothing about the translation:
    for a broken input, its regions are taken from a parse of the input with the added
    lines in it."""
    if last is None:
        return      # only token swaps in a file that parses
    after = last.parsed.main.error_sites if last.source.data == output else \
        error_sites(parse_file(output, None, options.qualifier_macros).main.root)
    if not after:
        return
    before = [(s.start, s.end) for s in first.parsed.main.error_sites]
    if first.parsed.main.root.has_error:
        added = [f for f in applied if all(not (source.data[e.start:e.end]) and _INCLUDE_LINE.match(e.text)
                                           for e in f.edits)]
        if added:
            with_lines = apply_fixes(source.data, added)[0]
            omap = OffsetMap(added)
            before += [(omap.to_old(s.start), omap.to_old(s.end, True))
                       for s in error_sites(parse_file(with_lines, None, options.qualifier_macros).main.root)]
    omap = OffsetMap(applied)
    new = [site for site in after if not any(lo <= omap.to_old(site.end, True) and omap.to_old(site.start) <= hi
                                             for lo, hi in before)]
    if new:
        line, col = SourceFile(source.path, output).position(new[0].start)
        diagnostics.append(dg.at(source, omap.to_old(new[0].start), ERROR,
                                 f"internal error: the translation does not parse at output {line}:{col}, where "
                                 f"the input did ({len(new)} new error sites); please report this",
                                 NEW_PARSE_ERROR.id))
