"""The fact "block-agnostic": for each kernel, whether its result can depend on the block
size it is launched with (translator.ir.block_agnostic.analyse), read per kernel with
`.of(kernel)`.

What it proves (`Agnostic`): the kernel's work is a function of its global thread id
alone: one of the elementwise shapes, and nothing in it or in the device functions it
reaches through known calls sees the block. What makes it answer unknown
(`NotAgnostic` with the reason): anything that sees the block (thread indices beyond the
global id, shared memory, barriers, warp operations, cooperative-groups block and grid
queries), any call the call graph cannot follow (an unknown edge), and, in the whole
file, an operator, constructor or conversion of a class of the file or of its local
headers that sees the block (code no call names: translator.ir.implicit): the
rebalancing pass moves a launch only for an `Agnostic` kernel.
"""

from __future__ import annotations

from translator.facts import Fact, PerItem, register


def local_headers(facts) -> list[tuple[str, bytes]]:
    """The local headers the round's file includes (path, bytes), in the order the
    preprocessor reads them: whose classes' operators and constructors its kernels may run."""
    from translator.ir.macros import included_headers
    headers = getattr(facts.options, "local_headers", ())
    path = facts.source.path if facts.source is not None else ""
    return included_headers(str(path), facts.get("tree").data, dict(headers)) if headers else []


class _PerKernel(PerItem):
    def of(self, kernel):
        """Agnostic, or NotAgnostic with the reason."""
        return self.answer((kernel.name, kernel.span), lambda: self._of(kernel))

    def _of(self, kernel):
        from translator.ir.block_agnostic import _SEES_THE_BLOCK, Agnostic, NotAgnostic, analyse
        from translator.ir.implicit import hazard
        found = analyse(self.facts.get("tree"), kernel)
        if isinstance(found, Agnostic):
            implicit = self.answer("implicit", lambda: hazard(
                self.facts.get("tree"), self.facts.get("macros"), local_headers(self.facts), _SEES_THE_BLOCK))
            if implicit is not None:
                return NotAgnostic(kernel.name, implicit)
        return found


@register
class BlockAgnostic(Fact):
    name = "block-agnostic"
    requires = ("tree", "call-graph", "macros")

    @classmethod
    def compute(cls, facts):
        return _PerKernel(facts, cls)
