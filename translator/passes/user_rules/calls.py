"""User call rewrites: `call f(a, b) -> g(b, a, 0)` on every call `f(...)` whose
argument count the rule takes.

The new call is made of the old one's bytes (translator.passes.user_rules.template): the
arguments' own texts, the old separators in their places (a call laid out over several
lines keeps its layout), the template's literal text around them; the edits, all inside
the call's span, leave in place what can stay. An argument used inside a larger
expression of the template (`mul(x * x)`) is parenthesized unless it is primary.

Other passes' fixes inside the call: those on bytes that stay in place are left alone;
the edits of the others inside arguments are folded into the rewrite (a hipify rename
in a moved argument moves with it), the rest of them is overridden (a rename of the
function name, hipify's or the user's, or a fix over a separator).
"""

from __future__ import annotations

import bisect

import tree_sitter as ts

from translator.edits import Edit, Fix, apply_fixes
from translator.frontend import Fragment
from translator.passes import Context
from translator.passes.hipify.calls import arguments
from translator.passes.user_rules import template
from translator.passes.user_rules.sites import drop_diagnostics_at, overlaps, reason, tokens
from translator.rules import CallRewrite, RuleSet


def rewrite_calls(ctx: Context, rules: RuleSet, declared: dict, frags: list[Fragment]) -> None:
    found = []
    for frag, node, start, end in tokens(ctx, frags, rules.calls):
        candidates = rules.calls[ctx.parsed.cleaned[start:end]]
        call = node.parent
        if call is not None and call.type == "call_expression" and call.child_by_field_name("function") == node:
            found.append((frag, node, call, candidates))
        elif not frag.clean(node) and ctx.parsed.cleaned[end:end + 80].lstrip()[:1] == b"(":
            _skip(ctx, declared, candidates[0], start, end, "parse error around the call")
    # Innermost first: a call in another's arguments is folded into the outer rewrite.
    found.sort(key=lambda t: (t[2].end_byte - t[2].start_byte, t[2].start_byte))
    index = _FixIndex(ctx.fixes)
    dropped: list[tuple[int, int, str]] = []
    for frag, node, call, candidates in found:
        start, end = frag.span(node)
        args = arguments(call)
        rule = next((r for r in candidates if r.matches(len(args))), None)
        if not frag.clean(call):
            _skip(ctx, declared, candidates[0], start, end, "parse error around the call")
        elif rule is None:
            takes = " or ".join(r.arity() for r in candidates)
            _skip(ctx, declared, candidates[0], start, end,
                  f"the call has {len(args)} argument{'s' * (len(args) != 1)}, the rule takes {takes}")
        else:
            _rewrite(ctx, rules, declared[rule.id], rule, frag, node, call, args, index, dropped)
    # At once, not per call (each a pass over every fix and diagnostic of the file): the
    # fixes of this pass that a rewrite folded, and the other passes' diagnostics at a
    # rewritten name.
    if index.gone:
        ctx.fixes[:] = [f for f in ctx.fixes if id(f) not in index.gone]
    drop_diagnostics_at(ctx, dropped, rules.ids)


class _FixIndex:
    """The round's fixes by where they start, for the question "which fixes lie inside
    this call?" (a walk over every fix per call made N calls cost N * N): the other
    passes' fixes, made before this pass ran, and this pass's, added as it goes."""

    def __init__(self, fixes: list[Fix]):
        self.order: dict[int, int] = {}             # id(fix) -> its place in ctx.fixes
        self.gone: set[int] = set()                 # folded into a larger rewrite: dropped at the end
        self.starts: list[int] = []
        self.fixes: list[Fix] = []
        for fix in sorted(fixes, key=lambda f: f.start):
            self._put(fix)
        self.order = {id(f): i for i, f in enumerate(fixes)}

    def _put(self, fix: Fix) -> None:
        i = bisect.bisect_right(self.starts, fix.start)
        self.starts.insert(i, fix.start)
        self.fixes.insert(i, fix)

    def add(self, fix: Fix) -> None:
        self.order[id(fix)] = len(self.order)
        self._put(fix)

    def inside(self, lo: int, hi: int) -> list[Fix]:
        """The live fixes whose every edit lies in [lo, hi], in the order they were made."""
        out = []
        for k in range(bisect.bisect_left(self.starts, lo), len(self.starts)):
            if self.starts[k] > hi:
                break
            fix = self.fixes[k]
            if id(fix) not in self.gone and all(e.end <= hi for e in fix.edits):
                out.append(fix)
        return sorted(out, key=lambda f: self.order[id(f)])


