"""Edits as data and the one function that applies them.

A pass never touches text: it returns Fixes, each a group of byte-range Edits with the
pass id and a reason. `apply_fixes` applies a Fix whole or not at all, and copies every
byte outside the accepted edits verbatim.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

SAFE = "safe"          # meaning-preserving by construction (a rename from the tables)
SEMANTIC = "semantic"  # relies on an analysis being right


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: bytes

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"bad edit range {self.start}..{self.end}")


@dataclass(frozen=True)
class Fix:
    edits: tuple[Edit, ...]
    pass_id: str
    reason: str
    safety: str = SAFE

    @property
    def start(self) -> int:
        return min(e.start for e in self.edits)


def replace(start: int, end: int, text: str | bytes, pass_id: str, reason: str,
            safety: str = SAFE) -> Fix:
    data = text.encode() if isinstance(text, str) else text
    return Fix((Edit(start, end, data),), pass_id, reason, safety)


def _clash(a: Edit, b: Edit) -> bool:
    """Two replacements clash when they share a byte; an insertion (empty range) clashes
    with a replacement that strictly contains its point. Insertions at one point never
    clash: they are applied in the order they were accepted."""
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def apply_fixes(data: bytes, fixes: list[Fix]) -> tuple[bytes, list[Fix], list[Fix]]:
    """Apply fixes in the order given; a fix that clashes with an accepted one (or with
    itself) is rejected whole. Returns (new bytes, applied fixes, rejected fixes)."""
    accepted: list[tuple[int, int, int, Edit]] = []  # (start, is_replacement, sequence, edit), sorted
    applied: list[Fix] = []
    rejected: list[Fix] = []
    for fix in fixes:
        edits = fix.edits
        bad = any(e.end > len(data) for e in edits) or any(
            _clash(a, b) for i, a in enumerate(edits) for b in edits[i + 1:])
        if not bad:
            for e in edits:
                # Accepted edits never clash with each other, so sorted by start their ends
                # are sorted too: only the ones just before e.end can reach into e.
                k = bisect.bisect_right(accepted, (e.end, 2))
                while k > 0 and accepted[k - 1][3].end >= e.start:
                    if _clash(e, accepted[k - 1][3]):
                        bad = True
                        break
                    k -= 1
                if bad:
                    break
        if bad:
            rejected.append(fix)
            continue
        for e in edits:
            bisect.insort(accepted, (e.start, 0 if e.start == e.end else 1, len(accepted), e))
        applied.append(fix)
    out: list[bytes] = []
    pos = 0
    for start, _, _, e in accepted:
        out.append(data[pos:start])
        out.append(e.text)
        pos = e.end
    out.append(data[pos:])
    return b"".join(out), applied, rejected
