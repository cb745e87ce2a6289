"""The fact "warp": the lane facts of every device function of the file (thread values,
lane sites, shuffles, votes, narrow masks, tiles; translator.ir.warp builds it), over
the call graph.

What it proves: where a value derived from the thread index reaches, through locals and
through the parameters of the file's device functions that callers pass it to. What
makes it answer unknown: a value through memory (`keys[i]`), a call's result, or a call
the call graph cannot resolve; a site whose operand is not a literal nor `warpSize`
carries no lane model, and the warp-size pass reports it rather than rewriting it. A call
of a device function that a local header the file includes defines (the run's
`local_headers`) carries that function's lane model, read from the header's own facts.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class WarpFacts(Fact):
    name = "warp"
    requires = ("tree", "call-graph", "macros")

    @classmethod
    def compute(cls, facts):
        from translator.ir.macros import included_headers
        from translator.ir.warp import build_warp_facts
        parsed = facts.get("tree")
        headers = getattr(facts.options, "local_headers", ())
        path = facts.source.path if facts.source is not None else ""
        return build_warp_facts(parsed, included_headers(path, parsed.data, dict(headers)) if headers else ())
