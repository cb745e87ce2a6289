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


def _clashes_within(edits: tuple[Edit, ...]) -> bool:
    """Do two of the edits clash? In (start, end) order, a clashing pair closest in that
    order is adjacent (what lies between a clashing pair clashes with its first), so the
    adjacent pairs are enough."""
    if len(edits) < 2:
        return False
    if len(edits) == 2:
        return _clash(edits[0], edits[1])
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    return any(_clash(a, b) for a, b in zip(ordered, ordered[1:]))


def apply_fixes(data: bytes, fixes: list[Fix]) -> tuple[bytes, list[Fix], list[Fix]]:
    """Apply fixes in the order given; a fix that clashes with an accepted one (or with
    itself) is rejected whole. Returns (new bytes, applied fixes, rejected fixes)."""
    # What the accepted edits hold, byte by byte: `replaced[b]` for a byte an accepted
    # replacement covers, `begins[b]` where one begins, `inserted[p]` for an accepted
    # insertion at p. A clash is then a search of the new edit's own range, whatever the
    # order the fixes come in (a list kept sorted by insertion is quadratic when they
    # come out of order, as every pass after the first makes them).
    size = len(data)
    replaced, begins, inserted = bytearray(size), bytearray(size), bytearray(size + 1)
    accepted: list[tuple[int, int, int, Edit]] = []  # (start, is_replacement, sequence, edit)
    applied: list[Fix] = []
    rejected: list[Fix] = []
    for fix in fixes:
        edits = fix.edits
        bad = any(e.end > size for e in edits) or _clashes_within(edits)
        if not bad:
            for e in edits:
                start, end = e.start, e.end
                if start == end:
                    # Inside an accepted replacement: bytes on both sides replaced, by
                    # one replacement (none of them begins at the point).
                    bad = 0 < start < size and replaced[start - 1] and replaced[start] and not begins[start]
                else:
                    bad = replaced.find(1, start, end) != -1 or inserted.find(1, start + 1, end) != -1
                if bad:
                    break
        if bad:
            rejected.append(fix)
            continue
        for e in edits:
            start, end = e.start, e.end
            if start == end:
                inserted[start] = 1
            else:
                replaced[start:end] = b"\x01" * (end - start)
                begins[start] = 1
            accepted.append((start, 0 if start == end else 1, len(accepted), e))
        applied.append(fix)
    accepted.sort()
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
    edits involved become one edit over their joint span, with every reason, under the
    earliest fix's rule; or under the later fix's when its edits replace all of the first
    fixes' new text they touch (a statement rewritten whole after an edit inside it). (Used
    to report, in the input's terms, what rounds did.)"""
    if not second:
        return list(first)
    omap = OffsetMap(first)
    new = apply_fixes(old, first)[0]
    fix_of = {id(e): k for k, f in enumerate(first) for e in f.edits}
    groups = _groups(omap, second)
    grouped = {j for _, js in groups for j in js}
    kept = [list(f.edits) for f in first]
    reasons = [[f.reason] for f in first]
    replacing: list[list[Fix]] = [[] for _ in first]     # groups a later fix owns, after the first fix
    for firsts, seconds in groups:
        lo, hi = _span(omap, second, (firsts, seconds))
        edits = tuple(Edit(e.start - lo, e.end - lo, e.text) for j in sorted(seconds) for e in second[j].edits)
        text = apply_fixes(new[lo:hi], [Fix(edits, "", "")])[0]
        old_lo = min([omap.edits[i].start for i in firsts] + [omap.to_old(lo)])
        old_hi = max([omap.edits[i].end for i in firsts] + [omap.to_old(hi, True)])
        owners = sorted({fix_of[id(omap.edits[i])] for i in firsts})
        for i in firsts:
            kept[fix_of[id(omap.edits[i])]].remove(omap.edits[i])
        if _replaces(omap, [e for j in seconds for e in second[j].edits]):
            lead = second[min(seconds)]
            why = [first[k].reason for k in owners] + [second[j].reason for j in sorted(seconds)]
            replacing[owners[0]].append(Fix((Edit(old_lo, old_hi, text),), lead.rule, "; then ".join(why),
                                            lead.safety))
            continue
        kept[owners[0]].append(Edit(old_lo, old_hi, text))
        reasons[owners[0]] += [second[j].reason for j in sorted(seconds)]
    out = []
    for f, edits, why, after in zip(first, kept, reasons, replacing):
        if edits:
            out.append(Fix(tuple(sorted(edits, key=lambda e: (e.start, e.end))), f.rule, "; then ".join(why),
                           f.safety))
        out += after
    for j, fix in enumerate(second):
        if j not in grouped:
            out.append(Fix(tuple(Edit(omap.to_old(e.start), max(omap.to_old(e.start), omap.to_old(e.end, True)),
                                      e.text) for e in fix.edits), fix.rule, fix.reason, fix.safety))
    return out


