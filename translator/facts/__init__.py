"""The facts layer: the analyses the passes read, as declared providers computed once per
round on first use.

A fact is a class deriving from `Fact`: a `name` (the string a pass may declare, as the
IR's own facts "kernels", "launches", "tree"... are declared), the facts it reads itself
(`requires`), and `compute(facts)`, which returns its value. A pass names what it reads in
`register_pass(..., requires=("kernels", CallGraph, ...))`; the pipeline gives each round
one `Facts` store per file, and while a pass runs the store answers only the facts the
pass declared: any other read raises `UndeclaredFact` (a provider, while it computes,
may read only its own `requires`). Nothing is built before something reads it, so a
round whose passes read no call graph builds none.

An analysis that other analyses reach by a plain function (`ir.calls.call_graph(parsed)`)
goes through `provide(parsed, name)`: the active store of that parse when the pipeline
holds one (checked, cached), else it is computed afresh (a caller outside the pipeline,
such as the report's kernel table, opens a store with `active(Facts(parsed))` to cache).

**Unknown is the default.** A fact's answer about one thing is three-valued: `Known`
(with the value), `Unknown` (with the reason it cannot be proved) or `ABSENT` (there is
nothing to know: no such kernel, no such name). A pass acts on `Known` only and reports
the reason of an `Unknown` when it refuses.

The providers, one module each: `module` (the IR's own facts), `call_graph`, `warp`,
`host_values`, `kernel_launches`, `block_agnostic`, `elementwise`, `statements`,
`aliases`, `registers` and `macros` (the macro table every other one reads).
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Known(Generic[T]):
    value: T

    known = True


@dataclass(frozen=True)
class Unknown:
    reason: str

    known = False


class _Absent:
    known = False
    reason = "there is nothing to know"

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


class UndeclaredFact(RuntimeError):
    """A pass (or a provider) read a fact it does not declare: a bug of that pass."""


class Fact:
    """A provider. Subclasses set `name`, `requires` and `compute`."""
    name: str = ""
    requires: tuple = ()

    @classmethod
    def compute(cls, facts: Facts) -> Any:
        raise NotImplementedError


# The provider modules by fact name: imported on first use (the analyses they wrap
# import this module, so it imports none of them itself).
_MODULES = {
    "tree": "module", "uses": "module", "kernels": "module", "launches": "module", "api_uses": "module",
    "sync_points": "module", "call-graph": "call_graph", "warp": "warp", "host-values": "host_values",
    "kernel-launches": "kernel_launches", "block-agnostic": "block_agnostic", "elementwise": "elementwise",
    "launch-blocks": "statements", "aliases": "aliases", "register-counter": "registers",
    "macros": "macros",
}
_PROVIDERS: dict[str, type[Fact]] = {}


def register(cls: type[Fact]) -> type[Fact]:
    if cls.name in _PROVIDERS and _PROVIDERS[cls.name] is not cls:
        raise ValueError(f"fact {cls.name!r} provided twice")
    if cls.name not in _MODULES:
        raise ValueError(f"fact {cls.name!r} has no module in translator.facts._MODULES")
    _PROVIDERS[cls.name] = cls
    return cls


def name_of(fact: str | type[Fact]) -> str:
    return fact if isinstance(fact, str) else fact.name


def provider(fact: str | type[Fact]) -> type[Fact]:
    name = name_of(fact)
    if name not in _PROVIDERS:
        if name not in _MODULES:
            raise ValueError(f"no fact {name!r} (facts: {', '.join(sorted(_MODULES))})")
        importlib.import_module(f"translator.facts.{_MODULES[name]}")
    return _PROVIDERS[name]


def known_names() -> frozenset[str]:
    return frozenset(_MODULES)


class Facts:
    """The facts of one text in one round: each computed on first read, at most once.
    `parsed` is the front end's ParsedFile; `source`, `options` and `tables` are the
    round's (None outside the pipeline)."""

    def __init__(self, parsed, source=None, options=None, tables=None):
        self.parsed, self.source, self.options, self.tables = parsed, source, options, tables
        self._held: dict[str, Any] = {}
        self._allowed: frozenset[str] | None = None      # None: any fact (the pipeline itself)
        self._reader = "the pipeline"

    def get(self, fact: str | type[Fact]) -> Any:
        name = name_of(fact)
        if self._allowed is not None and name not in self._allowed:
            raise UndeclaredFact(f"{self._reader} reads the fact {name!r} without declaring it "
                                 f"(it declares {', '.join(sorted(self._allowed)) or 'none'})")
        if name not in self._held:
            cls = provider(name)
            saved = self._allowed, self._reader
            self._allowed, self._reader = frozenset(name_of(r) for r in cls.requires), f"the fact {name!r}"
            try:
                self._held[name] = cls.compute(self)
            finally:
                self._allowed, self._reader = saved
        return self._held[name]

    __getitem__ = get

    def built(self) -> frozenset[str]:
        """The facts computed so far."""
        return frozenset(self._held)

    def reading(self, reader: str, declared) -> "_Reading":
        """A context in which only `declared` facts may be read (by `reader`)."""
        return _Reading(self, reader, frozenset(name_of(d) for d in declared))

    def reading_as(self, other: "Facts") -> "_Reading":
        """A context in which this store answers what `other` answers now: the facts its
        reader declares, and no other (a pass of a later round reading the input's store)."""
        return _Reading(self, other._reader, other._allowed)


class _Reading:
    """Facts.reading's context (a class: it is entered for every pass and per-item answer,
    where a generator-based context manager costs several times more)."""
    __slots__ = ("facts", "reader", "allowed", "saved")

    def __init__(self, facts: Facts, reader: str, allowed: frozenset[str] | None):
        self.facts, self.reader, self.allowed = facts, reader, allowed

    def __enter__(self) -> Facts:
        facts = self.facts
        self.saved = facts._allowed, facts._reader
        facts._allowed, facts._reader = self.allowed, self.reader
        return facts

    def __exit__(self, *exc) -> None:
        self.facts._allowed, self.facts._reader = self.saved


class PerItem:
    """A fact's value that answers per item (a kernel, a function) on demand: each answer
    computed once, with the reads of the fact that made it (its own `requires`), not of
    the pass that asks."""

    def __init__(self, facts: Facts, fact: type[Fact]):
        self.facts, self.fact = facts, fact
        self._held: dict = {}

    def answer(self, key, compute):
        if key not in self._held:
            with self.facts.reading(f"the fact {self.fact.name!r}", self.fact.requires):
                self._held[key] = compute()
        return self._held[key]


_ACTIVE: list[Facts] = []


@contextmanager
def active(facts: Facts):
    """Make `facts` the store that `provide` answers from for its parse."""
    _ACTIVE.append(facts)
    try:
        yield facts
    finally:
        _ACTIVE.pop()


def provide(parsed, fact: str | type[Fact]) -> Any:
    """The fact of a parse: from the active store of that parse (checked against what the
    current reader declares, and cached), else computed afresh."""
    for store in reversed(_ACTIVE):
        if store.parsed is parsed:
            return store.get(fact)
    return Facts(parsed).get(fact)
