"""What a run reads of each file's text before translating it, once a file: a small
summary (`Scan`) that depends on the file's bytes alone.

The workspace (translator.workspace), the local headers and the launch universe
(translator.universe) each read a file's text for a part of it: its qualifier macros,
the CUDA-shaped names it declares, its local includes and its kernels. A file's `Scan`
holds all four, made where its bytes are read: in the parent for a run of one worker,
in the run's pool of workers otherwise (translator.pool), which sends the bytes and the
summary back. The parent merges the summaries (the tree's qualifier macros are every
file's verdicts and-ed together, as `QualifierMacros.add` of each text would give: an
and is the same in any order), so its own work is the walk and the merge.

Nothing in a `Scan` depends on another file: the tree's qualifier macros feed only the
parses (the launch facts and the translation), never a scan's regular expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from translator.cudanames import declared_names
from translator.inputs import read_regular
from translator.macrotext import QualifierMacros

_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


@dataclass(frozen=True)
class Scan:
    """What a file's text says, read once. `macros` and `declared` are None where the run
    does not need them of this file (a build file has no C preprocessor; the project's
    files beyond the inputs feed only the headers and the launch universe)."""
    includes: tuple[str, ...]                   # `#include "x"` names, as written, in order
    kernels: object                             # translator.universe.Kernels
    macros: dict[bytes, bool] | None = None     # QualifierMacros' verdicts of this file alone
    declared: frozenset[bytes] | None = None    # translator.cudanames.declared_names


def scan(data: bytes, macros: bool = True, names: bool = True) -> Scan:
    """`data`'s Scan; `macros`: with its qualifier-macro verdicts, `names`: with the
    CUDA-shaped names it declares."""
    from translator.universe import kernels_of
    includes = includes_of(data)
    verdicts = None
    if macros:
        collector = QualifierMacros()
        collector.add(data)
        verdicts = collector.verdicts()
    return Scan(includes, kernels_of(data), verdicts, frozenset(declared_names(data)) if names else None)


def includes_of(data: bytes) -> tuple[str, ...]:
    """The names of `data`'s local includes (`#include "x.h"`), as written, in order."""
    if b"include" not in data:
        return ()
    return tuple(m.group(1).decode("utf-8", "replace") for m in _LOCAL_INCLUDE.finditer(data))


def read_and_scan(path: str, macros: bool = True, names: bool = True) -> tuple[bytes, Scan] | None:
    """A task of the pool: the bytes of `path` and their Scan, or None where it cannot be
    read (the reader that needs it reads it again, and reports the error itself)."""
    try:
        data = read_regular(path)
    except OSError:
        return None
    return data, scan(data, macros, names)


class Scans:
    """The Scans of a run, by real path, each with the bytes it is of: a reader asks for the
    Scan of the bytes it holds (`of`), made now where those are not the bytes scanned."""

    def __init__(self) -> None:
        self.known: dict[Path, tuple[bytes, Scan]] = {}

    def keep(self, real: Path, data: bytes, found: Scan) -> None:
        self.known[real] = (data, found)

    def includes(self, real: Path, data: bytes) -> tuple[str, ...]:
        """The local includes of `data`, the bytes of `real`."""
        known = self.known.get(real)
        if known is not None and known[0] is data:
            return known[1].includes
        return includes_of(data)

    def kernels(self, real: Path, data: bytes):
        """The kernels of `data`, the bytes of `real` (translator.universe.kernels_of)."""
        known = self.known.get(real)
        if known is not None and known[0] is data:
            return known[1].kernels
        from translator.universe import kernels_of
        return kernels_of(data)

    def project_file(self, path: Path, real: Path) -> tuple[bytes, Scan] | None:
        """A project file's bytes and Scan (read now where it was not: a file of the
        project that the run does not translate), None where it cannot be read."""
        known = self.known.get(real)
        if known is not None:
            return known
        got = read_and_scan(str(path), macros=False, names=False)
        if got is not None:
            self.known[real] = got
        return got
