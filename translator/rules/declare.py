"""User rules in the rule catalog (translator.catalog): one catalog Rule per user rule,
so that `--select`/`--ignore`, suppression comments, statistics and SARIF know them.

The catalog holds the user rules of one run: `declare` replaces those an earlier
`declare` made (another rules file in the same process) and `forget` removes them. An
id that a built-in rule has is an error at the user rule.
"""

from __future__ import annotations

from translator import catalog
from translator.catalog import NOTE, Rule
from translator.rules.model import RuleSet, UserRule

NAMES = {"rename": "user-rename", "header": "user-header", "call": "user-call"}
_OURS: dict[str, Rule] = {}
_CURRENT: list[RuleSet] = []


def declare(rules: RuleSet) -> dict[str, Rule]:
    """Declare the catalog rules of a run's user rules (and only those); by id."""
    if _CURRENT and _CURRENT[0] == rules:
        return {r.id: _OURS[r.id] for r in rules.rules}
    if not rules.rules:
        forget()                        # none to check against the built-in rules: no catalog
        return {}
    catalog.catalog()                   # imports every module that declares built-in rules
    for user in rules.rules:
        known = catalog.RULES.get(user.id)
        if known is not None and _OURS.get(user.id) is not known:
            raise user.location.error(f"id {user.id} is the built-in rule {known.name}'s")
    forget()
    for user in rules.rules:
        _OURS[user.id] = catalog.rule(user.id, NAMES[user.kind], NOTE, user.text, explanation(user),
                                      edits=True, safe=False)
    _CURRENT.append(rules)
    return dict(_OURS)


def user_ids() -> frozenset[str]:
    """The ids of the user rules in the catalog now."""
    return frozenset(_OURS)


def forget() -> None:
    """Remove the user rules from the catalog."""
    for rule_id, made in _OURS.items():
        if catalog.RULES.get(rule_id) is made:
            del catalog.RULES[rule_id]
    _OURS.clear()
    _CURRENT.clear()


def explanation(user: UserRule) -> str:
    because = f" (because: {user.reason})" if user.reason else ""
    return (f"A user rule, from {user.location.path} line {user.location.line}{because}: `{user.text}`. "
            "cu2hip applies it as written; its meaning is the user's to vouch for.")
