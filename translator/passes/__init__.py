"""The pass framework: what a pass declares, the context it reads and writes, and how
passes are found and ordered.

A pass is a function `run(ctx) -> None` registered with `register_pass`: a stable id,
the rule codes it emits (declared in translator.catalog), the facts it reads
(translator.facts: the IR's by string, "kernels", "tree"..., and the analyses by their
provider class, CallGraph, HostValues...; a read of any other fails), the passes it runs
after and the targets it runs for. It never edits text: it adds Fixes
and Diagnostics to the context, and asks for headers through `ctx.request_header`, which
the pipeline satisfies once, at the end of the round. Every module under this package is
imported by `passes_for` (that is how passes are discovered); nothing outside this
package names a pass or one of its codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from translator import diagnostics as dg
from translator.catalog import Rule, discover
from translator.edits import SAFE, SEMANTIC, Edit, Fix
from translator import facts as fl
from translator.frontend import ParsedFile
from translator.mapping import MappingTables
# The options are declared apart from the passes' code (a cached run reads them alone).
from translator.options import DEFAULT_ROCM_VERSION, DECLARED, Options, PassOption, pass_options  # noqa: F401 (the API)
from translator.source import SourceFile
from translator.suppress import Policy

# The IR's facts a pass may declare by string (translator.facts.module); the analyses are
# declared by their provider class (translator.facts).
IR_FACTS = frozenset({"kernels", "launches", "api_uses", "sync_points", "uses", "tree"})


@dataclass(frozen=True)
class HeaderRequest:
    header: str          # as it goes between <>
    rule: str
    reason: str


@dataclass
class Context:
    source: SourceFile
    facts: fl.Facts                         # the round's facts: read only what the pass declares
    options: Options
    tables: MappingTables
    policy: Policy = field(default_factory=Policy)
    fixes: list[Fix] = field(default_factory=list)
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    header_requests: list[HeaderRequest] = field(default_factory=list)
    round: int = 0          # of the pipeline's fix loop: 0 analyses the input, later ones its rewrites
    rewritten: bool = False  # an earlier round applied edits of passes that do not restructure
    applied: frozenset[str] = frozenset()   # the rules whose fixes earlier rounds applied
    # The input's facts (round 0's store), in a later round; None in round 0, whose `facts`
    # are the input's: see `of_input`.
    input_facts: fl.Facts | None = None
    # The declared precedence of each fix's pass (by id of the Fix), stamped by `fix`
    # from the pass running (`running`, set by the pipeline): see `order` and `overridden`.
    ranks: dict[int, int] = field(default_factory=dict)
    running: int = 0
    # A build file's tokens (translator.buildfiles: CMakeFile, MakeFile, or the
    # BuildSyntaxError that stopped them); None for a CUDA or C++ file.
    build: object = None

    @property
    def parsed(self) -> ParsedFile:
        """The front end's parse (the fact "tree")."""
        return self.facts.get("tree")

    @property
    def module(self):
        """The IR (translator.ir.Module's attributes, each the fact of its name)."""
        from translator.facts.module import ModuleView
        view = self.__dict__.get("_module")
        if view is None:
            view = self.__dict__["_module"] = ModuleView(self.facts, self.source.path)
        return view

    @property
    def uses(self) -> list:
        """translator.scan.Use, in source order (the fact "uses")."""
        return self.facts.get("uses")

    def of_input(self, fact):
        """A fact of the input (round 0's text), read under the running pass's declarations:
        what a later round says of the user's file as it was (which of its kernels no file
        launches) is decided on the input, not on what a rewrite made of it (a fused chain's
        stages, which the round's text no longer launches)."""
        if self.input_facts is None:
            return self.facts.get(fact)
        with self.input_facts.reading_as(self.facts), fl.active(self.input_facts):
            return self.input_facts.get(fact)

    def input_offset(self, offset: int) -> int:
        """The input's offset of a byte of the round's text (of a byte an earlier round
        wrote: where it was written)."""
        omap = getattr(self.source, "omap", None)      # translator.pipeline.MappedSource's
        return offset if omap is None else omap.to_old(offset)

    def fix(self, rule: Rule, edits: tuple[Edit, ...] | Edit, reason: str) -> Fix | None:
        """Add a fix of `rule` (its safety is the rule's), unless --select/--ignore or a
        suppression comment turns it off there (then None)."""
        edits = edits if isinstance(edits, tuple) else (edits,)
        if not self.policy.allows(rule.id, self.source.position(min(e.start for e in edits))[0]):
            return None
        made = Fix(edits, rule.id, reason, SAFE if rule.safe else SEMANTIC)
        self.fixes.append(made)
        if self.running:
            self.ranks[id(made)] = self.running
        return made

    def order(self) -> list[Fix]:
        """The round's fixes in the order they are applied: higher declared precedence
        first, then the order the passes made them (so that, of two overlapping fixes, the
        one of higher precedence is accepted)."""
        return sorted(self.fixes, key=lambda f: -self.ranks.get(id(f), 0))

    def overridden(self, rejected: list[Fix], applied: list[Fix]) -> tuple[list[Fix], list[Fix]]:
        """(the rejected fixes that lost to an applied fix of higher precedence: overridden,
        dropped without a word; the others: real overlaps, P004)."""
        lost, clashed = [], []
        winners = [(self.ranks.get(id(f), 0), f) for f in applied if self.ranks.get(id(f), 0)]
        for fix in rejected:
            rank = self.ranks.get(id(fix), 0)
            beaten = any(r > rank and _overlap(fix, w) for r, w in winners)
            (lost if beaten else clashed).append(fix)
        return lost, clashed

    def report(self, rule: Rule, start: int, message: str, *, severity: str | None = None,
               end: int | None = None, fix: Fix | None = None, subject: str | None = None) -> None:
        """A diagnostic of `rule` over bytes [start, end), at the rule's severity unless
        said, unless the policy turns it off there."""
        made = dg.at(self.source, start, severity or rule.severity, message, rule.id, end, fix, subject)
        if self.policy.allows(rule.id, made.line):
            self.diagnostics.append(made)

    def request_header(self, header: str, rule: Rule, reason: str) -> None:
        """Ask for `#include <header>`: added once, where HIPIFY puts it, unless the output
        includes it already."""
        if all(r.header != header for r in self.header_requests):
            self.header_requests.append(HeaderRequest(header, rule.id, reason))


