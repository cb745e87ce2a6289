"""The fact "elementwise": for each kernel, whether it is elementwise (translator.ir.elementwise:
its guard and bound, its index, every access at the thread's own index) or else only
reduces at its own index (translator.ir.reductions), and the file's `__device__` helpers
with the hazard each holds.

What it proves (`Stage`, `Consumer`): every memory access of each thread is at its own
element, under one guard, through calls of helpers that take no pointer or reference.
What makes it answer unknown (`Refusal` with the reason): any access at another index, a
helper with a hazard, a call the call graph cannot follow, a shape it does not know, and,
in the whole file, an operator, constructor or conversion of a class of the file or of
its local headers that holds a helper's hazard or reaches memory beyond its operands'
fields (code no call names: translator.ir.implicit).
"""

from __future__ import annotations

from translator.facts import Fact, PerItem, register


class _PerKernel(PerItem):
    def __init__(self, facts, fact):
        from translator.ir.elementwise import device_functions
        super().__init__(facts, fact)
        self.parsed = facts.get("tree")
        self.helpers = device_functions(self.parsed)      # by name, each with its hazard

    def stage(self, kernel):
        """The kernel as a Stage, or a Refusal with the reason."""
        from translator.ir.elementwise import analyse
        return self.answer(("stage", kernel.name, kernel.span),
                           lambda: self._implicit(kernel, analyse(self.parsed, kernel, self.helpers)))

    def consumer(self, kernel):
        """The kernel as a Consumer (a reduction at its own index), or a Refusal."""
        from translator.ir.reductions import consumer
        return self.answer(("consumer", kernel.name, kernel.span),
                           lambda: self._implicit(kernel, consumer(self.parsed, kernel, self.helpers)))

    def _implicit(self, kernel, found):
        """`found`, or a Refusal where code no call names (a class's operators and
        constructors: translator.ir.implicit) holds a helper's hazard or reaches memory."""
        from translator.ir.elementwise import _HELPER_HAZARDS, Refusal
        from translator.ir.implicit import hazard
        from translator.facts.block_agnostic import local_headers
        if isinstance(found, Refusal):
            return found
        why = self.answer("implicit", lambda: hazard(self.parsed, self.facts.get("macros"),
                                                      local_headers(self.facts), _HELPER_HAZARDS, memory=True))
        return found if why is None else Refusal(kernel.name, why)


@register
class Elementwise(Fact):
    name = "elementwise"
    requires = ("tree", "call-graph", "macros")

    @classmethod
    def compute(cls, facts):
        return _PerKernel(facts, cls)
