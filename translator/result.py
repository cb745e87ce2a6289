"""A file's translation, as the commands, the cache and the statistics read it (apart from
translator.pipeline, which makes it, so that a run answered from the cache imports no
part of the translator that a translation needs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from translator import diagnostics as dg
from translator.catalog import ERROR
from translator.edits import Fix


@dataclass(frozen=True)
class ApiUse:
    """A use of a CUDA API in the input (translator.scan finds them; the IR's, which
    re-exports it, translator.ir.model)."""
    name: str
    kind: str                  # function, type, constant, device_function, device_type, header, namespace
    library: str
    span: tuple[int, int]      # the bytes [start, end) of the input
    in_macro: bool
    in_preprocessor: bool      # inside a #if condition or similar directive


@dataclass
class Result:
    path: str
    input: bytes
    output: bytes
    applied: list[Fix] = field(default_factory=list)     # in the input's offsets
    rejected: list[Fix] = field(default_factory=list)
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    # The input's API uses (plain data: results cross processes and the cache); None when
    # the file was not analysed (skipped, or a build file). The rest of the input's IR is
    # built only where a pass reads it; translator.ir.module_of builds it whole.
    api_uses: tuple | None = None
    seconds: float = 0.0
    skipped: bool = False      # not translated (binary, too large...): output == input
    rounds: int = 0

    @property
    def changed(self) -> bool:
        return self.output != self.input

    @property
    def uses(self) -> tuple:
        """ApiUse, in source order."""
        return self.api_uses or ()

    @property
    def errors(self) -> int:
        return sum(d.severity == ERROR for d in self.diagnostics)
