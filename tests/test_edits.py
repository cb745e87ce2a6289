"""Tests for translator.edits: Edit, Fix and apply_fixes.

apply_fixes is the only place text changes: it must apply a Fix whole or not at all,
keep insertion order at one point, and copy every byte outside accepted edits verbatim.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from translator.edits import SAFE, SEMANTIC, Edit, Fix, apply_fixes, compose, replace


def fix(*edits: tuple[int, int, bytes], rule: str = "T000", reason: str = "test") -> Fix:
    return Fix(tuple(Edit(s, e, t) for s, e, t in edits), rule, reason)


# --- Edit and Fix -------------------------------------------------------------

@pytest.mark.parametrize("start, end", [(-1, 0), (5, 4), (-3, -1)], ids=["negative", "reversed", "both-negative"])
def test_edit_rejects_bad_range(start, end):
    with pytest.raises(ValueError, match="bad edit range"):
        Edit(start, end, b"x")


def test_edit_allows_empty_range_at_zero():
    assert Edit(0, 0, b"x") == Edit(0, 0, b"x")


def test_replace_encodes_str_and_keeps_bytes():
    a = replace(2, 4, "hé", "H001", "why")
    assert a.edits == (Edit(2, 4, "hé".encode()),)
    assert (a.rule, a.reason, a.safety) == ("H001", "why", SAFE)
    b = replace(1, 1, b"\xff", "W201", "r", SEMANTIC)
    assert b.edits == (Edit(1, 1, b"\xff"),)
    assert b.safety == SEMANTIC


def test_fix_start_is_smallest_edit_start():
    assert fix((7, 9, b""), (3, 3, b"x"), (5, 6, b"y")).start == 3


# --- apply_fixes: basics -------------------------------------------------------

def test_no_fixes_returns_input_unchanged():
    data = b"int main() {}\n"
    out, applied, rejected = apply_fixes(data, [])
    assert (out, applied, rejected) == (data, [], [])


def test_keeps_untouched_bytes():
    data = b"cudaMalloc(&p, n); // cudaMalloc\n"
    f = fix((0, 10, b"hipMalloc"))
    out, applied, rejected = apply_fixes(data, [f])
    assert out == b"hipMalloc(&p, n); // cudaMalloc\n"
    assert applied == [f]
    assert rejected == []


def test_fixes_given_out_of_order_are_sorted():
    data = b"aaa bbb ccc"
    f3 = fix((8, 11, b"C"))
    f1 = fix((0, 3, b"A"))
    f2 = fix((4, 7, b"B"))
    out, applied, rejected = apply_fixes(data, [f3, f1, f2])
    assert out == b"A B C"
    assert applied == [f3, f1, f2]      # reported in the order they were accepted
    assert rejected == []


def test_edits_inside_one_fix_out_of_order():
    data = b"0123456789"
    f = fix((8, 9, b"<8>"), (1, 2, b"<1>"), (4, 4, b"^"))
    out, applied, _ = apply_fixes(data, [f])
    assert out == b"0<1>23^4567<8>9"
    assert applied == [f]


def test_deletion_and_growth():
    data = b"abcdef"
    out, _, _ = apply_fixes(data, [fix((1, 3, b"")), fix((4, 5, b"XXXXX"))])
    assert out == b"adXXXXXf"


def test_insertion_at_start_and_at_end_of_data():
    data = b"body"
    out, applied, rejected = apply_fixes(data, [fix((4, 4, b"!")), fix((0, 0, b"#"))])
    assert out == b"#body!"
    assert rejected == []


def test_whole_file_replacement():
    out, _, _ = apply_fixes(b"old", [fix((0, 3, b"new"))])
    assert out == b"new"


# --- overlaps -----------------------------------------------------------------

def test_overlapping_fix_rejected_whole_and_reported():
    data = b"cudaMemcpyToSymbol(sym, h, n);"
    first = fix((0, 18, b"hipMemcpyToSymbol"), reason="rename")
    # Its second edit (at 19) is fine alone, its first one overlaps `first`:
    # neither may be applied.
    second = fix((10, 18, b"XX"), (19, 19, b"HIP_SYMBOL("), reason="clashes")
    out, applied, rejected = apply_fixes(data, [first, second])
    assert out == b"hipMemcpyToSymbol(sym, h, n);"
    assert applied == [first]
    assert rejected == [second]


def test_first_accepted_wins_regardless_of_position():
    data = b"0123456789"
    late = fix((5, 8, b"L"))
    early = fix((2, 6, b"E"))
    out, applied, rejected = apply_fixes(data, [late, early])
    assert out == b"01234L89"
    assert applied == [late]
    assert rejected == [early]


def test_rejected_fix_does_not_block_later_fixes():
    data = b"0123456789"
    a = fix((0, 2, b"A"))
    b = fix((1, 4, b"B"), (6, 7, b"b"))    # rejected: clashes with a
    c = fix((6, 7, b"C"))                  # would clash with b's second edit, but b is out
    out, applied, rejected = apply_fixes(data, [a, b, c])
    assert out == b"A2345C789"
    assert applied == [a, c]
    assert rejected == [b]


@pytest.mark.parametrize("first, second, clash", [
    ((2, 5), (5, 8), False),    # touching replacements
    ((5, 8), (2, 5), False),
    ((2, 5), (4, 8), True),     # one shared byte
    ((2, 8), (3, 4), True),     # contained
    ((3, 4), (2, 8), True),     # containing
    ((2, 5), (2, 5), True),     # identical
    ((2, 5), (0, 2), False),
], ids=["touch-right", "touch-left", "share-one", "contained", "containing", "identical", "disjoint"])
def test_replacement_pairs(first, second, clash):
    data = b"0123456789"
    a, b = fix((*first, b"a")), fix((*second, b"b"))
    _, applied, rejected = apply_fixes(data, [a, b])
    assert applied == ([a] if clash else [a, b])
    assert rejected == ([b] if clash else [])


# --- insertions ---------------------------------------------------------------

def test_insertions_at_same_point_keep_acceptance_order():
    data = b"ab"
    fixes = [fix((1, 1, b"1")), fix((1, 1, b"2")), fix((1, 1, b"3"))]
    out, applied, rejected = apply_fixes(data, fixes)
    assert out == b"a123b"
    assert applied == fixes and rejected == []
    out, _, _ = apply_fixes(data, list(reversed(fixes)))
    assert out == b"a321b"


def test_insertions_at_same_point_in_one_fix_keep_listed_order():
    out, _, rejected = apply_fixes(b"ab", [fix((1, 1, b"x"), (1, 1, b"y"))])
    assert out == b"axyb"
    assert rejected == []


@pytest.mark.parametrize("order", ["replacement-first", "insertion-first"])
def test_insertion_strictly_inside_replacement_clashes(order):
    data = b"0123456789"
    rep = fix((2, 6, b"R"))
    ins = fix((4, 4, b"I"))
    fixes = [rep, ins] if order == "replacement-first" else [ins, rep]
    out, applied, rejected = apply_fixes(data, fixes)
    assert applied == fixes[:1]
    assert rejected == fixes[1:]
    assert out == (b"01R6789" if order == "replacement-first" else b"0123I456789")


@pytest.mark.parametrize("order", ["replacement-first", "insertion-first"])
def test_insertion_at_replacement_start_goes_before_it(order):
    data = b"0123456789"
    rep = fix((2, 6, b"R"))
    ins = fix((2, 2, b"I"))
    fixes = [rep, ins] if order == "replacement-first" else [ins, rep]
    out, applied, rejected = apply_fixes(data, fixes)
    assert rejected == []
    assert applied == fixes
    assert out == b"01IR6789"


@pytest.mark.parametrize("order", ["replacement-first", "insertion-first"])
def test_insertion_at_replacement_end_goes_after_it(order):
    data = b"0123456789"
    rep = fix((2, 6, b"R"))
    ins = fix((6, 6, b"I"))
    fixes = [rep, ins] if order == "replacement-first" else [ins, rep]
    out, applied, rejected = apply_fixes(data, fixes)
    assert rejected == []
    assert out == b"01RI6789"


def test_wrapping_insertions_around_a_rename():
    # The HIP_SYMBOL(...) shape: two insertions at the boundaries of a renamed span.
    data = b"f(sym, h);"
    rename = fix((2, 5, b"s2"))
    wrap = fix((2, 2, b"HIP_SYMBOL("), (5, 5, b")"))
    out, applied, rejected = apply_fixes(data, [rename, wrap])
    assert out == b"f(HIP_SYMBOL(s2), h);"
    assert rejected == []


# --- fixes that clash with themselves, out of range ------------------------------

@pytest.mark.parametrize("edits", [
    ((1, 4, b"a"), (3, 6, b"b")),
    ((1, 6, b"a"), (3, 3, b"b")),
    ((3, 3, b"b"), (1, 6, b"a")),
    ((2, 4, b"a"), (2, 4, b"b")),
], ids=["overlap", "insertion-inside", "insertion-inside-listed-first", "identical"])
def test_self_clashing_fix_rejected(edits):
    data = b"0123456789"
    bad = fix(*edits)
    good = fix((8, 9, b"G"))
    out, applied, rejected = apply_fixes(data, [bad, good])
    assert out == b"01234567G9"
    assert applied == [good]
    assert rejected == [bad]


@pytest.mark.parametrize("edits", [
    ((5, 11, b"x"),),
    ((11, 11, b"x"),),
    ((0, 1, b"ok"), (9, 12, b"x")),
], ids=["end-past", "insertion-past", "second-edit-past"])
def test_out_of_range_edit_rejects_the_fix(edits):
    data = b"0123456789"
    bad = fix(*edits)
    out, applied, rejected = apply_fixes(data, [bad])
    assert out == data
    assert applied == []
    assert rejected == [bad]


def test_edit_ending_exactly_at_end_is_accepted():
    out, _, rejected = apply_fixes(b"0123456789", [fix((8, 10, b"X")), fix((10, 10, b"!"))])
    assert out == b"01234567X!"
    assert rejected == []


# --- whitespace and newlines ----------------------------------------------------

def test_crlf_tabs_and_trailing_bytes_preserved():
    data = b"\tcudaFree(p);\r\n\t\tcudaMalloc(&p, n);\r\n  \t\r\n// end"
    f1 = fix((1, 9, b"hipFree"))
    f2 = fix((17, 27, b"hipMalloc"))
    out, applied, _ = apply_fixes(data, [f2, f1])
    assert data[1:9] == b"cudaFree" and data[17:27] == b"cudaMalloc"
    assert out == b"\thipFree(p);\r\n\t\thipMalloc(&p, n);\r\n  \t\r\n// end"
    assert applied == [f2, f1]


def test_non_utf8_bytes_outside_edits_preserved():
    data = b"/* caf\xe9 */ cudaFree(p);\xff"
    assert data[11:19] == b"cudaFree"
    out, _, _ = apply_fixes(data, [fix((11, 19, b"hipFree"))])
    assert out == b"/* caf\xe9 */ hipFree(p);\xff"


# --- properties -------------------------------------------------------------------

@st.composite
def non_clashing_edits(draw):
    """Data plus a list of edits (in acceptance order) that never clash: disjoint
    replacements and insertions at points not strictly inside any replacement."""
    data = draw(st.binary(min_size=0, max_size=40))
    n = len(data)
    points = sorted(set(draw(st.lists(st.integers(0, n), max_size=12))))
    replacements = []
    i = 0
    while i + 1 < len(points):
        if draw(st.booleans()):
            replacements.append((points[i], points[i + 1]))
            i += 2
        else:
            i += 1
    inside = {p for s, e in replacements for p in range(s + 1, e)}
    free_points = [p for p in range(n + 1) if p not in inside]
    insertions = draw(st.lists(st.sampled_from(free_points), max_size=6))
    edits = [Edit(s, e, draw(st.binary(max_size=5))) for s, e in replacements]
    edits += [Edit(p, p, draw(st.binary(min_size=1, max_size=3))) for p in insertions]
    edits = draw(st.permutations(edits))
    return data, edits


def reference_splice(data: bytes, edits: list[Edit]) -> bytes:
    """What applying non-clashing edits must give: at each point, insertions (in the
    order given) before the replacement that starts there."""
    order = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].start != edits[i].end, i))
    out, pos = b"", 0
    for i in order:
        e = edits[i]
        out += data[pos:e.start] + e.text
        pos = e.end
    return out + data[pos:]


@settings(max_examples=300, deadline=None)
@given(non_clashing_edits(), st.data())
def test_property_matches_reference_splice(case, chunks):
    data, edits = case
    # Group consecutive edits into fixes of random sizes: grouping must not matter.
    fixes, i = [], 0
    while i < len(edits):
        k = chunks.draw(st.integers(1, 3))
        fixes.append(Fix(tuple(edits[i:i + k]), "T000", f"group {i}"))
        i += k
    out, applied, rejected = apply_fixes(data, fixes)
    assert rejected == []
    assert applied == fixes
    assert out == reference_splice(data, edits)


@settings(max_examples=300, deadline=None)
@given(non_clashing_edits())
def test_property_bytes_outside_edits_preserved(case):
    data, edits = case
    out, _, _ = apply_fixes(data, [Fix((e,), "T000", "r") for e in edits])
    # Walk the output: every gap between edits appears verbatim, in order.
    pos_out = 0
    pos_in = 0
    for e in sorted(edits, key=lambda e: (e.start, e.start != e.end)):
        gap = data[pos_in:e.start]
        assert out[pos_out:pos_out + len(gap)] == gap
        pos_out += len(gap) + len(e.text)
        pos_in = e.end
    assert out[pos_out:] == data[pos_in:]
    assert len(out) == len(data) + sum(len(e.text) - (e.end - e.start) for e in edits)


def _clash(a: Edit, b: Edit) -> bool:
    """Independent statement of the rule: replacements clash when they share a byte;
    an insertion clashes with a replacement strictly containing its point."""
    a_bytes, b_bytes = set(range(a.start, a.end)), set(range(b.start, b.end))
    if a_bytes and b_bytes:
        return bool(a_bytes & b_bytes)
    if not a_bytes and not b_bytes:
        return False
    point, rep = (a.start, b) if not a_bytes else (b.start, a)
    return rep.start < point < rep.end


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=0, max_size=20), st.data())
def test_property_greedy_acceptance(data, draw):
    n = len(data)
    raw = draw.draw(st.lists(st.lists(st.tuples(st.integers(0, n + 2), st.integers(0, 4)), min_size=1, max_size=3),
                             max_size=8))
    fixes = [Fix(tuple(Edit(s, s + w, b"<%d>" % j) for s, w in group), "T000", str(j))
             for j, group in enumerate(raw)]
    out, applied, rejected = apply_fixes(data, fixes)
    expected_applied, accepted_edits = [], []
    for f in fixes:
        ok = all(e.end <= n for e in f.edits)
        ok = ok and not any(_clash(a, b) for i, a in enumerate(f.edits) for b in f.edits[i + 1:])
        ok = ok and not any(_clash(a, b) for a in f.edits for b in accepted_edits)
        if ok:
            expected_applied.append(f)
            accepted_edits += f.edits
    assert applied == expected_applied
    assert rejected == [f for f in fixes if f not in expected_applied]
    assert out == reference_splice(data, accepted_edits)


# --- compose: several rounds of fixes, reported in the input's offsets ---------------------

@st.composite
def _fixes_on(draw, text: bytes) -> list[Fix]:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        a = draw(st.integers(0, len(text)))
        b = draw(st.integers(a, min(len(text), a + 4)))
        out.append(fix((a, b, draw(st.binary(max_size=4)))))
    return out


@settings(max_examples=2000, deadline=None)
@given(st.data())
def test_composed_fixes_apply_like_the_rounds(data) -> None:
    old = data.draw(st.binary(max_size=12))
    mid, first, _ = apply_fixes(old, data.draw(_fixes_on(old)))
    new, second, _ = apply_fixes(mid, data.draw(_fixes_on(mid)))
    composed = compose(old, first, second)
    got, _, refused = apply_fixes(old, composed)
    assert refused == [] and got == new


def test_compose_merges_an_edit_of_new_text_into_the_fix_that_made_it() -> None:
    old = b"a cudaX b"
    mid, first, _ = apply_fixes(old, [fix((2, 7, b"k<<<1>>>()"), rule="F001", reason="fused")])
    assert mid == b"a k<<<1>>>() b"
    _, second, _ = apply_fixes(mid, [fix((3, 6, b"(, "), rule="H003", reason="launch syntax")])
    [merged] = compose(old, first, second)
    assert merged.edits == (Edit(2, 7, b"k(, 1>>>()"),)
    assert (merged.rule, merged.reason) == ("F001", "fused; then launch syntax")
    # An edit of untouched text maps to the input's offsets as it is.
    _, third, _ = apply_fixes(mid, [fix((13, 14, b"c"))])
    assert compose(old, first, third)[1].edits == (Edit(8, 9, b"c"),)
