"""Bytes in, bytes out, for one file: front end, IR, passes, the finalizer, apply, and
again until no pass has more to do; then the re-parse check.

Rounds: each analyses the current text, runs the passes (translator.passes) and the
finalizer (translator.finalize) and applies their fixes; the next round analyses the
result, so that code one pass generates is translated too. A round whose edits are all
safe token swaps (a table name for a name, a header name for a header name, an include
line added), or edits of rules that declare they settle (an attribute no rule reads, such
as a launch bound), in a text that parses ends the loop: such edits cannot give any pass
more to do. (Any other semantic edit, a user's rename for one, gets another round.) The
pipeline knows no pass by name: it reads the rule catalog and the pass registry.
"""

from __future__ import annotations

import bisect
import re
import time

from translator import diagnostics as dg
from translator.buildfiles import CMAKE, BuildSyntaxError, build_kind, parse_cmake, parse_make
from translator.catalog import ERROR, RULES, WARNING, rule
from translator.cudanames import CUDA_SHAPED
from translator.edits import SAFE, Fix, OffsetMap, apply_fixes, compose
from translator.finalize import header_fixes
from translator.frontend import error_sites, parse_file
from translator.inputs import check_input
from translator import facts as fl
from translator.mapping import load_tables
from translator.passes import Context, Options, passes_for
from translator.result import Result
from translator.scan import mentions_api
from translator.source import SourceFile
from translator.suppress import Policy, hash_suppressions, suppressions

MAX_ROUNDS = 4

PARSE_ERROR = rule(
    "P001", "parse-error", WARNING, "the parser cannot read this code: only renames are made here", """
tree-sitter could not parse the region (usually a macro it cannot see through). Names
are still renamed there, but no structural rewrite (launch syntax, HIP_SYMBOL, warp
masks) touches it, since its shape is not known.""", example="void f() { int x = ; cudaFree(0); }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f() { int x = ; hipFree(0); }\n", grouped=True)
NEW_PARSE_ERROR = rule(
    "P003", "output-does-not-parse", ERROR, "internal error: the translation does not parse where the input did", """
An edit made code that no longer parses, at a place where the input parsed. This is a
bug in cu2hip: please report it with the input. (tree-sitter's recovery from an error
depends on token lengths, so a rename near code that already failed to parse can move
that error; only an error outside the top-level items that already had one counts.)""")
OVERLAP = rule(
    "P004", "overlapping-edit", WARNING, "an edit was not applied: it overlaps another", """
Two rewrites wanted the same bytes; the first one was applied, the other was not, and
the code it meant to change is as the first rewrite left it.""")
NO_FIXED_POINT = rule(
    "P005", "no-fixed-point", ERROR, "internal error: the passes did not settle", f"""
After {MAX_ROUNDS} rounds the passes still had edits to make on their own output. The
output is what the last round made; please report the input.""")


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
    kind = build_kind(path)
    if kind is not None:
        return _translate_build(result, source, kind, options, tables, started)
    passes = passes_for(options.target, options.only)
    policy = Policy(options.select, options.ignore)    # the file's suppressions: in round 0
    text, applied, rejected, diagnostics = data, [], [], []
    seen: set[str] = set()
    first = last = None
    restructuring = {code for p in passes if p.restructures for code in p.rules}
    rewritten, codes = False, frozenset()
    for round_ in range(MAX_ROUNDS + 1):
        here = source if round_ == 0 else MappedSource(source, text, OffsetMap(applied))
        ctx = _analyse(here, options, tables, policy, passes, round_, rewritten, codes, first and first.facts)
        first, last = first or ctx, ctx
        said = {(d.code, d.message) for d in diagnostics if d.fix is None}     # by the rounds before
        for d in ctx.diagnostics:
            # A refusal a later round repeats word for word elsewhere is about a copy a rewrite
            # made of the user's code (a graph capture's launches, its fallback's): said once.
            if d.format() not in seen and not (d.fix is None and (d.code, d.message) in said):
                seen.add(d.format())
                diagnostics.append(d)
        # Requested headers first: an include and a rewrite inserting at the same offset (a
        # launch at the very start of a file) must come out in that order.
        fixes = header_fixes(ctx) + ctx.order()       # the declared precedence decides overlaps
        if not fixes:
            break
        if round_ == MAX_ROUNDS:
            diagnostics.append(dg.at(source, 0, ERROR, f"internal error: the passes still had {len(fixes)} edits "
                                     f"to make after {MAX_ROUNDS} rounds; please report this", NO_FIXED_POINT.id))
            break
        new, done, refused = apply_fixes(text, fixes)
        _, refused = ctx.overridden(refused, done)       # lost to a fix of higher precedence: not P004
        for fix in refused:
            diagnostics.append(dg.at(here, fix.start, OVERLAP.severity, f"edit not applied, it overlaps another: "
                                     f"{fix.reason}", OVERLAP.id))
        rejected += refused
        applied = compose(data, applied, done)
        rewritten = rewritten or any(f.rule not in restructuring for f in done)
        codes = codes | {f.rule for f in done}
        settled = not ctx.parsed.main.root.has_error and all(
            _settles(f.rule) or f.safety == SAFE and all(_token_swap(text, e) for e in f.edits) for f in done)
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
    result.api_uses = first.module.api_uses
    result.seconds = time.perf_counter() - started
    return result