def _overlap(a: Fix, b: Fix) -> bool:
    """Do two fixes touch a byte in common (an insertion: strictly inside the other's range)?"""
    def meets(x: Edit, y: Edit) -> bool:
        if x.start == x.end:
            return y.start < x.start < y.end
        if y.start == y.end:
            return x.start < y.start < x.end
        return x.start < y.end and y.start < x.end
    return any(meets(x, y) for x in a.edits for y in b.edits)


@dataclass(frozen=True)
class Pass:
    id: str
    run: Callable[[Context], None]
    rules: tuple[str, ...]          # the codes it emits
    requires: tuple[str, ...]       # the names of the facts it reads (translator.facts)
    after: tuple[str, ...]          # passes that must run before it
    targets: tuple[str, ...]
    # It moves or generates code: it runs before the others, and in a round where it has
    # fixes the others wait for the next round, which sees its output.
    restructures: bool = False
    # The kinds of file it reads: "cuda" (CUDA and C++ sources), or build files ("cmake", "make").
    languages: tuple[str, ...] = ("cuda",)
    # Which pass's fix wins an overlap: the higher precedence's, and the other is then
    # overridden (dropped without P004); equal precedence: the fix made first, the other
    # gets P004. The user rules pass declares a precedence above the built-in passes'.
    precedence: int = 0
    options: tuple[PassOption, ...] = ()


PASSES: dict[str, Pass] = {}


def register_pass(pass_id: str, *, rules: tuple[Rule, ...], requires: tuple = (),
                  after: tuple[str, ...] = (), targets: tuple[str, ...] = ("hip",), restructures: bool = False,
                  languages: tuple[str, ...] = ("cuda",), precedence: int = 0, options: tuple = ()):
    def decorate(run: Callable[[Context], None]) -> Callable[[Context], None]:
        if pass_id in PASSES:
            raise ValueError(f"pass {pass_id!r} registered twice")
        names = tuple(fl.name_of(r) for r in requires)
        unknown = set(names) - fl.known_names()
        if unknown:
            raise ValueError(f"pass {pass_id!r} requires unknown facts {sorted(unknown)}")
        fields = {f.name for f in Options.__dataclass_fields__.values()}
        if tuple(options) != DECLARED.get(pass_id, ()):
            raise ValueError(f"pass {pass_id!r}: its options are not "
                             f"translator.options.DECLARED[{pass_id!r}]")
        for option in options:
            if option.field not in fields:
                raise ValueError(f"pass {pass_id!r}: option {option.name!r} sets no Options field {option.field!r}")
        PASSES[pass_id] = Pass(pass_id, run, tuple(r.id for r in rules), names, tuple(after),
                               tuple(targets), restructures, tuple(languages), precedence, tuple(options))
        return run
    return decorate


def all_passes() -> dict[str, Pass]:
    import translator.passes as package
    discover(package)
    return PASSES


def passes_for(target: str, only: str | None = None, language: str = "cuda") -> list[Pass]:
    """The passes for a target and a kind of file in an order that respects every
    `after`, ties broken by id (the pipeline runs the restructuring ones first); with
    `only`, that pass alone."""
    passes = all_passes()
    if only is not None:
        if only not in passes:
            raise ValueError(f"no pass {only!r} (passes: {', '.join(sorted(passes))})")
        chosen = passes[only]
        return [chosen] if target in chosen.targets and language in chosen.languages else []
    chosen = {k: p for k, p in passes.items() if target in p.targets and language in p.languages}
    ordered: list[Pass] = []
    done: set[str] = set()
    while len(ordered) < len(chosen):
        ready = sorted(k for k, p in chosen.items() if k not in done and set(p.after) & set(chosen) <= done)
        if not ready:
            raise ValueError(f"passes {sorted(set(chosen) - done)} wait on each other")
        ordered.append(chosen[ready[0]])
        done.add(ready[0])
    return ordered
