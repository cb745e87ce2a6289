"""The rule catalog: every diagnostic and edit code, declared once, next to its emitter.

A `Rule` says what a code means (name, default severity, whether it edits and whether
that edit is always safe, a summary, an explanation and an example with its
translation). Modules declare their rules with `rule(...)` at import: the passes under
`translator/passes/`, the front end's and the pipeline's own (P0xx), the input and
output checks (I0xx), suppressions (S0xx). `catalog()` imports every declaring module
and returns all of them; help (`cu2hip rules`), the generated docs, `--select` and
`--ignore`, suppression comments and SARIF's rule metadata are all derived from it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
NOTE = "note"
SEVERITIES = (ERROR, WARNING, NOTE)

_ID = re.compile(r"[A-Z]\d{3}\Z")
_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*\Z")


@dataclass(frozen=True)
class Rule:
    id: str                 # "P001": stable, used in diagnostics, diffs, config, suppressions
    name: str               # "rename-api": kebab-case
    severity: str           # the default severity of its diagnostics ("note" for an edit-only rule)
    edits: bool             # does it change the text?
    safe: bool | None       # is its edit meaning-preserving by construction? None when it does not edit
    summary: str            # one line
    explanation: str        # why, when, what to do: paragraphs
    example: str = ""       # a CUDA snippet that produces it...
    translation: str = ""   # ...and its translation (== example when the rule does not edit)
    options: tuple[str, ...] = ()   # the translate options the example needs
    # A diagnostic that counts as an unconverted reference in the statistics (HIPIFY's
    # UNCONVERTED count), its subject the CUDA name left as it was.
    unconverted: bool = False
    # The section of `cu2hip report` that lists its diagnostics, or None.
    topic: str | None = None
    # A rewrite hipify-clang counts among its undocumented features (off with HIPIFY's
    # `--no-undocumented-features`).
    undocumented: bool = False
    # Its edits give no pass more to do (an attribute written where no rule reads): like a
    # safe token swap, a round of them and token swaps ends the fix loop.
    settles: bool = False
    # A diagnostic that leaves its file unable to compile at the target whatever is
    # rewritten (a header the target ROCm lacks): the statistics count the file as
    # unconvertible at the target.
    blocks_file: bool = False
    # The file name its example is translated as ("": a CUDA file, example.cu); a build
    # file's rule names CMakeLists.txt or Makefile.
    example_path: str = ""
    # Its diagnostics are many sites of one finding (the parser's error sites): SARIF gives
    # them as one result per file, its locations every site, as it gives renames.
    grouped: bool = False

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"rule id {self.id!r}: want a capital letter and three digits")
        if not _NAME.match(self.name):
            raise ValueError(f"rule name {self.name!r}: want kebab-case")
        if self.severity not in SEVERITIES:
            raise ValueError(f"rule {self.id}: severity {self.severity!r}")
        if self.edits != (self.safe is not None):
            raise ValueError(f"rule {self.id}: `safe` is said for editing rules, and only for them")


RULES: dict[str, Rule] = {}


def rule(id: str, name: str, severity: str, summary: str, explanation: str, *, edits: bool = False,
         safe: bool | None = None, example: str = "", translation: str | None = None,
         options: tuple[str, ...] = (), unconverted: bool = False, topic: str | None = None,
         undocumented: bool = False, settles: bool = False, blocks_file: bool = False,
         example_path: str = "", grouped: bool = False) -> Rule:
    """Declare a rule (once, at import of the module that emits it)."""
    declared = Rule(id, name, severity, edits, safe, summary, explanation.strip(), example,
                    example if translation is None else translation, options, unconverted, topic, undocumented,
                    settles, blocks_file, example_path, grouped)
    if id in RULES and RULES[id] != declared:
        raise ValueError(f"rule {id} declared twice")
    RULES[id] = declared
    return declared


# The modules outside translator/passes/ that declare rules; every module under
# translator/passes/ is imported as well (that is how passes are found).
_DECLARING = ("translator.pipeline", "translator.suppress", "translator.inputs", "translator.ignore")


def catalog() -> dict[str, Rule]:
    """Every rule, by id, sorted."""
    import importlib

    import translator.passes as passes
    for name in _DECLARING:
        importlib.import_module(name)
    discover(passes)
    return dict(sorted(RULES.items()))


def snapshot(leave_out=()) -> list[dict]:
    """The whole catalog (less the ids `leave_out`: a run's user rules) as plain data, for
    `restore` in a process that has imported no pass (translator.cache keeps it per
    fingerprint of the tool: a cached run needs the rules' ids, topics and names, not
    the passes' code)."""
    return [{**dataclasses.asdict(r), "options": list(r.options)} for code, r in catalog().items()
            if code not in leave_out]


# Each field's JSON types, from its annotation (options: a list of strings).
_TYPES = {"str": (str,), "bool": (bool,), "bool | None": (bool, type(None)), "str | None": (str, type(None)),
          "tuple[str, ...]": (list,)}
_FIELDS = {f.name: _TYPES[f.type] for f in dataclasses.fields(Rule)}


def restore(data) -> bool:
    """Declare the rules of a `snapshot` (data read back from a cache: each field checked);
    False, declaring nothing, at anything unexpected or a rule that disagrees with one
    already declared."""
    try:
        made = []
        for fields in data:
            if type(fields) is not dict or set(fields) != set(_FIELDS):
                return False
            if not all(type(v) in _FIELDS[k] for k, v in fields.items()) \
                    or not all(type(o) is str for o in fields["options"]):
                return False
            made.append(Rule(**dict(fields, options=tuple(fields["options"]))))
    except (TypeError, ValueError):
        return False
    if any(RULES.get(r.id, r) != r for r in made):
        return False
    for r in made:
        RULES.setdefault(r.id, r)
    return True


_DISCOVERED: set[str] = set()


def discover(package) -> None:
    """Import every module of a package, recursively (registration happens at import),
    once per process: listing the package's folders costs more than a translation."""
    if package.__name__ in _DISCOVERED:
        return
    import importlib
    import pkgutil
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
    _DISCOVERED.add(package.__name__)


def matches(code: str, selectors) -> bool:
    """Does a code match any selector: `ALL`, a whole id, or a prefix (`P`, `P00`)?"""
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def check_selectors(selectors, option: str) -> None:
    """ValueError naming the first selector that matches no rule."""
    if not selectors:
        return          # no catalog: a run that selects nothing imports no pass for it
    codes = catalog()
    for s in selectors:
        if s != "ALL" and not any(code.startswith(s) for code in codes):
            raise ValueError(f"{option}: {s!r} matches no rule (see `cu2hip rules`)")


def _specificity(code: str, selectors) -> int:
    """-1: no selector matches; 0: `ALL`; else the length of the longest matching prefix."""
    return max((0 if s == "ALL" else len(s) for s in selectors if s == "ALL" or code.startswith(s)), default=-1)


@functools.lru_cache(maxsize=8192)
def _enabled(code: str, select: tuple, ignore: tuple) -> bool:
    chosen = _specificity(code, select) if select else 0
    return chosen >= 0 and chosen > _specificity(code, ignore)


def enabled(code: str, select=(), ignore=()) -> bool:
    """A code is on when `select` (default: all) matches it and `ignore` does not; the
    more specific selector wins where both match (`--select I --ignore I00` turns I00x
    off, `--ignore I --select I003` keeps I003 on); on a tie, `ignore` wins."""
    return _enabled(code, tuple(select), tuple(ignore))