def _translate_build(result: Result, source: SourceFile, kind: str, options: Options, tables,
                     started: float) -> Result:
    """A build file (translator.buildfiles): tokenized, never parsed as CUDA; its passes
    run once (their edits are renames and flag maps, which give no pass more to do)."""
    try:
        build = parse_cmake(source.data) if kind == CMAKE else parse_make(source.data)
        comments = build.comments
    except BuildSyntaxError as exc:
        build, comments = exc, []
    policy = Policy(options.select, options.ignore, hash_suppressions(source, comments))
    facts = fl.Facts(None, source, options, tables)    # no CUDA facts: the passes read `build`
    ctx = Context(source, facts, options, tables, policy, build=build)
    for info in passes_for(options.target, options.only, kind):
        with facts.reading(f"the pass {info.id!r}", info.requires):
            info.run(ctx)
    diagnostics = list(ctx.diagnostics)
    text = source.data
    if ctx.fixes:
        text, done, refused = apply_fixes(source.data, ctx.fixes)
        for fix in refused:
            diagnostics.append(dg.at(source, fix.start, OVERLAP.severity, f"edit not applied, it overlaps another: "
                                     f"{fix.reason}", OVERLAP.id))
        result.applied, result.rejected, result.rounds = sorted(done, key=lambda f: f.start), refused, 1
    diagnostics += policy.unused(source)
    result.output = text
    result.diagnostics += sorted(diagnostics, key=lambda d: (d.line, d.col, d.code))
    result.seconds = time.perf_counter() - started
    return result


def _analyse(source: SourceFile, options: Options, tables, policy: Policy, passes, round_: int,
             rewritten: bool = False, applied: frozenset[str] = frozenset(), input_facts=None) -> Context:
    """Front end, IR and passes over one text: the context holds the fixes and diagnostics.
    The first round (the input) also reads the suppression comments and reports parse errors;
    a later one gets the input's facts (`input_facts`, Context.of_input)."""
    parsed = parse_file(source.data, mentions_api(tables), options.qualifier_macros, defines=options.defines)
    first_round = round_ == 0
    if first_round:
        policy.comments = suppressions(source, parsed.main.root)
    facts = fl.Facts(parsed, source, options, tables)
    ctx = Context(source, facts, options, tables, policy, round=round_, rewritten=rewritten, applied=applied,
                  input_facts=input_facts)
    with fl.active(facts):       # each pass reads the facts it declares, each built once, on first use
        if first_round:
            for site in parsed.error_sites:
                if _cuda_near(parsed, facts.get("uses"), site.start, site.end, options.qualifier_macros):
                    ctx.report(PARSE_ERROR, site.start, f"{site.message}; only renames are made here", end=site.end)
        for info in passes:
            if info.restructures:
                ctx.running = info.precedence
                with facts.reading(f"the pass {info.id!r}", info.requires):
                    info.run(ctx)
        if not ctx.fixes:     # else the code changed: the other passes see the result next round
            for info in passes:
                if not info.restructures:
                    ctx.running = info.precedence
                    with facts.reading(f"the pass {info.id!r}", info.requires):
                        info.run(ctx)
    return ctx


