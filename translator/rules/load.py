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
import re

from translator.inputs import read_limited
from translator.rules.model import CallRewrite, HeaderMap, Param, Rename, RuleSet, RulesError, Spread, UserRule

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
        data = read_limited(path)       # never a FIFO's wait or /dev/zero's endless bytes
    except OSError as exc:
        raise RulesError(path, None, None, f"cannot read the rules file: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RulesError(path, line, col, "the rules file is not UTF-8") from None
    from translator.rules.parse import parse_text     # lark only for a run that has rules
    # A byte order mark (some editors write one) is not part of the first statement.
    rules = tuple(parse_text(text.removeprefix("\ufeff").replace("\r\n", "\n"), path))
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
    _check_cycles(numbered)
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


_CALLED = re.compile(r"([A-Za-z_]\w*)\s*\(")


def _calls_made(rule: CallRewrite) -> list[tuple[str, int, bool]]:
    """The calls a call rule's replacement makes: (name, argument count, whether a spread
    makes the count a minimum), the replacement's own function first."""
    spread = any(isinstance(p, Spread) for arg in rule.arguments for p in arg)
    out = [(rule.function.rsplit("::", 1)[-1], sum(not (len(a) == 1 and isinstance(a[0], Spread))
                                                   for a in rule.arguments), spread)]
    for argument in rule.arguments:
        text = "".join(p.text if not isinstance(p, (Param, Spread)) else "_" for p in argument)
        for match in _CALLED.finditer(text):
            depth, count, i, empty = 1, 1, match.end(), True
            while i < len(text) and depth:
                char = text[i]
                depth += char in "([{"
                depth -= char in ")]}"
                count += char == "," and depth == 1
                empty = empty and (char.isspace() or (depth == 0 and char == ")"))
                i += 1
            out.append((match.group(1), 0 if empty else count, "..." in text[match.end():i]))
    return out


def _feeds(made: tuple[str, int, bool], rule: CallRewrite) -> bool:
    name, count, at_least = made
    if name != rule.name:
        return False
    return rule.matches(count) or (at_least and (rule.variadic or count <= len(rule.params)))


def _check_cycles(rules: list[UserRule]) -> None:
    """A call rule whose replacement calls what it (or a rule it leads to) rewrites would
    rewrite its own output on every round and every run: an error at the rule."""
    calls = [r for r in rules if isinstance(r, CallRewrite)]
    edges = {r.id: [s for made in _calls_made(r) for s in calls if _feeds(made, s)] for r in calls}
    for start in calls:
        path, todo, seen = {start.id: None}, [start], set()
        while todo:
            rule = todo.pop()
            for nxt in edges[rule.id]:
                if nxt is start:
                    chain = [rule]
                    while path[chain[-1].id] is not None:
                        chain.append(path[chain[-1].id])
                    through = "" if rule is start else " (through " + ", ".join(
                        _where(r) for r in reversed(chain[:-1])) + ")"
                    raise start.location.error(f"the replacement calls '{start.name}' again{through}: the rule "
                                               "would rewrite its own output on every run")
                if nxt.id not in seen:
                    seen.add(nxt.id)
                    path[nxt.id] = rule
                    todo.append(nxt)
