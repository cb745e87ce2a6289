"""Where user rules apply: the identifier tokens of some names, in the main tree, the
`#if` configuration parses and every `#define` body. (A user rule's edit takes precedence
over the built-in passes' at the same place by the pass's declared precedence: the
pipeline applies it first and drops theirs; no fix is deleted here.)

The front end parses only the `#define` bodies that mention a CUDA name; a body that
names only user rule names (`#define CHECK(x) CUDA_CHECK(x)`) is parsed here.
"""

from __future__ import annotations

import bisect

import tree_sitter as ts

from translator.edits import Edit
from translator.frontend import Fragment, ParsedFile, node_at, unparsed_define_bodies, words_of
from translator.passes import Context
from translator.scan import _in_broken_literal

# The node types of a token that is a name in code (as translator.scan has them).
NAME_NODES = frozenset({"identifier", "type_identifier", "field_identifier", "namespace_identifier"})


def fragments(parsed: ParsedFile, words: frozenset[bytes]) -> list[Fragment]:
    """The parse's fragments, and a parse of each `#define` body naming one of `words`
    that the front end did not parse."""
    extra = unparsed_define_bodies(parsed, lambda lo, hi: not words.isdisjoint(words_of(parsed.cleaned[lo:hi])))
    return [*parsed.fragments, *extra]


def tokens(ctx: Context, frags: list[Fragment], names) -> list[tuple[Fragment, ts.Node, int, int]]:
    """(fragment, node, start, end) of every identifier token in code whose text is one
    of `names` (bytes), in file order: not in strings, comments or `#include` paths."""
    pattern = ctx.parsed.word_pattern(names)
    if pattern is None:
        return []
    text = ctx.parsed.cleaned
    seen: set[int] = set()
    out = []
    for frag in frags:
        for lo, hi in frag.ranges(len(text)):
            for match in pattern.finditer(text, lo, hi):
                start, end = match.span()
                if match.group() not in names or start in seen:
                    continue
                node = node_at(frag.root, start - frag.delta, end - frag.delta)
                if node is None or node.type not in NAME_NODES:
                    continue
                if frag.error_sites and _in_broken_literal(text, node, start):
                    continue
                seen.add(start)
                out.append((frag, node, start, end))
    out.sort(key=lambda t: t[2])
    return out


def overlaps(edit: Edit, start: int, end: int) -> bool:
    """Does the edit change a byte of [start, end) (an insertion: strictly inside it)?"""
    if edit.start == edit.end:
        return start < edit.start < end
    return edit.start < end and start < edit.end


def drop_own_fixes(ctx: Context, keep, start: int, end: int) -> None:
    """This pass's other fixes with an edit in [start, end) go (the built-in passes' lose
    to `keep` by precedence, and are not touched here)."""
    ctx.fixes[:] = [f for f in ctx.fixes if f is keep or ctx.ranks.get(id(f)) != ctx.running
                    or not any(overlaps(e, start, end) for e in f.edits)]


def drop_own_fixes_at(ctx: Context, kept: list[tuple[object, int, int]]) -> None:
    """drop_own_fixes for several fixes at once, each at its own token ([start, end), in
    file order, disjoint): one pass over the fixes, each edit's token found by bisection
    (a pass per token made every rename cost the number of fixes)."""
    if not kept:
        return
    keep = {id(f) for f, _, _ in kept}
    starts = [start for _, start, _ in kept]
    ends = [end for _, _, end in kept]

    def hit(edit: Edit) -> bool:
        # The token starting last before the edit's end (before its point, for an
        # insertion): the tokens are disjoint, so it ends last of those too.
        k = bisect.bisect_left(starts, edit.end) - 1
        return k >= 0 and overlaps(edit, starts[k], ends[k])
    ctx.fixes[:] = [f for f in ctx.fixes if id(f) in keep or ctx.ranks.get(id(f)) != ctx.running
                    or not any(hit(e) for e in f.edits)]


def drop_diagnostics(ctx: Context, start: int, end: int, subject: str, user_ids) -> None:
    """...and so do the other passes' diagnostics about `subject` at exactly [start, end)
    (`'cudaFoo' has no HIP equivalent` where the user's rule says what it becomes)."""
    drop_diagnostics_at(ctx, [(start, end, subject)], user_ids)


def drop_diagnostics_at(ctx: Context, places: list[tuple[int, int, str]], user_ids) -> None:
    """drop_diagnostics for several places at once: one pass over the diagnostics."""
    if not places:
        return
    gone = {(subject, (*ctx.source.position(start), *ctx.source.position(end))) for start, end, subject in places}
    ctx.diagnostics[:] = [d for d in ctx.diagnostics if d.code in user_ids
                          or (d.subject, (d.line, d.col, d.end_line, d.end_col)) not in gone]


def reason(rule, what: str) -> str:
    """An edit's reason: what it does, and the rule's id, file and line."""
    return f"{what} (user rule {rule.id}, {rule.location.path}:{rule.location.line})"
