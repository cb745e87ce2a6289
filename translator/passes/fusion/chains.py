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
    each kernel is elementwise (translator.ir.elementwise) in the same shape (a guard, or
    a grid-stride loop), with index variables of one type and guards against the same
    bound once the arguments are substituted; no name a launch uses is assigned before
    the chain's last launch (the fused launch is made there); and every two different
    pointers of which one is written are provably distinct allocations: locals that
    only one cudaMalloc or cudaMallocManaged sets, or parameters declared __restrict__.
Not handled:
    Chains across blocks, branches or loops (a chain inside a loop body is one block and
    is handled); template kernels; kernels in macros.
Example:
    k1<<<g, b>>>(x, y, n); cudaMemcpy(...); k2<<<g, b>>>(y, z, n);
    ->  F002 at k2: "not fused with k1: a call of cudaMemcpy between the launches"
Safety:
    no edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from translator.catalog import NOTE, rule
from translator.ir import Kernel, LaunchSite, Module
from translator.ir.elementwise import Refusal, Stage, analyse, device_functions, squeeze, substitute
from translator.ir.statements import Block, Pointers, Statement, launch_blocks, pointers
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
    options=("--target", "cuda"))


@dataclass
class Link:
    """One launch of a chain: the site, its kernel, the kernel as a stage, and each
    parameter's argument as written."""
    site: LaunchSite
    kernel: Kernel
    stage: Stage
    args: dict[str, str]


@dataclass
class Chain:
    block: Block
    links: list[Link]
    pointers: Pointers
    statements: list[Statement] = field(default_factory=list)   # the first launch's to the last's


def find_chains(ctx, parsed: ParsedFile, module: Module) -> list[Chain]:
    """The fusable chains of the file, reporting F002 for each launch that cannot join
    the chain before it."""
    blocks = launch_blocks(parsed, module)
    if not blocks:
        return []
    helpers = device_functions(parsed)
    stages: dict[str, Stage | Refusal] = {}

    def stage_of(site: LaunchSite) -> tuple[Kernel | None, Stage | Refusal]:
        kernels = [k for k in module.kernels_by_name.get(site.kernel, []) if k.body_span is not None]
        if len(kernels) != 1:
            return None, Refusal(site.kernel, "its definition is not in this file" if not kernels
                                 else "it is overloaded")
        if site.kernel not in stages:
            stages[site.kernel] = analyse(parsed, kernels[0], helpers)
        return kernels[0], stages[site.kernel]

    chains = []
    for block in blocks:
        facts = pointers(parsed, block.function_span) if block.function_span else Pointers(
            frozenset(), frozenset(), frozenset(), {})
        current: list[Link] = []
        previous: LaunchSite | None = None
        start = 0
        between: list[Statement] = []
        for position, statement in enumerate(block.statements):
            if statement.kind != "launch":
                between.append(statement)
                continue
            site = statement.launch
            kernel, stage = stage_of(site)
            link = None
            if isinstance(stage, Stage):
                link = Link(site, kernel, stage, _arguments(kernel, site))
            reason = None
            if previous is not None:
                if isinstance(stage, Refusal):
                    reason = f"{site.kernel} is not elementwise: {stage.reason}"
                elif not current:
                    reason = f"{previous.kernel} is not elementwise: {stages[previous.kernel].reason}" \
                        if isinstance(stages.get(previous.kernel), Refusal) else f"{previous.kernel} cannot be fused"
                else:
                    reason = _cannot_join(current, link, between, facts)
            if reason is not None and ctx.round > 0:
                reason = ""         # said in the first round, of the input's code
            if previous is not None and reason is None:
                current.append(link)
            else:
                if reason:
                    ctx.report(NOT_FUSED, site.span[0], f"launch of {site.kernel} not fused with the launch of "
                               f"{previous.kernel} before it: {reason}", end=site.config_span[1],
                               subject=site.kernel)
                if len(current) >= 2:
                    chains.append(Chain(block, current, facts, list(block.statements[start:position_of_last(
                        block, current[-1])])))
                current = [link] if link is not None else []
                start = position
            previous = site
            between = []
        if len(current) >= 2:
            chains.append(Chain(block, current, facts,
                                list(block.statements[start:position_of_last(block, current[-1])])))
    return chains


