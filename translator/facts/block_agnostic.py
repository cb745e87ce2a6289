"""The fact "block-agnostic": for each kernel, whether its result can depend on the block
size it is launched with (translator.ir.block_agnostic.analyse), read per kernel with
`.of(kernel)`.

What it proves (`Agnostic`): the kernel's work is a function of its global thread id
alone: one of the elementwise shapes, and nothing in it or in the device functions it
reaches through known calls sees the block. What makes it answer unknown
(`NotAgnostic` with the reason): anything that sees the block (thread indices beyond the
global id, shared memory, barriers, warp operations, cooperative-groups block and grid
queries), and any call the call graph cannot follow (an unknown edge): the rebalancing
pass moves a launch only for an `Agnostic` kernel.
"""

from __future__ import annotations

from translator.facts import Fact, PerItem, register


class _PerKernel(PerItem):
    def of(self, kernel):
        """Agnostic, or NotAgnostic with the reason."""
        from translator.ir.block_agnostic import analyse
        return self.answer((kernel.name, kernel.span), lambda: analyse(self.facts.get("tree"), kernel))


@register
class BlockAgnostic(Fact):
    name = "block-agnostic"
    requires = ("tree", "call-graph", "macros")

    @classmethod
    def compute(cls, facts):
        return _PerKernel(facts, cls)
