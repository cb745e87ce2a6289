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

from translator.frontend import ParsedFile
from translator.ir.host import find_sync_points
from translator.ir.kernels import find_kernels
from translator.ir.launches import find_launches
from translator.ir.model import (SYNC_POINTS, WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Access, ApiUse, Expr,
                                 Kernel, LaunchSite, Module, Param, SharedDecl, Span, SyncPoint)
from translator.ir.nodes import call_of

__all__ = ["SYNC_POINTS", "WARP_MASKLESS_BUILTINS", "WARP_SYNC_BUILTINS", "Access", "ApiUse", "Expr", "Kernel",
           "LaunchSite", "Module", "Param", "SharedDecl", "Span", "SyncPoint", "build_ir", "call_of"]


def build_ir(path: str, parsed: ParsedFile, uses: list = ()) -> Module:
    """The Module of one parsed file. `uses` are translator.scan.Use (API uses with their nodes)."""
    has_launch = b"<<<" in parsed.cleaned     # one scan of the file, not one per fragment
    kernels, launches, syncs = [], [], []
    for frag in parsed.fragments:
        kernels += find_kernels(parsed, frag)
        if has_launch:
            launches += find_launches(parsed, frag)
        syncs += find_sync_points(parsed, frag)
    return Module(path, tuple(sorted(kernels, key=lambda k: k.span)), tuple(sorted(launches, key=lambda s: s.span)),
                  tuple(u.api for u in uses), tuple(sorted(syncs, key=lambda s: s.span)))
