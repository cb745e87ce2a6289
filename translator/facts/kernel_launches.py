"""The fact "kernel-launches": where each kernel of the file is launched and with which
block sizes (translator.ir.host_values.KernelLaunches): for a kernel other files can
launch (of a header, or of external linkage declared by another translation unit), the
launches of the whole project (`Options.launch_index`, translator.universe); else the
file's own.

What it proves: every launch and every other use of a kernel's name that the files of
the run hold, each with its block sizes when they are known. What makes it answer
unknown: a launch whose block size is not known (its reason is kept), or a use of the
name other than a launch (its address taken, a macro that launches it): the
launch-bounds pass bounds a kernel only when every entry is a known size.
"""

from __future__ import annotations

from translator.facts import Fact, register


@register
class KernelLaunches(Fact):
    name = "kernel-launches"
    requires = ("tree", "kernels", "launches", "host-values")

    @classmethod
    def compute(cls, facts):
        from translator.facts.module import ModuleView
        from translator.ir.host_values import KernelLaunches as Launches
        return Launches(facts.get("tree"), ModuleView(facts, facts.source.path), facts.source,
                        facts.options.launch_index, facts.get("host-values"))
