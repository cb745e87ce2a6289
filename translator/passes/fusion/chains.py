"""F002: which consecutive launches form a chain that can be fused, and why the others cannot.

What it does:
    Walks each block that launches two kernels or more (translator.ir.statements), in
    order, and grows a chain while the next launch is legal to fuse with it; each launch
    that cannot join gets one F002 note at its place naming the launch before it and the
    reason. A chain of two launches or more is handed to the rewrite (translator.passes.fusion.rewrite).
Legal when:
    Between the launches there are only host arithmetic, declarations and error checks
    (no call but a short allow-list of pure functions, no memory access, no control
    flow); the launches have equal grid, block and stream, and no dynamic shared memory;
    each kernel is elementwise (translator.ir.elementwise) in the same shape (a guard, a
    grid-stride loop, or a two-dimensional guard), with index variables of one type and
    guards against the same bounds once the arguments are substituted (a two-dimensional
    stage's row width, which its element `y * width + x` multiplies, declared of one type); no name a launch uses is assigned before
    the chain's last launch (the fused launch is made there); and every two different
    pointers of which one is written are provably distinct allocations: a local that
    one cudaMalloc or cudaMallocManaged of the function sets, against a parameter or
    another such local; or two parameters declared __restrict__. A pointer into such a
    local at an offset (`&x[off]`, `x + off`, the offset host arithmetic of names and
    numbers) is that local against every other buffer, and two different ones into the
    same local (or the local itself) may overlap; the same text in two launches is one
    pointer (its names are not modified between them, above). A kernel that is not
    elementwise may end a chain when it reads what the chain writes only at its own
    index under the chain's guard (translator.ir.reductions: a reduction). A template
    kernel joins when its parameters are all types and the launch gives each an
    arithmetic type, written out (`k<float>`) or deduced from a `T *` parameter whose
    argument is declared only as a pointer to one (translator.ir.elementwise.instantiation);
    in a function template, a type parameter of it written there (`k<T>`) is what its one
    instantiation in the file gives it (translator.ir.host_values.HostValues.type_arguments:
    the fused kernel is written for those types, so several instantiations refuse).
Not handled:
    Chains across blocks, branches or loops (a chain inside a loop body is one block and
    is handled); template kernels with value parameters, launched with class types or
    with arguments not deduced from a pointer, or explicitly specialized; template
    reductions; kernels in macros.
Example:
    k1<<<g, b>>>(x, y, n); cudaMemcpy(...); k2<<<g, b>>>(y, z, n);
    ->  F002 at k2: "not fused with k1: a call of cudaMemcpy between the launches"
Safety:
    no edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from translator.catalog import NOTE, rule
from translator.ir import Kernel, LaunchSite, Module
from translator.facts.aliases import Aliases
from translator.facts.elementwise import Elementwise
from translator.facts.host_values import HostValues
from translator.facts.statements import LaunchBlocks
from translator.ir.elementwise import Refusal, Stage, deduced, instantiation, squeeze, substitute
from translator.ir.reductions import Consumer
from translator.ir.statements import Block, Pointers, Statement
from translator.frontend import ParsedFile

NOT_FUSED = rule(
    "F002", "not-fused", NOTE, "consecutive launches that cannot be fused, and why", """
Two launches follow each other in one block, but fusing them would change what the
program computes (or cu2hip cannot prove that it would not): the note names the launch
before and the first reason found. `cu2hip diff` and the JSON and SARIF reports carry it;
the reasons are those of the fusion pass's legality conditions.""",
    example="__global__ void a(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
            "if (i < n) x[i] += 1; }\n"
            "__global__ void b(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
            "if (i < n) x[i] *= 2; }\n"
            "void f(float *x, float *h, int n) {\n    a<<<n / 256, 256>>>(x, n);\n"
            "    cudaMemcpy(h, x, n * 4, cudaMemcpyDeviceToHost);\n    b<<<n / 256, 256>>>(x, n);\n}\n",
    options=("--target", "cuda", "--ignore", "L"), topic="fusion")


_NAME = re.compile(r"[A-Za-z_]\w*")