_NAME = re.compile(rb"[A-Za-z_]\w*\Z")
_HEADER_NAME = re.compile(rb"[\w./+-]+\Z")
_INCLUDE_LINE = re.compile(rb"(\r\n|\n|\r)?#include <[\w./+-]+>(\r\n|\n|\r)\Z")   # LF, CRLF or CR-only


# CUDA's language: what nvcc reads that a C or C++ compiler does not (inline asm in a
# CUDA file is PTX).
_CUDA_WORDS = re.compile(rb"__global__|__device__|__host__|__shared__|__constant__|__managed__|__launch_bounds__|"
                         rb"<<<|__syncthreads|\b(?:threadIdx|blockIdx|blockDim|gridDim|warpSize|asm|__asm__)\b")


def _cuda_near(parsed, uses, start: int, end: int, qualifier_macros=frozenset()) -> bool:
    """Is there CUDA in a parse error's region, widened to the top-level declarations it
    touches: an API use the tables know, a CUDA-shaped name, CUDA's language or a
    qualifier macro of the tree? Where there is none (an OpenGL or C header the parser
    cannot read), no rule had anything to do there, and the warning would be noise."""
    lo, hi = start, end
    for item in parsed.main.root.children:
        if item.start_byte <= end and item.end_byte >= start:
            lo, hi = min(lo, item.start_byte), max(hi, item.end_byte)
    # A name the tables keep as it is (OpenGL's GLenum, which CUDA's GL interop lists) says
    # nothing of CUDA.
    if any(lo <= u.api.span[0] < hi and not (u.entry is not None and u.entry.hip == u.api.name) for u in uses):
        return True
    region = parsed.cleaned[lo:hi]
    return bool(_CUDA_WORDS.search(region) or CUDA_SHAPED.search(region)
                or any(name in region for name in qualifier_macros))


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
        return edit.start == 0 or before in (b"\n", b"\r") or after in (b"\r", b"\n")
    return bool(_HEADER_NAME.match(old) and _HEADER_NAME.match(edit.text)) and \
        data[edit.start - 1:edit.start] in (b"<", b'"') and data[edit.end:edit.end + 1] in (b">", b'"')