def _replaces(omap: OffsetMap, edits: list[Edit]) -> bool:
    """Whether the later `edits` replace whole every earlier edit's new text they touch."""
    spans = [(e.start, e.end) for e in edits if e.start < e.end]
    touched = {i for e in edits for i in omap.touching(e.start, e.end)}
    return bool(touched) and all(any(lo <= omap.starts[i] and omap.ends[i] <= hi for lo, hi in spans)
                                 for i in touched)


def _groups(omap: OffsetMap, second: list[Fix]) -> list[tuple[set[int], set[int]]]:
    """The groups of `compose`, each (first edit indices, second fix indices): a second fix
    with the first edits it touches, grown until its joint span takes in no further first
    edit or second fix, groups that share an edit or overlap merged; in the order of their
    earliest second fix."""
    groups: list[tuple[set[int], set[int]]] = []
    for j, fix in enumerate(second):
        touched = {i for e in fix.edits for i in omap.touching(e.start, e.end)}
        if touched:
            groups.append((touched, {j}))
    if len(groups) < 2:
        return _groups_by_pairs(omap, second, groups)
    swept = _groups_by_sweeps(omap, second, groups)
    return swept if swept is not None else _groups_by_pairs(omap, second, groups)


def _groups_by_sweeps(omap: OffsetMap, second: list[Fix], initial: list[tuple[set[int], set[int]]]) \
        -> list[tuple[set[int], set[int]]] | None:
    """`_groups_by_pairs`'s result in O(n log n) a round (a round or two in practice):
    groups sharing an edit are merged through a map of edit to group, overlapping ones by
    one sweep in span order, and what a span takes in is found by bisection, the first
    edits' and second edits' ranges being in order. The result is the same: every step
    either is forced (a merge or an absorption that any closed grouping makes) or none
    is left, so both end at the one least grouping closed under those steps. None when
    the ranges are not in order (then `_groups_by_pairs` is used)."""
    starts, ends = omap.starts, omap.ends
    if any(starts[k] > starts[k + 1] or ends[k] > ends[k + 1] for k in range(len(starts) - 1)):
        return None
    flat = sorted((e.start, e.end, j) for j, fix in enumerate(second) for e in fix.edits)
    s2, e2, j2 = [f[0] for f in flat], [f[1] for f in flat], [f[2] for f in flat]
    if any(e2[k] > e2[k + 1] for k in range(len(e2) - 1)):
        return None
    fix_lo = [min(e.start for e in fix.edits) if fix.edits else None for fix in second]
    fix_hi = [max(e.end for e in fix.edits) if fix.edits else None for fix in second]

    def hull(firsts, seconds) -> tuple[int, int]:
        los = [starts[i] for i in firsts] + [fix_lo[j] for j in seconds if fix_lo[j] is not None]
        his = [ends[i] for i in firsts] + [fix_hi[j] for j in seconds if fix_hi[j] is not None]
        return min(los), max(his)

    # A block: [first edit indices, second fix indices, lo, hi, position in the list].
    blocks = [[set(f), set(js), *hull(f, js), k] for k, (f, js) in enumerate(initial)]
    while True:
        # Groups that share an edit or a fix: one group (union-find over the blocks).
        root = list(range(len(blocks)))

        def find(x: int) -> int:
            while root[x] != x:
                root[x] = root[root[x]]
                x = root[x]
            return x
        owner_f: dict[int, int] = {}
        owner_s: dict[int, int] = {}
        for b, (firsts, seconds, _, _, _) in enumerate(blocks):
            for owner, items in ((owner_f, firsts), (owner_s, seconds)):
                for item in items:
                    other = owner.setdefault(item, b)
                    if other != b:
                        ra, rb = find(other), find(b)
                        if ra != rb:
                            root[max(ra, rb)] = min(ra, rb)
        blocks = _merged_blocks(blocks, [find(b) for b in range(len(blocks))])
        # Groups whose spans overlap: one sweep in span order; a cluster's span grows as
        # it takes groups in, and a group starting at or past its end starts the next.
        order = sorted(range(len(blocks)), key=lambda b: (blocks[b][2], blocks[b][3]))
        label = [0] * len(blocks)
        current, lo, hi = -1, 0, 0
        for b in order:
            b_lo, b_hi = blocks[b][2], blocks[b][3]
            if current >= 0 and b_lo < hi and lo < b_hi:
                label[b] = current
                hi = max(hi, b_hi)
            elif current < 0 or b_lo >= hi:
                current, lo, hi = b, b_lo, b_hi
                label[b] = b
            else:
                label[b] = b      # empty, at the cluster's start: overlaps nothing
        blocks = _merged_blocks(blocks, label)
        # What each span takes in, until it takes in nothing more.
        changed = False
        for block in blocks:
            firsts, seconds = block[0], block[1]
            while True:
                lo, hi = block[2], block[3]
                grew = False
                for i in range(bisect.bisect_right(ends, lo), bisect.bisect_left(starts, hi)):
                    if i not in firsts:
                        firsts.add(i)
                        grew = True
                for k in range(bisect.bisect_right(e2, lo), bisect.bisect_left(s2, hi)):
                    if j2[k] not in seconds:
                        seconds.add(j2[k])
                        grew = True
                if not grew:
                    break
                changed = True
                block[2], block[3] = hull(firsts, seconds)
        if not changed:
            break
    blocks.sort(key=lambda block: block[4])
    return [(block[0], block[1]) for block in blocks]


