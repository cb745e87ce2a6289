"""The fact "warp": the lane facts of every device function of the file (thread values,
lane sites, shuffles, votes, narrow masks, tiles; translator.ir.warp builds it), over
the call graph.

What it proves: where a value derived from the thread index reaches, through locals and
through the parameters of the file's device functions that callers pass it to. What
makes it answer unknown: a value through memory (`keys[i]`), a call's result, or a call
the call graph cannot resolve; a site whose operand is not a literal nor `warpSize`
carries no lane model, and the warp-size pass reports it rather than rewriting it.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class WarpFacts(Fact):
    name = "warp"
    requires = ("tree", "call-graph", "macros")

    @classmethod
    def compute(cls, facts):
        from translator.ir.warp import build_warp_facts
        return build_warp_facts(facts.get("tree"))
