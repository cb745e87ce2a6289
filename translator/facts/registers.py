"""The fact "register-counter": the static VGPR count's view of one file (its device
functions, structs and constants, looked up once; translator.ir.registers), which the
report's kernel table reads for each kernel.

What it proves: nothing a rewrite relies on: it is an estimate, and says so. What makes
a kernel's demand unknown: no body in this file, a definition in a macro, a definition
the parse did not find (`Demand.reason`).
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class RegisterCounter(Fact):
    name = "register-counter"
    requires = ("tree", "call-graph", "macros")

    @classmethod
    def compute(cls, facts):
        from translator.ir.registers import _Counter
        return _Counter(facts.get("tree"))