def refuse(ctx, site: LaunchSite, before: str, reason: str) -> None:
    """F002 at a launch: `before` says what it is not fused with (" with the launch of k
    before it", or nothing)."""
    ctx.report(NOT_FUSED, site.span[0], f"launch of {site.kernel} not fused{before}: {reason}",
               end=site.config_span[1], subject=site.kernel)


@dataclass
class Link:
    """One launch of a chain: the site, its kernel, the kernel as a stage, and each
    parameter's argument as written."""
    site: LaunchSite
    kernel: Kernel
    stage: Stage
    args: dict[str, str]
    types: dict[str, str] = field(default_factory=dict)     # a template kernel's type parameters' arguments


@dataclass
class Consumed:
    """The launch that ends a map-then-reduce chain: a kernel that reads what the chain
    produces at its own index, under the chain's guard (translator.ir.reductions)."""
    site: LaunchSite
    kernel: Kernel
    consumer: Consumer
    args: dict[str, str]


@dataclass
class Chain:
    block: Block
    links: list[Link]
    pointers: Pointers
    statements: list[Statement] = field(default_factory=list)   # the first launch's to the last's
    consumer: Consumed | None = None


def _elsewhere(ctx, kernel: str) -> str:
    """Why a kernel the file launches is no stage: its definition is in no part of this
    file, naming the project's files that define it where the launch index knows them
    (an `#include`d .cu or header: the fused kernel is written from the launching file's
    own definitions)."""
    homes = sorted({home for name, home, _ in ctx.options.launch_index or () if name == kernel})
    if not homes:
        return "its definition is not in this file"
    shown = ", ".join(homes[:3]) + (f" and {len(homes) - 3} more" if len(homes) > 3 else "")
    return f"its definition is not in this file but in {shown}: a fused kernel is written from the launching " \
           "file's own definitions"


def find_chains(ctx, parsed: ParsedFile, module: Module) -> list[Chain]:
    """The fusable chains of the file, reporting F002 for each launch that cannot join
    the chain before it."""
    blocks = ctx.facts.get(LaunchBlocks)
    aliases = ctx.facts.get(Aliases)
    if not blocks:
        return []
    kernels = ctx.facts.get(Elementwise)
    stages: dict[str, Stage | Refusal] = {}
    consumers: dict[str, Consumer | Refusal] = {}

    def kernel_of(site: LaunchSite) -> Kernel | Refusal:
        kernels = [k for k in module.kernels_by_name.get(site.kernel, []) if k.body_span is not None]
        if len(kernels) != 1:
            return Refusal(site.kernel, _elsewhere(ctx, site.kernel) if not kernels else "it is overloaded")
        return kernels[0]

    def stage_of(site: LaunchSite, kernel: Kernel | Refusal) -> Stage | Refusal:
        if isinstance(kernel, Refusal):
            return kernel
        if site.kernel not in stages:
            stages[site.kernel] = kernels.stage(kernel)
        return stages[site.kernel]

    def consumer_of(site: LaunchSite, kernel: Kernel) -> Consumer | Refusal:
        if site.kernel not in consumers:
            consumers[site.kernel] = kernels.consumer(kernel)
        return consumers[site.kernel]

    chains = []
    for block in blocks:
        facts = _Lazy(lambda span=block.function_span: aliases.of(span))
        current = _Run(facts)
        previous: LaunchSite | None = None
        blocked: str | None = None
        start = 0
        between: list[Statement] = []

        def close(end: int, consumed: Consumed | None = None) -> None:
            if len(current.links) >= 2 or (current.links and consumed is not None):
                chains.append(Chain(block, list(current.links), facts, list(block.statements[start:end]), consumed))

        for position, statement in enumerate(block.statements):
            if statement.kind != "launch":
                between.append(statement)
                continue
            site = statement.launch
            kernel = kernel_of(site)
            stage = stage_of(site, kernel)
            reason = None
            types = instantiation(kernel, site.template_args, parsed, lambda: deduced(parsed, kernel, site.args),
                                  lambda written, at=site.span: ctx.facts.get(HostValues).type_arguments(written, at)) \
                if isinstance(stage, Stage) else {}
            if isinstance(types, str):
                stage = Refusal(site.kernel, types)
            link = Link(site, kernel, stage, _arguments(kernel, site), types) if isinstance(stage, Stage) else None
            if previous is None:
                pass
            elif not current.links:
                reason = blocked
            elif link is not None:
                reason = _cannot_join(current, link, between)
            elif isinstance(kernel, Refusal):
                reason = f"{site.kernel}: {kernel.reason}"
            else:
                found = consumer_of(site, kernel)
                consumed = Consumed(site, kernel, found, _arguments(kernel, site)) \
                    if isinstance(found, Consumer) else None
                why = None if consumed is None else _cannot_consume(current, consumed, between, facts)
                if consumed is not None and why is None:
                    close(position + 1, consumed)
                    current, previous, between = _Run(facts), site, []
                    blocked = f"{site.kernel} ends the chain before it (it reduces what that chain computes), and " \
                              "no chain continues past a reduction"
                    continue
                reason = f"{site.kernel} is not elementwise: {stage.reason}" if consumed is None else \
                    f"{site.kernel} is not elementwise ({stage.reason}) and does not only reduce what the chain " \
                    f"computes: {why}"
            if reason is None and previous is not None:
                current.add(link)
            else:
                if reason:
                    refuse(ctx, site, f" with the launch of {previous.kernel} before it", reason)
                close(position)
                current = _Run(facts)
                if link is not None:
                    current.add(link)
                start = position
            previous = site
            # Why no launch can join this one: said at the next launch, whatever it is.
            blocked = None if isinstance(stage, Stage) else f"{site.kernel}: {kernel.reason}" \
                if isinstance(kernel, Refusal) else f"{site.kernel} is not elementwise: {stage.reason}"
            between = []
        close(len(block.statements))
    return chains