# Nodes whose children are items of their own (declarations, definitions, directives):
# an error inside one of those items is widened to that item, not to the whole holder.
_HOLDERS = frozenset({"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                      "preproc_elifdef", "namespace_definition", "linkage_specification", "declaration_list"})
_ITEM_FIELDS = (None, "body", "alternative")


class _Items:
    """The items of a tree, for `span`: the children of its holders, read once each."""

    def __init__(self, root) -> None:
        self.root = root
        self.kids: dict[int, tuple[list, list[int], list[bool]]] = {}

    def _children(self, node):
        if node.id not in self.kids:
            children = node.children
            self.kids[node.id] = (children, [c.end_byte for c in children],
                                  [c.is_named and node.field_name_for_child(i) in _ITEM_FIELDS
                                   for i, c in enumerate(children)])
        return self.kids[node.id]

    def span(self, lo: int, hi: int) -> tuple[int, int]:
        """The span of the item (a declaration, a definition, a statement, a directive: a
        child of the translation unit, of a namespace's or `extern "C"`'s body, or of a
        preprocessor conditional) that holds the error site [lo, hi): where tree-sitter's
        recovery of that site may reach. A site in the holder's own syntax (a missing
        `#endif` or `}`, an error in an `#if` condition) has the whole holder."""
        node = self.root
        while node.type in _HOLDERS:
            children, ends, items = self._children(node)
            touching = []
            for i in range(bisect.bisect_left(ends, lo), len(children)):
                c = children[i]
                if c.start_byte > hi:
                    break
                if _meets(c.start_byte, c.end_byte, lo, hi):
                    touching.append(i)
            if not touching or not all(items[i] for i in touching):
                break           # the holder's own syntax is broken: all of it is in question
            first, last = children[touching[0]], children[touching[-1]]
            if first == last and first.type in _HOLDERS:
                node = first
                continue
            return first.start_byte, last.end_byte
        return node.start_byte, node.end_byte


def _meets(a: int, b: int, lo: int, hi: int) -> bool:
    """Do [a, b) and [lo, hi) share a byte, or does one, empty, lie in the other?"""
    return (a < hi and lo < b) or (a <= lo and hi <= b) or (lo <= a and b <= hi)


def _input_span(omap: OffsetMap, start: int, end: int) -> tuple[int, int]:
    """A range of an edited text as a range of the input, never inverted (a point where a
    deletion was maps to the deleted range)."""
    a, b = omap.to_old(start), omap.to_old(end, True)
    return min(a, b), max(a, b)


def _check_output(source: SourceFile, first: Context, last: Context | None, output: bytes, applied: list[Fix],
                  options: Options, diagnostics: list[dg.Diagnostic]) -> None:
    """P003 for an error site of the output at a place where the input parsed: a bug of
    ours. Where the input parses (no error site, and no error that its #if
    configurations parse instead), that is any error site of the output.

    Where it does not, "where the input parsed" needs care, for tree-sitter's error
    recovery is not local: it weighs the byte lengths of the tokens it skips, so a
    region moves, grows or shrinks when a token near it changes length
    (`((((((())))))) cudaError_t;`: the input misses a `;` before the name; with the
    shorter `hipError_t`, the name itself does not parse), and a region left open (an
    unclosed `[[`, a missing `#endif`) takes in whatever an edit puts in it. So:
      - The reference is the input with its token swaps applied (`_token_swap`: a name
        for a name, a header name for a header name, an include line added at a line
        boundary). A swap cannot make code that parses fail to parse, only move the
        recovery: an output of swaps alone is never reported.
      - Each error site of the reference (the whole-file parse's own sites included:
        whether an #if configuration parses its share is as sensitive to token
        lengths) is widened to the item that holds it (`_Items.span`: a declaration,
        definition, statement or directive at file level, in a namespace or in an #if
        branch), as far as its recovery can reach, and mapped back to the input.
      - An output error site is new when the output's item that holds it, mapped back
        to the input, touches none of those regions: an output item that takes in a
        broken item of the input (a broken `#include` line that reaches into the next
        statement once an edit removed the line between them) is recovery, not a new
        error.
    Every parse here goes through the rounds' front end (the tree's qualifier macros,
    API names never blanked), so the two sides compare like with like."""
    if last is None:
        return      # only token swaps in a file that parses
    keep = mentions_api(first.tables)
    parsed = last.parsed if last.source.data == output else parse_file(output, None, options.qualifier_macros, keep,
                                                                               defines=options.defines)
    after = parsed.error_sites
    if not after:
        return
    regions: list[tuple[int, int]] = []
    if first.parsed.error_sites or first.parsed.main.root.has_error:
        swaps = [f for f in applied if all(_token_swap(source.data, e) for e in f.edits)]
        if len(swaps) == len(applied):
            return  # the output is that text
        reference = first.parsed if not swaps else \
            parse_file(apply_fixes(source.data, swaps)[0], None, options.qualifier_macros, keep,
                       defines=options.defines)
        ref_map = OffsetMap(swaps)
        items = _Items(reference.main.root)
        # The whole-file parse's own sites too: those that the #if configurations parse
        # (`ParsedFile.configurations`) are not in `error_sites`, but whether a
        # configuration parses its share is as sensitive to token lengths.
        regions = sorted(_input_span(ref_map, *items.span(s.start, s.end))
                         for s in reference.error_sites + error_sites(reference.main.root))
    # Merged, so that one bisect finds the region an output site could touch.
    merged: list[list[int]] = []
    for lo, hi in regions:
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    ends = [hi for _, hi in merged]
    omap = OffsetMap(applied)
    out_items = _Items(parsed.main.root)
    new = []
    for site in after:
        a, b = _input_span(omap, *(out_items.span(site.start, site.end) if merged else (site.start, site.end)))
        k = bisect.bisect_left(ends, a)
        if not (k < len(merged) and merged[k][0] <= b):
            new.append(site)
    if new:
        line, col = SourceFile(source.path, output).position(new[0].start)
        diagnostics.append(dg.at(source, _input_span(omap, new[0].start, new[0].end)[0], ERROR,
                                 f"internal error: the translation does not parse at output {line}:{col}, where "
                                 f"the input did ({len(new)} new error sites); please report this",
                                 NEW_PARSE_ERROR.id))


def _settles(code: str) -> bool:
    """Does the catalog say this rule's edits give no pass more to do?"""
    declared = RULES.get(code)
    return declared is not None and declared.settles
