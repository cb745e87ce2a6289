"""Edits as data and the one function that applies them.

A pass never touches text: it returns Fixes, each a group of byte-range Edits with the
rule id (translator.catalog) and a reason. `apply_fixes` applies a Fix whole or not at all, and copies every
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
    rule: str
    reason: str
    safety: str = SAFE

    @property
    def start(self) -> int:
        return min(e.start for e in self.edits)


def replace(start: int, end: int, text: str | bytes, rule: str, reason: str,
            safety: str = SAFE) -> Fix:
    data = text.encode() if isinstance(text, str) else text
    return Fix((Edit(start, end, data),), rule, reason, safety)


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


class OffsetMap:
    """Offsets of the text that `applied` fixes produced, mapped back to the text before."""

    def __init__(self, applied: list[Fix]):
        self.edits = sorted((e for f in applied for e in f.edits), key=lambda e: (e.start, e.end))
        self.starts, self.ends, self.shifts = [], [], []   # per edit: its new text's range, shift after it
        shift = 0
        for e in self.edits:
            self.starts.append(e.start + shift)
            self.ends.append(e.start + shift + len(e.text))
            shift += len(e.text) - (e.end - e.start)
            self.shifts.append(shift)

    def to_old(self, offset: int, end: bool = False) -> int:
        """Where an offset of the new text was in the old one. Inside an edit's new text it
        maps to the edit's start, or with `end` (an exclusive end) to the edit's end."""
        i = bisect.bisect_right(self.starts, offset - 1 if end else offset) - 1
        if i < 0:
            return offset
        if offset < self.ends[i] or (end and offset == self.ends[i] and self.starts[i] < offset):
            return self.edits[i].end if end else self.edits[i].start
        return offset - self.shifts[i]

    def touching(self, start: int, end: int) -> list[int]:
        """The edits whose new text a later edit of [start, end) would change or split."""
        lo = bisect.bisect_right(self.ends, start) - 1
        out = []
        for i in range(max(lo, 0), len(self.edits)):
            s, e = self.starts[i], self.ends[i]
            if s > end:
                break
            if (s < end and start < e) if start < end else (s <= start <= e and s < e):
                out.append(i)
            elif s == e and start < s < end:    # a deletion inside the later edit
                out.append(i)
        return out


def compose(old: bytes, first: list[Fix], second: list[Fix]) -> list[Fix]:
    """Fixes on `old` equal to applying `first`, then `second` (whose offsets are those of
    the text `first` produced). Where fixes of `second` change new text of `first`, the
    edits involved become one edit over their joint span, under the earliest fix's rule
    and with every reason. (Used to report, in the input's terms, what rounds did.)"""
    if not second:
        return list(first)
    omap = OffsetMap(first)
    new = apply_fixes(old, first)[0]
    fix_of = {id(e): k for k, f in enumerate(first) for e in f.edits}
    # Groups: a second fix with the first edits it touches, grown until the joint span
    # takes in no further first edit or second fix.
    groups: list[tuple[set[int], set[int]]] = []        # (first edit indices, second fix indices)
    for j, fix in enumerate(second):
        touched = {i for e in fix.edits for i in omap.touching(e.start, e.end)}
        if touched:
            groups.append((touched, {j}))
    changed = True
    while changed:
        changed = False
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                (a_lo, a_hi), (b_lo, b_hi) = _span(omap, second, groups[a]), _span(omap, second, groups[b])
                if groups[a][0] & groups[b][0] or groups[a][1] & groups[b][1] or (a_lo < b_hi and b_lo < a_hi):
                    groups[a] = (groups[a][0] | groups[b][0], groups[a][1] | groups[b][1])
                    del groups[b]
                    changed = True
                    break
            if changed:
                break
        for g in groups:
            lo, hi = _span(omap, second, g)
            inside = {i for i in range(len(omap.edits)) if lo < omap.ends[i] and omap.starts[i] < hi} - g[0]
            within = {j for j, fix in enumerate(second) if j not in g[1] and any(
                lo < e.end and e.start < hi or lo < e.start < hi for e in fix.edits)}
            if inside or within:
                g[0].update(inside)
                g[1].update(within)
                changed = True
    grouped = {j for _, js in groups for j in js}
    kept = [list(f.edits) for f in first]
    reasons = [[f.reason] for f in first]
    for firsts, seconds in groups:
        lo, hi = _span(omap, second, (firsts, seconds))
        edits = tuple(Edit(e.start - lo, e.end - lo, e.text) for j in sorted(seconds) for e in second[j].edits)
        text = apply_fixes(new[lo:hi], [Fix(edits, "", "")])[0]
        old_lo = min([omap.edits[i].start for i in firsts] + [omap.to_old(lo)])
        old_hi = max([omap.edits[i].end for i in firsts] + [omap.to_old(hi, True)])
        owners = sorted({fix_of[id(omap.edits[i])] for i in firsts})
        for i in firsts:
            kept[fix_of[id(omap.edits[i])]].remove(omap.edits[i])
        kept[owners[0]].append(Edit(old_lo, old_hi, text))
        reasons[owners[0]] += [second[j].reason for j in sorted(seconds)]
    out = [Fix(tuple(sorted(edits, key=lambda e: (e.start, e.end))), f.rule, "; then ".join(why), f.safety)
           for f, edits, why in zip(first, kept, reasons) if edits]
    for j, fix in enumerate(second):
        if j not in grouped:
            out.append(Fix(tuple(Edit(omap.to_old(e.start), max(omap.to_old(e.start), omap.to_old(e.end, True)),
                                      e.text) for e in fix.edits), fix.rule, fix.reason, fix.safety))
    return out


def _span(omap: OffsetMap, second: list[Fix], group) -> tuple[int, int]:
    """The joint span, in the intermediate text, of a group's first edits and second fixes."""
    firsts, seconds = group
    starts = [omap.starts[i] for i in firsts] + [e.start for j in seconds for e in second[j].edits]
    ends = [omap.ends[i] for i in firsts] + [e.end for j in seconds for e in second[j].edits]
    return min(starts), max(ends)
