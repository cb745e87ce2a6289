"""User renames and header maps: token swaps, like the built-in H001 and H002.

A rename changes every identifier token of the name in code (translator.passes.user_rules
.sites), a header map the path of every `#include` of the header (its `<>` or `""`
kept). Either wins over a built-in edit or diagnostic at the same place.
"""

from __future__ import annotations

from translator.edits import Edit
from translator.frontend import Fragment, include_directives
from translator.passes import Context
from translator.passes.user_rules.sites import (drop_diagnostics, drop_diagnostics_at, drop_own_fixes,
                                               drop_own_fixes_at, reason, tokens)
from translator.rules import RuleSet


def rename(ctx: Context, rules: RuleSet, declared: dict, frags: list[Fragment]) -> None:
    made_at, places = [], []
    for _, _, start, end in tokens(ctx, frags, rules.renames):     # in file order, disjoint
        rule = rules.renames[ctx.parsed.cleaned[start:end]]
        made = ctx.fix(declared[rule.id], Edit(start, end, rule.new.encode()),
                       reason(rule, f"{rule.old} -> {rule.new}"))
        if made is not None:        # the built-in fixes here lose to it by precedence (translator.passes)
            made_at.append((made, start, end))
            places.append((start, end, rule.old))
    # (At once: no rename's fix overlaps another's token, and none adds a diagnostic.)
    drop_own_fixes_at(ctx, made_at)
    drop_diagnostics_at(ctx, places, rules.ids)


def map_headers(ctx: Context, rules: RuleSet, declared: dict) -> None:
    if not rules.headers:
        return
    data = ctx.source.data
    for _, path in include_directives(ctx.parsed):
        header = data[path.start_byte + 1:path.end_byte - 1].decode("utf-8", "replace")
        rule = rules.headers.get(header)
        if rule is None:
            continue
        start, end = path.start_byte + 1, path.end_byte - 1
        made = ctx.fix(declared[rule.id], Edit(start, end, rule.new.encode()),
                       reason(rule, f"{rule.old} -> {rule.new}"))
        if made is not None:
            drop_own_fixes(ctx, made, start, end)
            drop_diagnostics(ctx, path.start_byte, path.end_byte, header, rules.ids)
