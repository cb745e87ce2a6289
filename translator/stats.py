"""--print-stats / --examine: what was converted, per file and in total, like HIPIFY's."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from translator.catalog import RULES
from translator.result import Result


CSV_HEADER = ["file", "CONVERTED refs count", "UNCONVERTED refs count", "CONVERSION %", "REPLACED bytes",
              "TOTAL bytes", "CHANGED lines of code", "TOTAL lines of code", "CODE CHANGED (in bytes) %",
              "CODE CHANGED (in lines) %", "TIME ELAPSED s"]


@dataclass
class Stats:
    files: int = 0
    changed_files: int = 0
    edits: int = 0          # every fix applied
    converted: int = 0      # ...that translates a CUDA reference (HIPIFY's count): not an optimizing rewrite
    unconverted: int = 0
    # Files a diagnostic says cannot compile at the target whatever is rewritten (a rule
    # that `blocks_file` in the catalog), and why: the names it is about.
    unconvertible_files: int = 0
    unconvertible_names: Counter = field(default_factory=Counter)
    by_kind: Counter = field(default_factory=Counter)
    by_api: Counter = field(default_factory=Counter)
    by_name: Counter = field(default_factory=Counter)
    by_rule: Counter = field(default_factory=Counter)
    unconverted_names: Counter = field(default_factory=Counter)
    # Per report topic (a rule's `topic` in the catalog): fixes applied (rewritten) and
    # diagnostics (left for review).
    topic_fixes: Counter = field(default_factory=Counter)
    topic_diagnostics: Counter = field(default_factory=Counter)
    lines: int = 0
    changed_lines: int = 0
    bytes: int = 0
    changed_bytes: int = 0
    errors: int = 0
    warnings: int = 0
    seconds: float = 0.0

    def add(self, result: Result, count_lines: bool = True) -> None:
        """Add one file's figures; `count_lines` diffs input and output for the changed-line
        count (a diff per file: only when statistics are printed)."""
        self.files += 1
        self.changed_files += result.changed
        self.lines += result.input.count(b"\n") + (not result.input.endswith(b"\n") and bool(result.input))
        self.bytes += len(result.input)
        self.seconds += result.seconds
        self.errors += sum(d.severity == "error" for d in result.diagnostics)
        self.warnings += sum(d.severity == "warning" for d in result.diagnostics)
        uses = {u.span: u for u in result.uses}
        rules = RULES
        for fix in result.applied:
            self.edits += 1
            # An optimizing pass's rewrite (its rule has a report topic) converts no CUDA reference.
            self.converted += not rules[fix.rule].topic
            self.by_rule[fix.rule] += 1
            if rules[fix.rule].topic:
                self.topic_fixes[rules[fix.rule].topic] += 1
            self.changed_bytes += sum(e.end - e.start for e in fix.edits)
            api = uses.get((fix.edits[0].start, fix.edits[0].end))
            if api is not None:
                self.by_kind[api.kind] += 1
                self.by_api[api.library] += 1
                self.by_name[api.name] += 1
            else:
                self.by_kind[rules[fix.rule].name] += 1
        blocking = [d for d in result.diagnostics if d.code in rules and rules[d.code].blocks_file]
        self.unconvertible_files += bool(blocking)
        for d in blocking:
            self.unconvertible_names[d.subject or "?"] += 1
        for d in result.diagnostics:
            if d.code in rules and rules[d.code].topic:
                self.topic_diagnostics[rules[d.code].topic] += 1
            if rules[d.code].unconverted:
                self.unconverted += 1
                self.unconverted_names[d.subject or "?"] += 1
        if result.changed and count_lines:
            before = result.input.splitlines()
            after = result.output.splitlines()
            import difflib
            matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
            self.changed_lines += sum(i2 - i1 for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal")

    def summary(self) -> dict:
        """The totals, for JSON reports."""
        return {"files": self.files, "changed": self.changed_files, "edits": self.edits,
                "unconverted": self.unconverted, "unconvertible_files": self.unconvertible_files, "errors": self.errors, "warnings": self.warnings,
                "edits_by_rule": dict(sorted(self.by_rule.items())),
                "topics": self.topics()}

    def topics(self) -> dict[str, dict[str, int]]:
        """Per report topic: how many fixes were applied and how many diagnostics left for review."""
        names = sorted(set(self.topic_fixes) | set(self.topic_diagnostics))
        return {t: {"rewritten": self.topic_fixes[t], "review": self.topic_diagnostics[t]} for t in names}

    def csv_rows(self, title: str) -> list[list[str]]:
        """HIPIFY's statistics as CSV rows: the file, then one column per figure, named as
        in the text report; `CSV_HEADER` is the header row."""
        total = self.converted + self.unconverted
        pct = lambda a, b: f"{100.0 * a / b:.1f}" if b else "0.0"  # noqa: E731
        return [[title, str(self.converted), str(self.unconverted), pct(self.converted, total),
                 str(self.changed_bytes), str(self.bytes), str(self.changed_lines), str(self.lines),
                 pct(self.changed_bytes, self.bytes), pct(self.changed_lines, self.lines), f"{self.seconds:.3f}"]]

    def render(self, title: str) -> str:
        total = self.converted + self.unconverted
        pct = lambda a, b: f"{100.0 * a / b:.1f}" if b else "0.0"  # noqa: E731
        lines = [
            f"[cu2hip] statistics: {title}",
            f"  files: {self.files} ({self.changed_files} changed)",
            f"  UNCONVERTIBLE files at the target: {self.unconvertible_files}",
            f"  CONVERTED refs count: {self.converted}",
            f"  UNCONVERTED refs count: {self.unconverted}",
            f"  CONVERSION %: {pct(self.converted, total)}",
            f"  REPLACED bytes: {self.changed_bytes}",
            f"  TOTAL bytes: {self.bytes}",
            f"  CHANGED lines of code: {self.changed_lines}",
            f"  TOTAL lines of code: {self.lines}",
            f"  CODE CHANGED (in bytes) %: {pct(self.changed_bytes, self.bytes)}",
            f"  CODE CHANGED (in lines) %: {pct(self.changed_lines, self.lines)}",
            f"  diagnostics: {self.errors} errors, {self.warnings} warnings",
            f"  TIME ELAPSED s: {self.seconds:.3f}",
        ]
        for topic, counts in self.topics().items():
            lines.append(f"  {topic}: {counts['rewritten']} rewritten, {counts['review']} left for review")
        for heading, counter in (("CONVERTED refs by rule", self.by_rule), ("CONVERTED refs by type", self.by_kind),
                                 ("CONVERTED refs by API", self.by_api), ("CONVERTED refs by names", self.by_name),
                                 ("UNCONVERTED refs by names", self.unconverted_names),
                                 ("UNCONVERTIBLE at the target, by names", self.unconvertible_names)):
            if counter:
                lines.append(f"  {heading}:")
                lines += [f"    {name}: {count}" for name, count in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
        return "\n".join(lines) + "\n"
