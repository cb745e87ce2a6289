"""The fact "launch-blocks": the host blocks that launch two kernels or more, their
statements classified (launch, transparent host arithmetic, error check, barrier with
what it is; translator.ir.statements.launch_blocks). What the launching functions do
with their pointers is the fact "aliases".

What it proves: a "transparent" statement calls only pure functions and touches no
memory; a "check" only queries an error and reports. What makes it answer unknown: any
other call, control flow, memory access through a pointer: such a statement is a
barrier, with its description as the reason.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class LaunchBlocks(Fact):
    name = "launch-blocks"
    requires = ("tree", "launches", "macros")

    @classmethod
    def compute(cls, facts):
        from translator.facts.module import ModuleView
        from translator.ir.statements import launch_blocks
        return launch_blocks(facts.get("tree"), ModuleView(facts, ""))
