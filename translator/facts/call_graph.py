"""The fact "call-graph": the file's device code (kernels and `__device__` functions) and
who calls whom (translator.ir.calls builds it).

What it proves: a call written as a plain name (or a template's name) of a device
function the file defines is an edge to every definition of that name (overloads are
not told apart: a superset of the real edges). What makes it answer unknown: a call it
cannot resolve to a definition of the file, an unknown edge (`CallGraph.unknown(name)`:
through a function pointer or a table of them, through a functor of a template
parameter's type, a virtual call, a declared-but-undefined function such as an
`extern __device__` one); an analysis that must see every callee (block dependence,
elementwise shape) treats a function with an unknown edge as doing anything.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class CallGraph(Fact):
    name = "call-graph"
    requires = ("tree", "macros")

    @classmethod
    def compute(cls, facts):
        from translator.ir.calls import build_call_graph
        return build_call_graph(facts.get("tree"))
