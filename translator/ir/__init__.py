"""The IR: kernels, launch sites, API uses and host synchronization points of one file.

Built once per file from the front end's fragments (the file and its macro bodies);
frozen dataclasses whose spans are byte ranges into the original source. The
warp-size, launch-bounds and fusion passes read this, never the tree.

model holds the dataclasses and name lists; kernels (with body), launches and host
are the analyses every pass gets; nodes the helpers they share; ancestry and lines make
the questions about a node's ancestors and an offset's line cost the same however deep
the tree and however long the line (the front end and the scan use them too).

The analyses a pass asks for, each computed on demand: calls (device code and its call
graph), warp (lane facts of device code), inline_asm (what an `asm` statement holds),
statements, elementwise and reductions (fusion), block_agnostic and grids
(rebalancing), host_values (a host expression's value, launches across files) and
registers (the report's static VGPR estimate).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The analyses are imported where they run, so importing the package costs no analysis
# (a cache hit imports none of the IR: it reads ApiUse from translator.result).
from translator.ir.model import (SYNC_POINTS, WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, ApiUse, Expr,
                                 Kernel, LaunchSite, Module, Param, SharedDecl, Span, SyncPoint)

if TYPE_CHECKING:
    from translator.frontend import ParsedFile


def __getattr__(name: str):
    if name == "call_of":
        from translator.ir.nodes import call_of
        return call_of
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["SYNC_POINTS", "WARP_MASKLESS_BUILTINS", "WARP_SYNC_BUILTINS", "ApiUse", "Expr", "Kernel",
           "LaunchSite", "Module", "Param", "SharedDecl", "Span", "SyncPoint", "build_ir", "call_of", "kernels_of",
           "launches_of", "module_of", "sync_points_of"]


def build_ir(path: str, parsed: ParsedFile, uses: list = ()) -> Module:
    """The Module of one parsed file, whole. `uses` are translator.scan.Use (API uses with
    their nodes). (The pipeline builds each part on first use instead: translator.facts.module.)"""
    return Module(path, kernels_of(parsed), launches_of(parsed), tuple(u.api for u in uses), sync_points_of(parsed))


def module_of(path: str, data: bytes, options=None) -> Module:
    """The IR of a text, whole, parsed as translate's first round parses it (for tests and
    tools: translate builds only the parts its passes read)."""
    from translator.frontend import parse_file
    from translator.mapping import load_tables
    from translator.passes import Options
    from translator.scan import mentions_api, scan_api_uses
    options = Options() if options is None else options
    tables = load_tables()
    parsed = parse_file(data, mentions_api(tables), options.qualifier_macros, defines=options.defines)
    return build_ir(path, parsed, scan_api_uses(parsed, tables))


def kernels_of(parsed: ParsedFile) -> tuple[Kernel, ...]:
    """The file's kernels, definitions and prototypes, in source order."""
    from translator.ir.kernels import find_kernels
    found = [k for frag in parsed.fragments for k in find_kernels(parsed, frag)]
    return tuple(sorted(found, key=lambda k: k.span))


def launches_of(parsed: ParsedFile) -> tuple[LaunchSite, ...]:
    """The file's launch sites, in source order."""
    if b"<<<" not in parsed.cleaned:     # one scan of the file, not one per fragment
        return ()
    from translator.ir.launches import find_launches
    found = [s for frag in parsed.fragments for s in find_launches(parsed, frag)]
    return tuple(sorted(found, key=lambda s: s.span))


def sync_points_of(parsed: ParsedFile) -> tuple[SyncPoint, ...]:
    """The file's host synchronization points, in source order."""
    from translator.ir.host import find_sync_points
    found = [s for frag in parsed.fragments for s in find_sync_points(parsed, frag)]
    return tuple(sorted(found, key=lambda s: s.span))
