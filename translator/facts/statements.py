"""The fact "launch-blocks": the host blocks that launch two kernels or more, their
statements classified (launch, transparent host arithmetic, error check, barrier with
what it is; translator.ir.statements.launch_blocks), and per launching function what it
does with its names (`pointers(function_span)`: allocations, `__restrict__` parameters,
every use of each name).

What it proves: a "transparent" statement calls only pure functions and touches no
memory; a "check" only queries an error and reports. What makes it answer unknown: any
other call, control flow, memory access through a pointer: such a statement is a
barrier, with its description as the reason.
"""

from __future__ import annotations

from translator.facts import Fact, PerItem, register


class _Blocks(PerItem):
    def __init__(self, facts, fact, module):
        from translator.ir.statements import launch_blocks
        super().__init__(facts, fact)
        self.parsed = facts.get("tree")
        self.blocks = launch_blocks(self.parsed, module)

    def pointers(self, function_span):
        """The Pointers of the function definition at that span."""
        from translator.ir.statements import pointers
        return self.answer(function_span, lambda: pointers(self.parsed, function_span))


@register
class LaunchBlocks(Fact):
    name = "launch-blocks"
    requires = ("tree", "launches")

    @classmethod
    def compute(cls, facts):
        from translator.facts.module import ModuleView
        return _Blocks(facts, cls, ModuleView(facts, ""))