class _Lazy:
    """The function's Pointers, computed when a check first asks (a walk of the whole
    function, which most blocks never need)."""

    def __init__(self, compute):
        self._compute, self._value = compute, None

    def __getattr__(self, name: str):
        if self._value is None:
            self._value = self._compute()
        return getattr(self._value, name)


def _arguments(kernel: Kernel, site: LaunchSite) -> dict[str, str]:
    return {p.name: a.text for p, a in zip(kernel.params, site.args)}


def _config(site: LaunchSite) -> tuple[str, str, str, str]:
    return (squeeze(site.grid.text), squeeze(site.block.text),
            squeeze(site.shared_mem.text) if site.shared_mem else "0",
            squeeze(site.stream.text) if site.stream else "0")


def substituted_bound(link: Link) -> str:
    """The guard's bound with the launch's arguments in place of the parameters."""
    stage = link.stage
    bound = _with_arguments(stage.bound, stage.bound_span[0], stage.bound_names, link.args)
    if stage.form == "guard-2d":         # the columns' bound, then the rows'
        bound += " and " + _with_arguments(stage.bound_y, stage.bound_y_span[0], stage.bound_y_names, link.args)
    return bound


def _with_arguments(text: str, base: int, names, args: dict[str, str]) -> str:
    """A bound (`text` at file offset `base`, its parameter names with their spans) with
    the launch's arguments in place of the parameters, as compared: no white space."""
    def argument(name: str) -> str:
        value = squeeze(args.get(name, name))
        return value if value.isidentifier() or value.replace(".", "").isalnum() else f"({value})"
    return squeeze(substitute(text.encode(), base, names, argument).decode())


def _cannot_follow(chain: _Run, site: LaunchSite, name: str, index_type: str, between: list[Statement]) \
        -> str | None:
    """What stops any launch from following the chain: something between the launches,
    another configuration, another index type, or an argument modified before the end."""
    for statement in between:
        if statement.kind == "barrier":
            return f"{statement.what} between the launches"
    first = chain.links[0]
    config, other = _config(first.site), _config(site)
    for what, a, b in zip(("grids", "block sizes", "dynamic shared memory sizes", "streams"), config, other):
        if a != b:
            return f"the {what} differ ({a} and {b})"
    if config[2] != "0":
        return "the launches ask for dynamic shared memory"
    if squeeze(index_type).replace("const", "") != squeeze(first.stage.index_type).replace("const", ""):
        return f"the index types differ ({first.stage.index_type} in {first.kernel.name}, {index_type} in {name})"
    assigned = set().union(*(s.assigns for s in between)) if between else set()
    earlier = chain.first_to_use(assigned)
    if earlier is not None:
        hit = sorted(chain.names[earlier] & assigned)
        return f"'{hit[0]}', an argument of the launch of {chain.links[earlier].kernel.name}, is modified " \
               "between the launches"
    return None


