"""The fact "macros": the macro table of the round's text (translator.ir.macros): the
object-like and function-like `#define`s of the file and of the local headers it
includes, one table that every analysis of kernel and host code reads.

What it proves: the expansion of a name or a call that is a macro, as the preprocessor
would make it. What makes it answer unknown: a name with several different definitions
(two `#if` branches, the file and a header; `MacroTable.alternatives` says when they are
alternatives one of which always holds, which the host-value evaluator reads as each of
them), one that a line `#undef`s, a macro under
`#ifndef NAME` (the compile line may redefine it), a body with `#` or `##`, a variadic
macro; an analysis that meets an unknown macro in the code it reads makes its own answer
unknown, with the macro's name in the reason.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class Macros(Fact):
    name = "macros"
    requires = ("tree",)

    @classmethod
    def compute(cls, facts):
        from translator.ir.macros import table_of
        parsed = facts.get("tree")
        headers = getattr(facts.options, "local_headers", ())
        path = facts.source.path if facts.source is not None else ""
        return table_of(parsed.data, path, dict(headers) if headers else None)
