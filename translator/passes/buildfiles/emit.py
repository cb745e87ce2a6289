"""What the CMake and Make halves of the build-file pass share: edits with their reasons
through the context, removals that take a word's separating blank with it, and the
flag actions of translator.passes.buildfiles.flags turned into fixes and diagnostics."""

from __future__ import annotations

from bisect import bisect_left, insort

from translator.edits import Edit
from translator.passes import Context


class Emitter:
    def __init__(self, ctx: Context, rules: dict[str, object]):
        self.ctx, self.data, self.rules = ctx, ctx.source.data, rules
        # The spans edited so far, sorted: disjoint (each was free when taken), so their
        # ends are sorted too, and one look-up answers `free` (a scan of them all made a
        # file of N edits cost N squared).
        self.taken: list[tuple[int, int]] = []

    def free(self, start: int, end: int) -> bool:
        """No edit of this run touches [start, end) yet (a word two rules would both read)."""
        i = bisect_left(self.taken, (end, -1))      # the spans that start before `end`...
        return i == 0 or self.taken[i - 1][1] <= start     # ... the last of them ends by `start`

    def edit(self, rule, start: int, end: int, new: bytes, reason: str) -> bool:
        if not self.free(start, end) or self.data[start:end] == new:
            return False
        if self.ctx.fix(rule, Edit(start, end, new), reason) is not None:
            insort(self.taken, (start, end))
        return True

    def insert(self, rule, at: int, new: bytes, reason: str) -> None:
        self.ctx.fix(rule, Edit(at, at, new), reason)

    def remove(self, rule, start: int, end: int, reason: str) -> None:
        """Remove a word and one side's blanks (those before it, else those after it)."""
        data = self.data
        a, b = start, end
        while a > 0 and data[a - 1:a] in b" \t":
            a -= 1
        if a == start:
            while b < len(data) and data[b:b + 1] in b" \t":
                b += 1
        self.edit(rule, a, b, b"", reason)

    def report(self, rule, start: int, end: int, message: str, severity: str | None = None) -> None:
        self.ctx.report(rule, start, message, end=end, severity=severity)

    def flag_actions(self, actions, *, only_known: bool = False) -> None:
        """Fixes and diagnostics for FlagReader actions; `only_known` drops the reports of
        flags the tables do not know (a context where host flags are expected too)."""
        r = self.rules
        for act in actions:
            if act.kind == "unknown":
                if not only_known:
                    self.report(r["unknown"], act.start, act.end, act.message)
            elif act.kind == "no-equivalent":
                self.report(r["no-equivalent"], act.start, act.end, act.message)
            elif act.new == b"":
                self.remove(r["arch"] if act.kind == "arch" else r["removed"], act.start, act.end, act.message)
            else:
                self.edit(r[act.kind], act.start, act.end, act.new, act.message)
