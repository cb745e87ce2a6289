"""Bytes in, bytes out: front end, IR, passes, apply_fixes, the include finalizer and
the re-parse check, for one file."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from translator import diagnostics as dg
from translator.edits import Fix, apply_fixes
from translator.frontend import ParsedFile, parse_file
from translator.ir import Module, build_ir
from translator.mapping import load_tables
from translator.passes import Context, Options, passes_for
from translator.passes.hipify import runtime_header_insertion
from translator.scan import scan_api_uses
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
    uses: tuple = ()           # ApiUse, in source order (plain data: results cross processes)
    seconds: float = 0.0
    skipped: bool = False      # not translated (binary, too large...): output == input

    @property
    def changed(self) -> bool:
        return self.output != self.input

    @property
    def errors(self) -> int:
        return sum(d.severity == dg.ERROR for d in self.diagnostics)

    def edits_per_pass(self) -> Counter:
        return Counter(f.pass_id for f in self.applied)


def check_input(path: str, data: bytes) -> list[dg.Diagnostic]:
    """Problems that stop a file from being translated at all (reported as errors), or
    that are worth knowing (invalid UTF-8: the bytes are kept as they are)."""
    source = SourceFile(path, data)
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
    result.diagnostics = check_input(path, data)
    if any(d.severity == dg.ERROR for d in result.diagnostics):
        result.skipped = True
        return result
    source = SourceFile(path, data)
    tables = load_tables()
    parsed = parse_file(data)
    uses = scan_api_uses(parsed, tables)
    module = build_ir(path, parsed, tuple(u.api for u in uses))
    ctx = Context(source, parsed, module, uses, options, tables)
    _report_parse_errors(ctx, parsed)
    for info in passes_for(options.target):
        info.run(ctx)
    output, applied, rejected = apply_fixes(data, ctx.fixes)
    if options.target == "hip" and applied:
        insertion = runtime_header_insertion(output, source.newline)
        if insertion is not None:
            fix = Fix((insertion,), "H002", "HIP code needs hip/hip_runtime.h (HIPIFY inserts it)")
            output, more, _ = apply_fixes(output, [fix])
            applied += more
    for fix in rejected:
        ctx.report(fix.start, dg.WARNING, f"edit not applied, it overlaps another: {fix.reason}", "P004")
    if output != data:
        _check_reparse(ctx, parsed, output)
    result.output, result.applied, result.rejected = output, applied, rejected
    result.diagnostics += sorted(ctx.diagnostics, key=lambda d: (d.line, d.col, d.code))
    result.module, result.uses = module, module.api_uses
    result.seconds = time.perf_counter() - started
    return result


def _report_parse_errors(ctx: Context, parsed: ParsedFile) -> None:
    for site in parsed.error_sites:
        ctx.report(site.start, dg.WARNING, f"{site.message}; only renames are made here", "P001")


def _check_reparse(ctx: Context, parsed: ParsedFile, output: bytes) -> None:
    before = len(parsed.error_sites)
    after_sites = parse_file(output).error_sites
    if len(after_sites) > before:
        first = after_sites[0].start
        line, col = SourceFile(ctx.source.path, output).position(first)
        ctx.diagnostics.append(dg.Diagnostic(
            ctx.source.path, line, col, dg.ERROR,
            f"internal error: the translation has {len(after_sites)} parse error sites, the input "
            f"{before} (first at output {line}:{col}); please report this", "P003"))
