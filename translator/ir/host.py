"""Host synchronization points: calls of the SYNC_POINTS functions (CUDA or HIP names)."""

from __future__ import annotations

from translator.frontend import Fragment, ParsedFile
from translator.ir.model import SYNC_POINTS, SyncPoint
from translator.ir.nodes import call_of, enclosing_function, owned_hits

# The CUDA names and their HIP counterparts (a second run sees HIP code).
_SYNC_NAMES = frozenset({n.encode() for n in SYNC_POINTS} | {
    ("hip" + n[4:] if n.startswith("cuda") else "hip" + n[2:]).encode() for n in SYNC_POINTS})


def find_sync_points(parsed: ParsedFile, frag: Fragment) -> list[SyncPoint]:
    """The calls the fragment answers for: a word pattern of the names (from the file's
    words), each hit confirmed as the called identifier, with its enclosing function."""
    out = []
    pattern = parsed.word_pattern(_SYNC_NAMES)
    if pattern is None:
        return out
    for match, node in owned_hits(parsed, frag, pattern):
        if match.group() not in _SYNC_NAMES:
            continue
        call = call_of(node, frag) if node.type == "identifier" else None
        if call is not None:
            out.append(SyncPoint(match.group().decode(), frag.span(call), enclosing_function(parsed, frag, call)))
    return out
