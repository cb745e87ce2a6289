"""The fact "host-values": an evaluator of host expressions (translator.ir.host_values.HostValues):
a launch's block size, a grid's components, a local's value before a point.

What it proves: the value of an expression built from literals, constants, macros,
enumerators, template arguments at the call sites, `dim3` and arithmetic, and of a local
whose every write it accounts for; the values it may take where there are several at
run time, each known (a macro's definitions under `#if` branches that cover every path,
a local assigned only constants, a `for` counter only its update changes: `Value.note`). What makes it answer unknown (`Value.reason`): a
name some use may write (translator.ir.writes), a parameter, a call it cannot evaluate, a
macro the compile line may redefine (`#ifndef NAME` around its `#define`: `Value.symbol`);
a pass that needs a value acts only on a known one and reports the reason otherwise.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class HostValues(Fact):
    name = "host-values"
    requires = ("tree", "macros")

    @classmethod
    def compute(cls, facts):
        from translator.ir.host_values import evaluator
        return evaluator(facts.get("tree"), facts.source.path, facts.options,   # with the file's local headers
                         table=facts.get("macros"))