def _cannot_join(chain: _Run, link: Link, between: list[Statement]) -> str | None:
    """Why `link` cannot join the chain, or None."""
    why = _cannot_follow(chain, link.site, link.kernel.name, link.stage.index_type, between)
    if why:
        return why
    first = chain.links[0]
    if link.stage.form != first.stage.form:
        return f"{first.kernel.name} is a {first.stage.form} kernel and {link.kernel.name} a {link.stage.form} one"
    if link.stage.form == "guard-2d":
        why = _row_widths_differ(first, link)
        if why:
            return why
    if substituted_bound(link) != chain.bound:
        return f"the guards differ: {first.kernel.name} runs where the index < {chain.bound}, " \
               f"{link.kernel.name} where it is < {substituted_bound(link)}"
    return chain.aliasing(link)


def _row_widths_differ(first: Link, link: Link) -> str | None:
    """Why two two-dimensional stages may not address the same element at `y * width + x`:
    their widths (one parameter each, equal arguments once the bounds are compared) are
    declared of different types, in which the products may differ."""
    def width_type(one: Link) -> str:
        param = next(p for p in one.kernel.params if p.name == one.stage.bound)
        return " ".join(one.types.get(w, w) for w in _NAME.findall(param.type_text) if w != "const")
    a, b = width_type(first), width_type(link)
    if a != b:
        return f"the widths of the rows differ in type ({first.stage.bound} in {first.kernel.name}, " \
               f"{link.stage.bound} in {link.kernel.name})"
    return None


def _cannot_consume(chain: _Run, consumed: Consumed, between: list[Statement], facts: Pointers) -> str | None:
    """Why the consumer cannot end the chain, or None: it must read what the chain
    writes only at its own index and under the chain's guard, write none of it, and
    touch nothing else that the chain's buffers may overlap."""
    found = consumed.consumer
    why = _cannot_follow(chain, consumed.site, consumed.kernel.name, found.index_type, between)
    if why:
        return why
    first = chain.links[0]
    if first.stage.form != "guard":
        return f"{first.kernel.name} is a grid-stride kernel: a reduction cannot take its loop"
    used = chain.used
    written = {k for k, modes in used.items() if modes & _WRITES}
    bound = chain.bound
    for param in consumed.kernel.params:
        if not param.is_pointer:
            continue
        key = squeeze(consumed.args.get(param.name, ""))
        if key in written:
            if param.name in found.other_uses:
                return f"it uses {param.name} other than as {param.name}[{found.index}]"
            for access in (a for a in found.accesses if a.param == param.name):
                if access.mode != "read":
                    return f"it writes {param.name}[{found.index}], which the chain computes"
                if not any(_bound_with_arguments(b, consumed.args) == bound for b in access.bounds):
                    return f"it reads {param.name}[{found.index}] outside a guard {found.index} < {bound}"
        else:
            for other in sorted(used):
                if other != key and not _distinct(key, other, facts) or other == key and key not in written \
                        and (param.name in found.other_uses or any(a.mode != "read" for a in found.accesses
                                                                     if a.param == param.name)):
                    return f"'{key}' may point into the same memory as '{other}' " \
                           f"({_why_not_distinct(key, other, facts)})"
    return None


def _bound_with_arguments(bound, args: dict[str, str]) -> str:
    """A guard bound of a consumer (text, span, names) with the launch's arguments in place."""
    text, span, names = bound
    return _with_arguments(text, span[0], names, args)


def _names_in(site: LaunchSite) -> set[str]:
    texts = [site.grid.text, site.block.text] + [a.text for a in site.args]
    texts += [site.shared_mem.text] if site.shared_mem else []
    texts += [site.stream.text] if site.stream else []
    return {w for t in texts for w in _NAME.findall(t)}


def buffers(links: list[Link]) -> dict[str, set[str]]:
    """Each pointer argument (as compared: no white space) and the modes it is used in."""
    out: dict[str, set[str]] = {}
    for link in links:
        for key, modes in _link_buffers(link).items():
            out.setdefault(key, set()).update(modes)
    return out


