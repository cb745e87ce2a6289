"""Which diagnostics and edits a run keeps: `--select`/`--ignore`, and suppression
comments in the source.

`// cu2hip: ignore[P001]` (ids or prefixes, comma-separated) on a line silences those
diagnostics and stops those edits on that line and on the next one, so that it can
stand on the line before; `// cu2hip: ignore-file[I003]` does it for the whole file, and
`ignore[ALL]` for every code. A suppression that silenced nothing in the run gets a note
(S001), so that stale ones are found and removed. Build files (CMake, Make) take the same
comments written with their own `#`: `# cu2hip: ignore[ID]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from translator import diagnostics as dg
from translator.catalog import NOTE, enabled, matches, rule

UNUSED = rule(
    "S001", "unused-suppression", NOTE, "a suppression comment silenced nothing", """
A `// cu2hip: ignore[...]` comment whose codes matched no diagnostic or edit on its line
or the next one (or, for `ignore-file`, in the file). Remove it, or correct the codes.""",
    example="int x;  // cu2hip: ignore[P001]\n")

_COMMENT = re.compile(rb"(?://|/\*)[ \t]*cu2hip:[ \t]*(ignore|ignore-file)[ \t]*\[([^\]\r\n]*)\]")


_HASH_COMMENT = re.compile(rb"#[ \t]*cu2hip:[ \t]*(ignore|ignore-file)[ \t]*\[([^\]\r\n]*)\]")


@dataclass
class Suppression:
    line: int                 # 1-based line of the comment
    start: int                # byte offset of the comment
    codes: tuple[str, ...]
    whole_file: bool
    used: bool = False

    def covers(self, code: str, line: int) -> bool:
        return matches(code, self.codes) and (self.whole_file or line in (self.line, self.line + 1))


def suppressions(source, root) -> list[Suppression]:
    """Every suppression comment of a SourceFile, each confirmed to be in a comment of its
    parse tree `root` (not in a string)."""
    data = source.data
    if b"cu2hip:" not in data:
        return []
    out = []
    for m in _COMMENT.finditer(data):
        node = root.descendant_for_byte_range(m.start(), m.start() + 2)
        if node is None or node.type != "comment":
            continue
        codes = tuple(c.strip().decode("ascii", "replace") for c in m.group(2).split(b",") if c.strip())
        out.append(Suppression(source.position(m.start())[0], m.start(), codes, m.group(1) == b"ignore-file"))
    return out


def hash_suppressions(source, comments: list[tuple[int, int]]) -> list[Suppression]:
    """Every `# cu2hip: ignore[...]` of a build file, each in one of its comment spans."""
    data = source.data
    if b"cu2hip:" not in data:
        return []
    out = []
    for start, end in comments:
        m = _HASH_COMMENT.search(data, start, end)
        if m is not None and m.start() == start:
            codes = tuple(c.strip().decode("ascii", "replace") for c in m.group(2).split(b",") if c.strip())
            out.append(Suppression(source.position(start)[0], start, codes, m.group(1) == b"ignore-file"))
    return out


@dataclass
class Policy:
    """The codes a run keeps: select/ignore, then the file's suppression comments."""
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    comments: list[Suppression] = field(default_factory=list)

    def allows(self, code: str, line: int) -> bool:
        if not enabled(code, self.select, self.ignore):
            return False
        for s in self.comments:
            if s.covers(code, line):
                s.used = True
                return False
        return True

    def unused(self, source) -> list[dg.Diagnostic]:
        """S001 for each suppression that silenced nothing."""
        out = []
        for s in self.comments:
            if not s.used and enabled(UNUSED.id, self.select, self.ignore):
                form = "ignore-file" if s.whole_file else "ignore"
                out.append(dg.at(source, s.start, UNUSED.severity, f"unused suppression "
                                 f"'{form}[{', '.join(s.codes)}]': nothing it names was reported or edited here",
                                 UNUSED.id))
        return out
