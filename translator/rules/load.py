"""The rules of a run: its files read (each parsed once per process while its mtime and
size stay the same), the ids numbered and checked across files.

Rules without an id get `U001`, `U002`, ... in order over every file of the run (the
order given), skipping every id written explicitly in any of them: two files without
ids do not collide. An id written twice is an error naming both places, and so are two
rules on one name (two renames of `x`, two maps of one header, two call rewrites of `f`
for one argument count) and a rename or header map whose result another rule renames
again (the output would change on a second run).
"""

from __future__ import annotations

import dataclasses
import os

from translator.rules.model import CallRewrite, HeaderMap, Rename, RuleSet, RulesError, UserRule

_FILES: dict[str, tuple[tuple[int, int], tuple[UserRule, ...]]] = {}   # path -> ((mtime_ns, size), rules)
_SETS: dict[tuple, RuleSet] = {}


def read_rules(path: str) -> tuple[UserRule, ...]:
    """One file's rules, ids as written ("" where none): parsed once while unchanged."""
    try:
        stat = os.stat(path)
        key = (stat.st_mtime_ns, stat.st_size)
        cached = _FILES.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RulesError(path, None, None, f"cannot read the rules file: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RulesError(path, line, col, "the rules file is not UTF-8") from None
    from translator.rules.parse import parse_text     # lark only for a run that has rules
    rules = tuple(parse_text(text.replace("\r\n", "\n"), path))
    _FILES[path] = (key, rules)
    return rules


def load_rules(paths) -> RuleSet:
    """The checked, numbered rules of the files `paths`, in order."""
    paths = tuple(str(p) for p in paths)
    drafts = [r for path in paths for r in read_rules(path)]
    key = tuple(_FILES[p][0] for p in paths), paths
    cached = _SETS.get(key)
    if cached is None:
        cached = _SETS[key] = finish(drafts)
    return cached


def parse_rules(text: str, path: str = "<rules>") -> RuleSet:
    """The checked, numbered rules of one text (as the only file of a run)."""
    from translator.rules.parse import parse_text
    return finish(parse_text(text, path))


def finish(drafts: list[UserRule]) -> RuleSet:
    """Number the rules without an id and check the run as a whole."""
    first: dict[str, UserRule] = {}
    for rule in drafts:
        if rule.id in first:
            raise rule.location.error(f"duplicate id {rule.id} (first used at {first[rule.id].location})")
        if rule.id:
            first[rule.id] = rule
    numbered, n = [], 0
    for rule in drafts:
        if not rule.id:
            n += 1
            while f"U{n:03d}" in first:
                n += 1
            if n > 999:
                raise rule.location.error("no id left to number this rule (U001 to U999 are taken)")
            rule = dataclasses.replace(rule, id=f"U{n:03d}")
        numbered.append(rule)
    _check_conflicts(numbered)
    return RuleSet(tuple(numbered))


def _check_conflicts(rules: list[UserRule]) -> None:
    renames: dict[str, Rename] = {}
    headers: dict[str, HeaderMap] = {}
    calls: dict[str, list[CallRewrite]] = {}
    for rule in rules:
        if isinstance(rule, Rename):
            if rule.old in renames:
                raise rule.location.error(f"'{rule.old}' is already renamed by {_where(renames[rule.old])}")
            renames[rule.old] = rule
        elif isinstance(rule, HeaderMap):
            if rule.old in headers:
                raise rule.location.error(f"header '{rule.old}' is already mapped by {_where(headers[rule.old])}")
            headers[rule.old] = rule
        else:
            for other in calls.get(rule.name, ()):
                count = _common_count(rule, other)
                if count is not None:
                    arguments = f"{count} argument{'s' * (count != 1)}"
                    raise rule.location.error(f"a call of '{rule.name}' with {arguments} is already rewritten by "
                                              f"{_where(other)}")
            calls.setdefault(rule.name, []).append(rule)
    for table, done in ((renames, "renamed"), (headers, "mapped")):
        for rule in table.values():
            again = table.get(rule.new)
            if again is rule:
                raise rule.location.error(f"'{rule.old}' is {done} to itself")
            if again is not None:
                raise rule.location.error(f"'{rule.new}' is {done} again by {_where(again)}: the result of a "
                                          "rule must not be rewritten by another")


def _where(rule: UserRule) -> str:
    return f"{rule.id} at {rule.location}"


def _common_count(a: CallRewrite, b: CallRewrite) -> int | None:
    """An argument count both rules match, or None."""
    count = max(len(a.params) - a.variadic, len(b.params) - b.variadic)
    return count if a.matches(count) and b.matches(count) else None
