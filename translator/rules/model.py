"""What a rules file says, as frozen data: one dataclass per statement kind, each with
its id, its reason and where it was written; `RulesError` for a file that says it wrong.

A call rewrite's right side is a template: the function to call and its arguments, each
argument a tuple of parts: `Text` (opaque source text of the rules file), `Param` (one
of the call's arguments) and `Spread` (the variadic tail, a whole argument on its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


class RulesError(Exception):
    """A bad rules file; `str()` is `PATH:LINE:COL: error: MESSAGE` (clang style), or
    `PATH: error: MESSAGE` where no position applies (a file that cannot be read)."""

    def __init__(self, path: str, line: int | None, col: int | None, message: str):
        self.path, self.line, self.col, self.message = path, line, col, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}:{self.col}"
        return f"{where}: error: {self.message}"


@dataclass(frozen=True)
class Location:
    path: str
    line: int           # 1-based
    col: int            # 1-based, in characters

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def error(self, message: str) -> RulesError:
        return RulesError(self.path, self.line, self.col, message)


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Param:
    name: str
    # The parameter fills a whole argument slot of the template (`g` in `dim3(g)`), so
    # the call's argument needs no parentheses whatever its precedence.
    bare: bool = True


@dataclass(frozen=True)
class Spread:
    name: str


Part = Text | Param | Spread


@dataclass(frozen=True)
class Rename:
    old: str
    new: str
    id: str
    reason: str | None
    location: Location
    text: str               # the statement as written, without its id and reason

    kind = "rename"


@dataclass(frozen=True)
class HeaderMap:
    old: str                # the include's path, without its delimiters
    new: str
    id: str
    reason: str | None
    location: Location
    text: str

    kind = "header"


@dataclass(frozen=True)
class CallRewrite:
    name: str
    params: tuple[str, ...]          # the variadic one last, without its `...`
    variadic: bool
    function: str                    # what the right side calls (may be qualified: `ns::f`)
    arguments: tuple[tuple[Part, ...], ...]
    id: str
    reason: str | None
    location: Location
    text: str

    kind = "call"

    def matches(self, count: int) -> bool:
        """Does a call with `count` arguments match?"""
        fixed = len(self.params) - self.variadic
        return count >= fixed if self.variadic else count == fixed

    def arity(self) -> str:
        fixed = len(self.params) - self.variadic
        return f"at least {fixed}" if self.variadic else str(fixed)


UserRule = Rename | HeaderMap | CallRewrite


@dataclass(frozen=True)
class RuleSet:
    """The rules of a run (every file, in order), indexed for the pass."""
    rules: tuple[UserRule, ...] = ()

    @cached_property
    def renames(self) -> dict[bytes, Rename]:
        return {r.old.encode(): r for r in self.rules if isinstance(r, Rename)}

    @cached_property
    def headers(self) -> dict[str, HeaderMap]:
        return {r.old: r for r in self.rules if isinstance(r, HeaderMap)}

    @cached_property
    def calls(self) -> dict[bytes, tuple[CallRewrite, ...]]:
        out: dict[bytes, tuple[CallRewrite, ...]] = {}
        for r in self.rules:
            if isinstance(r, CallRewrite):
                out[r.name.encode()] = out.get(r.name.encode(), ()) + (r,)
        return out

    @cached_property
    def words(self) -> frozenset[bytes]:
        """The names the renames and the call rewrites look for."""
        return frozenset(self.renames) | frozenset(self.calls)

    @cached_property
    def ids(self) -> frozenset[str]:
        return frozenset(r.id for r in self.rules)
