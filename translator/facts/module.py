"""The IR's own facts, the ones a pass declares by string: "tree" (the front end's
ParsedFile), "uses" (the scan's API uses with their nodes), "kernels", "launches",
"api_uses" and "sync_points" (translator.ir: what translator.ir.Module holds), each
built when first read.

What they prove: the syntax the parse found, and nothing about values. They never
answer unknown; a region that does not parse holds no kernel or launch, and each
kernel and launch says whether its text is `clean` (no parse error near it), which is
what a structural rewrite checks before it acts.
"""

from __future__ import annotations

from translator import ir
from translator.facts import Fact, register
from translator.ir.model import Module


@register
class Tree(Fact):
    name = "tree"

    @classmethod
    def compute(cls, facts):
        return facts.parsed


@register
class Uses(Fact):
    name = "uses"

    @classmethod
    def compute(cls, facts):
        from translator.scan import scan_api_uses
        return scan_api_uses(facts.parsed, facts.tables)


@register
class Kernels(Fact):
    name = "kernels"

    @classmethod
    def compute(cls, facts):
        return ir.kernels_of(facts.parsed)


@register
class Launches(Fact):
    name = "launches"

    @classmethod
    def compute(cls, facts):
        return ir.launches_of(facts.parsed)


@register
class ApiUses(Fact):
    name = "api_uses"
    requires = ("uses",)

    @classmethod
    def compute(cls, facts):
        return tuple(u.api for u in facts.get("uses"))


@register
class SyncPoints(Fact):
    name = "sync_points"

    @classmethod
    def compute(cls, facts):
        return ir.sync_points_of(facts.parsed)


class ModuleView:
    """translator.ir.Module's attributes, each read from the store (so a pass's reads of
    `ctx.module.kernels` are checked against its declaration, and built on first use)."""

    def __init__(self, facts, path: str):
        self._facts, self.path = facts, path

    @property
    def kernels(self):
        return self._facts.get("kernels")

    @property
    def launches(self):
        return self._facts.get("launches")

    @property
    def api_uses(self):
        return self._facts.get("api_uses")

    @property
    def sync_points(self):
        return self._facts.get("sync_points")

    @property
    def kernels_by_name(self):
        held = self.__dict__.get("_by_name")
        if held is None:
            held = self.__dict__["_by_name"] = Module.kernels_by_name.func(self)
        return held

    def launch_sequences(self):
        return Module.launch_sequences(self)