def _link_buffers(link: Link) -> dict[str, set[str]]:
    """buffers() of one link."""
    pointer_params = {p.name for p in link.kernel.params if p.is_pointer}
    modes: dict[str, set[str]] = {}
    for access in link.stage.accesses:
        modes.setdefault(access.param, set()).add(access.mode)
    out: dict[str, set[str]] = {}
    for name in pointer_params:
        out.setdefault(squeeze(link.args.get(name, "")), set()).update(modes.get(name, set()))
    return out


_WRITES = frozenset({"write", "readwrite"})


class _Run:
    """The chain being grown, and what its links use, kept as it grows, so that checking
    a launch against the chain costs what that launch adds, not the chain's length: the
    names each launch mentions and the first link that mentions each; each pointer
    argument with its modes (buffers()); and for the aliasing check, per provenance
    class (_provenance), the two smallest pointer arguments used and the two smallest
    written, and the same per local that one allocation sets, for the arguments that
    point into it (`y`, `&y[off]`, `y+off`: Pointers.base_of)."""

    def __init__(self, facts: Pointers):
        self.facts = facts
        self.links: list[Link] = []
        self.names: list[set[str]] = []
        self._first: dict[str, int] = {}
        self.used: dict[str, set[str]] = {}
        self.bound = ""
        self._smallest: tuple[dict[int, list[str]], dict[int, list[str]]] = ({}, {})
        self._checked = False        # every pair of the chain's pointer arguments passed the aliasing check
        self._pending: tuple | None = None
        # Per local that one allocation sets, the two smallest of the chain's pointer
        # arguments into it (`y`, `&y[off]`, `y+1`) used, and written: two different ones
        # may overlap, whatever their classes say.
        self._bases: tuple[dict[str, list[str]], dict[str, list[str]]] = ({}, {})

    def first_to_use(self, names: set[str]) -> int | None:
        """The position of the first link whose launch mentions one of `names`."""
        return min((self._first[n] for n in names if n in self._first), default=None)

    def aliasing(self, link: Link) -> str | None:
        """Why the chain with `link` added would write memory that another of its pointer
        arguments may reach: the first such pair (the written one, then the other, in
        sorted order) of what every pair of the pointer arguments of the chain and
        `link` gives, or None. The pairs of the chain without `link` passed when it
        grew (a chain of one link has not been checked yet), so only the pairs that hold
        an argument `link` adds or first writes are looked at, through the two smallest
        arguments of each class."""
        added = _link_buffers(link)
        changed = set()
        for key, modes in added.items():
            had = self.used.get(key)
            if had is None or (modes & _WRITES and not had & _WRITES):
                changed.add(key)
        used = {**self.used}
        for key, modes in added.items():
            used[key] = used.get(key, set()) | modes
        if self._checked:
            smallest_used = {k: list(v) for k, v in self._smallest[0].items()}
            smallest_written = {k: list(v) for k, v in self._smallest[1].items()}
        else:
            changed, smallest_used, smallest_written = set(used), {}, {}
        for key in changed:
            kind = _provenance(key, self.facts)
            if key not in self.used or not self._checked:
                _keep_smallest(smallest_used, kind, key)
            if used[key] & _WRITES:
                _keep_smallest(smallest_written, kind, key)
        # The per-base tables after this link: only the bases it changes are copied.
        base_used, base_written = self._bases if self._checked else ({}, {})
        bases_used, bases_written = {}, {}
        for key in changed:
            base = self.facts.base_of(key)
            if base is None:
                continue
            if key not in self.used or not self._checked:
                bases_used.setdefault(base, list(base_used.get(base, ())))
                _keep_smallest(bases_used, base, key)
            if used[key] & _WRITES:
                bases_written.setdefault(base, list(base_written.get(base, ())))
                _keep_smallest(bases_written, base, key)
        self._pending = (link, used, (smallest_used, smallest_written), (bases_used, bases_written))
        pairs = []
        for key in changed:
            kind = _provenance(key, self.facts)
            if used[key] & _WRITES:
                other = _first_other(key, kind, smallest_used)
                if other is not None:
                    pairs.append((key, other))
            written = _first_other(key, kind, smallest_written)
            if written is not None:
                pairs.append((written, key))
            base = self.facts.base_of(key) if kind & _FRESH else None
            if base is not None:
                same_used = bases_used.get(base, base_used.get(base, ()))
                same_written = bases_written.get(base, base_written.get(base, ()))
                other = next((k for k in same_used if k != key), None) if used[key] & _WRITES else None
                if other is not None:
                    pairs.append((key, other))
                written = next((k for k in same_written if k != key), None)
                if written is not None:
                    pairs.append((written, key))
        if not pairs:
            return None
        w, other = min(pairs)
        return f"'{w}' is written and '{other}' may point into the same memory " \
               f"({_why_not_distinct(w, other, self.facts)})"

    def add(self, link: Link) -> None:
        """The link joins the chain (after aliasing() passed it, or as the first)."""
        if self._pending is not None and self._pending[0] is link:
            _, self.used, self._smallest, (bases_used, bases_written) = self._pending
            if not self._checked:
                self._bases = ({}, {})
            self._bases[0].update(bases_used)
            self._bases[1].update(bases_written)
            self._checked = True
        else:
            for key, modes in _link_buffers(link).items():
                self.used.setdefault(key, set()).update(modes)
        self._pending = None
        if not self.links:
            self.bound = substituted_bound(link)
        names = _names_in(link.site)
        for name in names:
            self._first.setdefault(name, len(self.links))
        self.links.append(link)
        self.names.append(names)


