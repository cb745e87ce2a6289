"""The fact "aliases": per launching function, what it does with its pointers
(translator.ir.statements.Pointers, read with `.of(function_span)`): which names are
distinct allocations, every use of each name, and why a name may alias another or be
read where its uses do not show.

What it proves: `distinct(a, b)` is Known(True) only for a local set by one allocation of
the function against a parameter or another such local, or two `__restrict__`
parameters, none of them changed since; a pointer into such a local at an offset
(`&x[off]`, `x+off`, the offset host arithmetic) is that local, except against another
pointer into it; `read_elsewhere(name)` is None only when every
read of the name is one of its uses in the function. What makes it answer unknown
(with the reason): a name that is not a plain name (pointer arithmetic on anything but
such a local, a call in the offset, two offsets into one local, a member, a
macro's expansion), assigned, its address taken, bound to a non-const reference
(`float*& r = z; r = y + 1;`), passed to a function or macro that may take it by
reference (an unknown function, a file function with a reference parameter there), named
by a macro of the file (`#define RESULT y`), or a call of a macro the file does not
define.
"""

from __future__ import annotations

from translator.facts import Fact, PerItem, register


class _PerFunction(PerItem):
    def __init__(self, facts, fact):
        from translator.ir.statements import parameter_shapes
        super().__init__(facts, fact)
        self.parsed = facts.get("tree")
        self._shapes = None
        self._parameter_shapes = parameter_shapes

    def of(self, function_span):
        """The Pointers of the function definition at that span."""
        from translator.ir.statements import Pointers, pointers
        if function_span is None:
            return Pointers(frozenset(), frozenset(), frozenset(), frozenset(), {})
        if self._shapes is None:
            self._shapes = self._parameter_shapes(self.parsed)
        return self.answer(function_span, lambda: pointers(self.parsed, function_span, self._shapes))


@register
class Aliases(Fact):
    name = "aliases"
    requires = ("tree", "macros")

    @classmethod
    def compute(cls, facts):
        return _PerFunction(facts, cls)