def position_of_last(block: Block, link: Link) -> int:
    """One past the position of the link's launch statement in the block."""
    return next(i for i, s in enumerate(block.statements) if s.launch is link.site) + 1


def _arguments(kernel: Kernel, site: LaunchSite) -> dict[str, str]:
    return {p.name: a.text for p, a in zip(kernel.params, site.args)}


def _config(site: LaunchSite) -> tuple[str, str, str, str]:
    return (squeeze(site.grid.text), squeeze(site.block.text),
            squeeze(site.shared_mem.text) if site.shared_mem else "0",
            squeeze(site.stream.text) if site.stream else "0")


def substituted_bound(link: Link) -> str:
    """The guard's bound with the launch's arguments in place of the parameters."""
    def argument(name: str) -> str:
        text = squeeze(link.args.get(name, name))
        return text if text.isidentifier() or text.replace(".", "").isalnum() else f"({text})"
    stage = link.stage
    return squeeze(substitute(stage.bound.encode(), stage.bound_span[0], stage.bound_names, argument).decode())


def _cannot_join(chain: list[Link], link: Link, between: list[Statement], facts: Pointers) -> str | None:
    """Why `link` cannot join the chain, or None."""
    for statement in between:
        if statement.kind == "barrier":
            return f"{statement.what} between the launches"
    first = chain[0]
    config, other = _config(first.site), _config(link.site)
    for what, a, b in zip(("grids", "block sizes", "dynamic shared memory sizes", "streams"), config, other):
        if a != b:
            return f"the {what} differ ({a} and {b})"
    if config[2] != "0":
        return "the launches ask for dynamic shared memory"
    if link.stage.form != first.stage.form:
        return f"{first.kernel.name} is a {first.stage.form} kernel and {link.kernel.name} a {link.stage.form} one"
    if squeeze(link.stage.index_type).replace("const", "") != squeeze(first.stage.index_type).replace("const", ""):
        return f"the index types differ ({first.stage.index_type} and {link.stage.index_type})"
    if substituted_bound(link) != substituted_bound(first):
        return f"the guards differ: {first.kernel.name} runs where the index < {substituted_bound(first)}, " \
               f"{link.kernel.name} where it is < {substituted_bound(link)}"
    assigned = set().union(*(s.assigns for s in between)) if between else set()
    for earlier in chain:
        used = _names_in(earlier.site)
        hit = sorted(used & assigned)
        if hit:
            return f"'{hit[0]}', an argument of the launch of {earlier.kernel.name}, is modified between the launches"
    return _aliasing(chain + [link], facts)


def _names_in(site: LaunchSite) -> set[str]:
    import re
    texts = [site.grid.text, site.block.text] + [a.text for a in site.args]
    texts += [site.shared_mem.text] if site.shared_mem else []
    texts += [site.stream.text] if site.stream else []
    return {w for t in texts for w in re.findall(r"[A-Za-z_]\w*", t)}


def buffers(links: list[Link]) -> dict[str, set[str]]:
    """Each pointer argument (as compared: no white space) and the modes it is used in."""
    out: dict[str, set[str]] = {}
    for link in links:
        pointer_params = {p.name for p in link.kernel.params if p.is_pointer}
        modes: dict[str, set[str]] = {}
        for access in link.stage.accesses:
            modes.setdefault(access.param, set()).add(access.mode)
        for name in pointer_params:
            key = squeeze(link.args.get(name, ""))
            out.setdefault(key, set()).update(modes.get(name, set()))
    return out


def _aliasing(links: list[Link], facts: Pointers) -> str | None:
    used = buffers(links)
    written = sorted(k for k, modes in used.items() if modes & {"write", "readwrite"})
    for w in written:
        for other in sorted(used):
            if other == w or _distinct(w, other, facts):
                continue
            return f"'{w}' is written and '{other}' may point into the same memory (they are not provably " \
                   "distinct allocations: locals set by one cudaMalloc, or __restrict__ parameters)"
    return None


def _distinct(a: str, b: str, facts: Pointers) -> bool:
    if not (a.isidentifier() and b.isidentifier()):
        return False
    known = facts.allocated | facts.restricted
    if a in facts.allocated and b in known or b in facts.allocated and a in known:
        return True
    return a in facts.restricted and b in facts.restricted