# Provenance classes of a pointer argument: an expression that is not a name (it may point
# anywhere), or a name by three bits: set by one allocation of the function (fresh), a
# parameter, declared __restrict__.
_NOT_A_NAME = 8
_FRESH, _PARAMETER, _RESTRICTED = 1, 2, 4


def _why_not_distinct(a: str, b: str, facts: Pointers) -> str:
    """The aliases fact's reason (translator.facts.aliases: Pointers.distinct)."""
    if a == b:
        return "the same buffer"
    answer = facts.distinct(a, b)
    return answer.reason if not answer.known else "not provably distinct allocations"


def _distinct(a: str, b: str, facts: Pointers) -> bool:
    """Are the pointer arguments `a` and `b` provably different memory (_distinct_classes,
    and not two pointers into one allocation)?"""
    if a != b and facts.base_of(a) is not None and facts.base_of(a) == facts.base_of(b):
        return False
    return _distinct_classes(_provenance(a, facts), _provenance(b, facts))


def _provenance(key: str, facts: Pointers) -> int:
    if not key.isidentifier():
        # A pointer into a local that one allocation sets, at an offset (`&x[off]`, `x+off`),
        # stays in that allocation: fresh, against every class; against another pointer into
        # the same local, the per-base check of _Run.aliasing and _distinct say.
        return _FRESH if facts.base_of(key) is not None else _NOT_A_NAME
    return (_FRESH if key in facts.allocated else 0) | (_PARAMETER if key in facts.parameters else 0) \
        | (_RESTRICTED if key in facts.restricted else 0)


def _distinct_classes(a: int, b: int) -> bool:
    """Provably different memory: a local that one allocation of this function sets
    cannot be reached through a parameter (whose value predates it) or through another
    such local; two __restrict__ parameters are distinct by the caller's promise. (By
    the classes of the two names: the check depends on nothing else.)"""
    if a == _NOT_A_NAME or b == _NOT_A_NAME:
        return False
    if a & _FRESH and b & (_FRESH | _PARAMETER) or b & _FRESH and a & _PARAMETER:
        return True
    return bool(a & _RESTRICTED and b & _RESTRICTED)


_OVERLAPPING = {a: tuple(b for b in range(_NOT_A_NAME + 1) if not _distinct_classes(a, b))
                for a in range(_NOT_A_NAME + 1)}


def _keep_smallest(table: dict, kind, key: str) -> None:
    """Add `key` to the class's (or the base's) list of its two smallest arguments."""
    kept = table.setdefault(kind, [])
    if key not in kept:
        kept.append(key)
        kept.sort()
        del kept[2:]


def _first_other(key: str, kind: int, table: dict[int, list[str]]) -> str | None:
    """The smallest argument of `table` other than `key` that may overlap it."""
    found = [next((k for k in table.get(other, ()) if k != key), None) for other in _OVERLAPPING[kind]]
    return min((k for k in found if k is not None), default=None)