def _skip(ctx: Context, declared: dict, rule: CallRewrite, start: int, end: int, why: str) -> None:
    ctx.report(declared[rule.id], start, f"'{rule.name}' not rewritten: {why}", severity="warning", end=end,
               subject=rule.name)


def _rewrite(ctx: Context, rules: RuleSet, catalog_rule, rule: CallRewrite, frag: Fragment, fn: ts.Node,
             call: ts.Node, args: list[ts.Node], index: _FixIndex, dropped: list[tuple[int, int, str]]) -> None:
    data = ctx.source.data
    fn_start, fn_end = frag.span(fn)
    call_end = frag.span(call)[1]
    argument_list = call.child_by_field_name("arguments")
    if argument_list is None:
        return
    open_, close = frag.span(argument_list)
    spans = [frag.span(a) for a in args]
    out = template.chunks(rule, fn_end, open_, close, spans, args)
    pieces = template.pieces(rule, spans)
    keep = template.kept(out, pieces)
    stay = [out[i] for i in sorted(keep)]
    folded, overridden = _classify(index.inside(fn_start, call_end), (fn_start, fn_end), (fn_start, call_end),
                                   pieces, stay)

    def render(lo: int, hi: int) -> bytes:
        inside = [Fix(tuple(Edit(e.start - lo, e.end - lo, e.text) for e in f.edits if _within(e, [(lo, hi)])),
                      f.rule, f.reason) for f in folded]
        return apply_fixes(data[lo:hi], [f for f in inside if f.edits])[0]

    made = template.edits(data, out, keep, fn_start, call_end, render)
    # A folded fix's edits in an argument that stays in place stay, as edits of the rewrite.
    made += [e for f in folded for e in f.edits if _within(e, stay)]
    if not made:
        return
    why = reason(rule, f"{rule.name}(...) -> {rule.function}(...)")
    present = [c for c in out if isinstance(c, tuple)]
    used = [f.reason for f in folded if any(_within(e, present) for e in f.edits)]
    if used:
        why += "; with, inside its arguments: " + "; ".join(used)
    fix = ctx.fix(catalog_rule, tuple(sorted(made, key=lambda e: (e.start, e.end))), why)
    if fix is not None:
        # The built-in passes' folded and overridden fixes lose to it by precedence
        # (translator.passes); this pass's own (an inner call rewritten) are replaced by it.
        index.gone.update(id(f) for f in folded + overridden if ctx.ranks.get(id(f)) == ctx.running)
        index.add(fix)
        dropped.append((fn_start, fn_end, rule.name))


def _within(edit: Edit, ranges) -> bool:
    return any(lo <= edit.start and edit.end <= hi for lo, hi in ranges)


def _classify(fixes: list[Fix], name: tuple[int, int], call: tuple[int, int], pieces: list[tuple[int, int]],
              stay: list[tuple[int, int]]) -> tuple[list[Fix], list[Fix]]:
    """The other fixes inside the call that the rewrite replaces: (those to fold, whose
    edits all lie in arguments or in the function name, which the rewrite overrides;
    the others, overridden whole). A fix whose edits all lie in ranges that stay in
    place is left as it is; one that reaches outside the call is left too, to win or
    lose against the rewrite as overlapping fixes do (P004)."""
    folded, overridden = [], []
    for fix in fixes:
        if not any(overlaps(e, *call) for e in fix.edits) or \
                not all(call[0] <= e.start and e.end <= call[1] for e in fix.edits) or \
                all(_within(e, stay) for e in fix.edits):
            continue
        in_pieces = [_within(e, pieces) for e in fix.edits]
        in_name = [_within(e, [name]) for e in fix.edits]
        if any(in_pieces) and all(p or n for p, n in zip(in_pieces, in_name)):
            folded.append(fix)
        else:
            overridden.append(fix)
    return folded, overridden
