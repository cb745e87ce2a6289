"""Pass registry and the context every pass reads.

A pass is a function `run(ctx) -> None` that appends Fixes and Diagnostics to the
context; it never edits text. Passes register with a stable id (the id appears in
diagnostics, diffs and suppression comments) and the targets they run for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from translator import diagnostics as dg
from translator.edits import Fix
from translator.frontend import ParsedFile
from translator.ir import Module
from translator.mapping import MappingTables, Version
from translator.source import SourceFile

DEFAULT_ROCM_VERSION: Version = (5, 2, 3)   # Debian 12's hipcc, when none is installed


@dataclass(frozen=True)
class Options:
    target: str = "hip"                     # "hip" or "cuda"
    rocm_version: Version = DEFAULT_ROCM_VERSION
    roc: bool = False                       # map BLAS/RAND/SPARSE/SOLVER to roc* libraries
    miopen: bool = False                    # map cuDNN to MIOpen
    experimental: bool = False              # translate APIs HIP marks experimental
    use_hip_data_types: bool = False
    hip_kernel_execution_syntax: bool = False
    # Object-like macros that the whole tree defines only as qualifiers or as nothing
    # (collected by the command over every file it translates; see frontend.preclean).
    qualifier_macros: frozenset[bytes] = frozenset()


@dataclass
class Context:
    source: SourceFile
    parsed: ParsedFile
    module: Module
    uses: list                              # translator.scan.Use, in source order
    options: Options
    tables: MappingTables
    fixes: list[Fix] = field(default_factory=list)
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    runtime_header_included: bool = False   # set by the hipify pass's header mapping

    def report(self, offset: int, severity: str, message: str, code: str) -> None:
        self.diagnostics.append(dg.at(self.source, offset, severity, message, code))


@dataclass(frozen=True)
class PassInfo:
    id: str
    name: str
    run: Callable[[Context], None]
    targets: tuple[str, ...]


PASSES: dict[str, PassInfo] = {}


def register(pass_id: str, name: str, targets: tuple[str, ...] = ("hip",)):
    def decorate(run: Callable[[Context], None]) -> Callable[[Context], None]:
        if pass_id in PASSES:
            raise ValueError(f"pass id {pass_id} registered twice")
        PASSES[pass_id] = PassInfo(pass_id, name, run, targets)
        return run
    return decorate


def passes_for(target: str) -> list[PassInfo]:
    from translator.passes import hipify  # noqa: F401  (registers itself)
    return [p for p in PASSES.values() if target in p.targets]