def _merged_blocks(blocks: list[list], label: list[int]) -> list[list]:
    """The blocks with the same label made one: items united, span and position the
    least and greatest."""
    out: dict[int, list] = {}
    for block, key in zip(blocks, label):
        held = out.get(key)
        if held is None:
            out[key] = [set(block[0]), set(block[1]), block[2], block[3], block[4]]
        else:
            held[0] |= block[0]
            held[1] |= block[1]
            held[2], held[3], held[4] = min(held[2], block[2]), max(held[3], block[3]), min(held[4], block[4])
    return list(out.values())


def _groups_by_pairs(omap: OffsetMap, second: list[Fix], groups: list[tuple[set[int], set[int]]]) \
        -> list[tuple[set[int], set[int]]]:
    """`_groups` the first way it was written: merge the first pair of groups that share
    an edit or overlap, absorb what lies in each group's span, again until nothing
    changes. Quadratic in the number of groups or worse; used where `_groups_by_sweeps`
    cannot be (edits whose ranges are not in order)."""
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
    return groups


def _span(omap: OffsetMap, second: list[Fix], group) -> tuple[int, int]:
    """The joint span, in the intermediate text, of a group's first edits and second fixes."""
    firsts, seconds = group
    starts = [omap.starts[i] for i in firsts] + [e.start for j in seconds for e in second[j].edits]
    ends = [omap.ends[i] for i in firsts] + [e.end for j in seconds for e in second[j].edits]
    return min(starts), max(ends)
