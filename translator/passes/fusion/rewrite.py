"""F001: a chain of elementwise launches becomes one launch of a fused kernel.

What it does:
    Renders one kernel from templates/fused_elementwise.cu.j2 for the chain: the
    parameters are merged (one parameter per distinct argument, named after the first
    kernel parameter it is passed to), one guard (or one grid-stride loop, or one
    two-dimensional guard, whose buffers are read and stored at `y * width + x`) holds each kernel's guarded body in
    its own block, in launch order, with the kernel's parameters and index renamed;
    each buffer becomes a register, read once where the chain reads it before writing it
    and stored once at the end. The kernel is inserted once per file, after the last of
    the chain's kernels; every launch of the chain but the last is removed and the last
    becomes the fused launch, with the same configuration. The original kernels stay.
    A store is dropped only when it is provably dead: the buffer is a local of the
    launching function that nothing but the chain's launches, its allocation and its
    cudaFree mention, and the chain writes it before reading it. The fix's reason and a
    comment above the fused kernel say which stores were dropped and why.
Legal when:
    The chain is legal (translator.passes.fusion.chains), and the kernels are defined
    before the function that launches them.
Not handled:
    A chain whose kernels are defined after the launching function: F002.
Example:
    scale<<<g, b>>>(x, y, n); shift<<<g, b>>>(y, z, n);
    ->  fused_scale_shift<<<g, b>>>(x, y, n, z);
Safety:
    semantic: the chain's work is done in one kernel, in a different order across
    threads; results are the same under the legality conditions.
"""

from __future__ import annotations

import bisect
import re

from translator.catalog import NOTE, rule
from translator.edits import Edit
from translator.frontend import parse
from translator.ir.elementwise import squeeze, substitute
from translator.passes.fusion.chains import Chain, Link, buffers, refuse
from translator.render import render

FUSED = rule(
    "F001", "fuse-chain", NOTE, "a chain of elementwise launches becomes one launch of a fused kernel", """
Each launch costs a few microseconds and each intermediate buffer a round trip through
device memory. Consecutive launches of elementwise kernels (every thread reads and writes
only its own element, under the same guard) on one stream, with nothing between them
that touches the device, do the same work as one kernel that runs their bodies one after
another in each thread. That kernel is generated from a template, inserted after the
last of the chain's kernels (which stay), and launched once in place of the chain.
Intermediate values pass through registers; their stores to memory stay unless the
buffer is provably dead after the chain. `--no-fuse` turns this off.""",
    edits=True, safe=False,
    example="__global__ void scale(const float *x, float *y, float a, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = a * x[i];\n}\n"
            "__global__ void shift(const float *y, float *z, float b, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) z[i] = y[i] + b;\n}\n"
            "void run(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z, int n) {\n"
            "    scale<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);\n"
            "    shift<<<(n + 255) / 256, 256>>>(y, z, 1.0f, n);\n}\n",
    translation="__global__ void scale(const float *x, float *y, float a, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = a * x[i];\n}\n"
                "__global__ void shift(const float *y, float *z, float b, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) z[i] = y[i] + b;\n}\n\n"
                "// cu2hip: fused_scale_shift does the work of scale, shift, launched one after another in run\n"
                "__global__ void fused_scale_shift(const float *x, float *y, float a, int n, float *z, float b)\n"
                "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {\n"
                "        float x_v = x[i];\n        float y_v;\n        float z_v;\n"
                "        {   // scale\n            y_v = a * x_v;\n        }\n"
                "        {   // shift\n            z_v = y_v + b;\n        }\n"
                "        y[i] = y_v;\n        z[i] = z_v;\n    }\n}\n"
                "void run(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z, int n) {\n"
                "    fused_scale_shift<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n, z, 1.0f);\n}\n",
    options=("--target", "cuda", "--ignore", "L"), topic="fusion")

_WORD = re.compile(r"(?<![\w.])(?<!->)[A-Za-z_]\w*")       # a name, not a member's
_RESERVED = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "float", "double", "int",
                       "auto", "const", "void", "return", "if", "for", "while"})


class _Param:
    """One parameter of the fused kernel: the argument it stands for and its declaration."""

    def __init__(self, name: str, argument: str, declaration: str, pointer: bool, base: str):
        self.name, self.argument, self.declaration = name, argument, declaration
        self.pointer, self.base = pointer, base


def fuse(ctx, chain: Chain, taken: set[str], inserted: dict[str, str]) -> None:
    """Offer the F001 fix for one chain (or an F002 note where the rewrite cannot be
    made). `taken`: the file's words and the kernel names already generated (a fused
    kernel's name is new to the file); `inserted`: the fused kernels already inserted in
    this file (text with its name left out -> name)."""
    data = ctx.source.data
    links = chain.links
    launched = links + ([chain.consumer] if chain.consumer else [])
    last_kernel_end = max(link.kernel.span[1] for link in launched)
    if chain.block.function_span is not None and last_kernel_end > chain.block.function_span[0]:
        refuse(ctx, links[-1].site, " with the launches before it",
               "the kernels are defined after the function that launches them")
        return
    # The fused kernel's own names shadow only what its stages mention.
    avoid = set()
    for link in links:
        avoid |= _mentioned(data, [link.stage.statements], link.kernel, link.stage.index, link.stage.index_y)
    if chain.consumer:
        found = chain.consumer.consumer
        avoid |= _mentioned(data, filter(None, (found.prefix, found.rest)), chain.consumer.kernel, found.index)
    params, by_link = _merge_parameters(data, launched, avoid)
    if isinstance(params, str):
        refuse(ctx, links[-1].site, " with the launches before it", params)
        return
    avoid |= {p.name for p in params}
    index = _fresh(links[0].stage.index, avoid | set().union(*(l.stage.locals for l in links)) |
                   (chain.consumer.consumer.locals if chain.consumer else set()))
    avoid.add(index)
    first = links[0]
    index_y = ""
    if first.stage.form == "guard-2d":
        index_y = _fresh(first.stage.index_y, avoid | set().union(*(l.stage.locals for l in links)))
        avoid.add(index_y)
    registers, dropped = _registers(chain, params, by_link, avoid)
    stages = [{"kernel": link.kernel.name, "body": _stage_body(data, link, by_link[i], registers, index, index_y)}
              for i, link in enumerate(links)]
    bound = substitute(first.stage.bound.encode(), first.stage.bound_span[0], first.stage.bound_names,
                       lambda name: by_link[0][name].name).decode()
    bound_y = substitute(first.stage.bound_y.encode(), first.stage.bound_y_span[0], first.stage.bound_y_names,
                         lambda name: by_link[0][name].name).decode() if index_y else ""
    element = f"{index_y} * {bound} + {index}" if index_y else index
    kernels = [link.kernel.name for link in launched]
    name = _fresh("fused_" + "_".join(dict.fromkeys(kernels)), avoid | taken)
    values = dict(kernels=kernels, origin=chain.block.function or "the file", form=first.stage.form,
                  index=index, index_type=first.stage.index_type, bound=bound, index_y=index_y, bound_y=bound_y,
                  element=element,
                  params=[p.declaration for p in params], stages=stages,
                  registers=list(registers.values()),
                  notes=[f"{b}[{index}] is not stored: {why}" for b, why in dropped])
    template = "fused_elementwise.cu.j2"
    if chain.consumer:
        template = "fused_map_reduce.cu.j2"
        values.update(_consumer_values(data, chain, by_link[-1], registers, index))
    text = render(template, name=name, **values)
    key = render(template, name="@", **dict(values, origin="@"))
    if key in inserted:
        name = inserted[key]
    elif parse(text.encode()).root_node.has_error:
        refuse(ctx, links[-1].site, "", "internal error: the fused kernel does not parse; please report this")
        return
    edits = []
    if key not in inserted:
        inserted[key] = name
        taken.add(name)
        newline = ctx.source.newline.decode()
        body = text.rstrip("\n").replace("\n", newline)
        edits.append(Edit(last_kernel_end, last_kernel_end, (newline + newline + body).encode()))
    statements = {id(s.launch): s.span for s in chain.statements if s.kind == "launch"}
    for link in launched[:-1]:
        edits.append(_remove_statement(data, statements[id(link.site)]))
    last = launched[-1].site
    arguments = ", ".join(p.argument for p in params)
    config = data[last.config_span[0]:last.config_span[1]].decode("utf-8", "replace")
    edits.append(Edit(last.span[0], last.span[1], f"{name}{config}({arguments})".encode()))
    stored = [p.name for p in params if p.pointer and registers.get(p.name, {}).get("store")]
    reason = f"fused {', '.join(kernels)} into {name}: one launch instead of {len(launched)}"
    if chain.consumer:
        reason += f", {chain.consumer.kernel.name} reading the values of the others from registers"
    if dropped:
        reason += "; " + "; ".join(f"{b} is not stored: {why}" for b, why in dropped)
    elif stored:
        reason += f"; every store kept ({', '.join(stored)})"
    made = ctx.fix(FUSED, tuple(sorted(edits, key=lambda e: (e.start, e.end))), reason)
    if made is not None:
        ctx.report(FUSED, last.span[0], reason, end=last.config_span[1], fix=made, subject=last.kernel)


def _mentioned(data: bytes, spans, kernel, index: str, index_y: str = "") -> set[str]:
    """The names the code at `spans` mentions, less the kernel's parameters and its
    indices (which the fused kernel renames)."""
    renamed = {p.name for p in kernel.params} | {index, index_y}
    return {w for lo, hi in spans for w in _WORD.findall(data[lo:hi].decode("utf-8", "replace"))} - renamed


def _fresh(name: str, taken: set[str]) -> str:
    while name in taken or name in _RESERVED:
        name += "_"
    return name


def _base_type(declaration: str, name: str) -> str:
    """`float` for `const float *__restrict__ x`: the declaration without its name,
    qualifiers and declarator punctuation."""
    words = [w for w in _WORD.findall(declaration) if w not in ("const", "volatile", "__restrict__", "__restrict",
                                                                "restrict", name)]
    return " ".join(words)


def _merge_parameters(data: bytes, links: list[Link], avoid: set[str]):
    """The fused kernel's parameters, and for each link a map from its parameter names
    to them; or the reason they cannot be merged."""
    params: list[_Param] = []
    by_key: dict[tuple, _Param] = {}
    elementwise = [link for link in links if isinstance(link, Link)]
    written = {k for k, modes in buffers(elementwise).items() if modes & {"write", "readwrite"}}
    by_link = []
    used_names = set(avoid)
    for link in links:
        mapping = {}
        for param, argument in zip(link.kernel.params, link.site.args):
            declaration = _instantiated(" ".join(data[param.span[0]:param.span[1]].decode("utf-8", "replace").split()),
                                        getattr(link, "types", {}))
            base = _base_type(declaration, param.name)
            key_text = squeeze(argument.text)
            key = ("pointer", key_text) if param.is_pointer else ("value", key_text, squeeze(base))
            found = by_key.get(key)
            if found is not None:
                if param.is_pointer and squeeze(found.base) != squeeze(base):
                    return f"'{argument.text}' is passed as {found.base}* and as {base}*", None
                if param.is_pointer and "const" in found.declaration.split("*")[0] \
                        and "const" not in declaration.split("*")[0]:
                    found.declaration = _renamed(declaration, param.name, found.name)   # the writer's type
                mapping[param.name] = found
                continue
            name = _fresh(param.name, used_names)     # the kernel's name: chains of the same kernels match
            used_names.add(name)
            made = _Param(name, argument.text, _renamed(declaration, param.name, name), param.is_pointer, base)
            if param.is_pointer and key_text in written and "const" in declaration.split("*")[0]:
                made.declaration = made.declaration.replace("const ", "", 1)
            by_key[key] = made
            params.append(made)
            mapping[param.name] = made
        if len(link.site.args) != len(link.kernel.params):
            return f"the launch of {link.kernel.name} passes {len(link.site.args)} arguments for " \
                   f"{len(link.kernel.params)} parameters", None
        by_link.append(mapping)
    return params, by_link


def _instantiated(text: str, types: dict[str, str]) -> str:
    """A template stage's parameter declaration with each type parameter's name made
    the launch's type."""
    return _WORD.sub(lambda m: types.get(m.group(0), m.group(0)), text) if types else text


def _renamed(declaration: str, old: str, new: str) -> str:
    """The declaration with its last `old` word (the declarator's name) made `new`."""
    matches = [m for m in re.finditer(rf"\b{re.escape(old)}\b", declaration)]
    if not matches:
        return f"{declaration} {new}"
    m = matches[-1]
    return declaration[:m.start()] + new + declaration[m.end():]


def _registers(chain: Chain, params: list[_Param], by_link: list[dict], avoid: set[str]):
    """One register per buffer the chain touches: whether it is loaded first and stored
    at the end; and the stores dropped, with why."""
    registers: dict[str, dict] = {}
    for i, link in enumerate(chain.links):
        for access in link.stage.accesses:
            param = by_link[i][access.param]
            r = registers.get(param.name)
            if r is None:
                r = registers[param.name] = {"buffer": param.name, "type": param.base,
                                             "name": _fresh(f"{param.name}_v", avoid),
                                             "load": not (access.plain_store or access.param in link.stage.stored_first),
                                             "store": False, "dropped": False, "argument": param.argument}
                avoid.add(r["name"])
            if access.mode != "read":
                r["store"] = True
    order = {p.name: k for k, p in enumerate(params)}
    registers = dict(sorted(registers.items(), key=lambda item: order[item[0]]))     # in parameter order
    dropped = []
    for r in registers.values():
        if r["store"] and not r["load"]:
            why = _dead(chain, r["argument"])
            if why:
                r["store"], r["dropped"] = False, True
                dropped.append((r["buffer"], why))
    return registers, dropped


def _dead(chain: Chain, argument: str) -> str | None:
    """Why the chain's stores to `argument` are dead, or None when they may be read."""
    name = squeeze(argument)
    facts = chain.pointers
    if not name.isidentifier() or name not in facts.locals or facts.read_elsewhere(name) \
            or name in facts.changed:
        return None
    launches = [s.span for s in chain.statements if s.kind == "launch"]      # in order, disjoint
    starts = [lo for lo, _ in launches]
    for use in facts.uses.get(name, ()):
        if use.role in ("declare", "allocate", "free"):
            continue
        k = bisect.bisect_right(starts, use.span[0]) - 1
        if k < 0 or use.span[1] > launches[k][1]:
            return None
    return f"{name} is a local of {chain.block.function} that nothing reads after this chain: only its " \
           "allocation, this chain's launches and its cudaFree mention it"


def _stage_body(data: bytes, link: Link, mapping: dict, registers: dict, index: str, index_y: str = "") -> str:
    """The kernel's guarded statements, renamed, re-indented for the template."""
    stage = link.stage
    lo, hi = stage.statements
    replacements = [(name, span) for name, span in stage.names]
    replacements += [("@" + a.param, a.span) for a in stage.accesses]
    replacements += [("<" + name, span) for name, span in stage.type_names]
    replacements.sort(key=lambda r: r[1])

    def new(name: str) -> str:
        if name.startswith("@"):
            return registers[mapping[name[1:]].name]["name"]
        if name.startswith("<"):
            return link.types[name[1:]]
        if name == stage.index:
            return index
        if stage.index_y and name == stage.index_y:
            return index_y
        return mapping[name].name
    return _indented(data, lo, substitute(data[lo:hi], lo, replacements, new).decode("utf-8", "replace"), 12)


def _indented(data: bytes, lo: int, text: str, indent: int) -> str:
    """`text`, which starts at offset `lo` of `data`, with its lines' common indentation
    (the first line's counted from its line's start) made `indent` spaces."""
    line_start = max(data.rfind(b"\n", 0, lo), data.rfind(b"\r", 0, lo)) + 1
    prefix = data[line_start:lo].decode("utf-8", "replace")
    lines = (" " * len(prefix.expandtabs(4)) + text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [line.expandtabs(4).rstrip() for line in lines]
    margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(" " * indent + line[margin:] if line.strip() else "" for line in lines)


def _consumer_values(data: bytes, chain: Chain, mapping: dict, registers: dict, index: str) -> dict:
    """The consumer's declarations before its index and its statements after it, renamed,
    its reads of what the chain writes made reads of the registers."""
    found = chain.consumer.consumer
    written = {name for name, r in registers.items() if r["store"] or r["dropped"]}
    replaced = [("@" + a.param, a.span) for a in found.accesses if mapping[a.param].name in written]
    inside = lambda span: any(lo <= span[0] and span[1] <= hi for _, (lo, hi) in replaced)
    replacements = sorted(replaced + [(n, span) for n, span in found.names if not inside(span)],
                          key=lambda r: r[1])

    def new(name: str) -> str:
        if name.startswith("@"):
            return registers[mapping[name[1:]].name]["name"]
        return index if name == found.index else mapping[name].name

    def piece(span) -> str:
        if span is None:
            return ""
        lo, hi = span
        here = [r for r in replacements if lo <= r[1][0] and r[1][1] <= hi]
        return _indented(data, lo, substitute(data[lo:hi], lo, here, new).decode("utf-8", "replace"), 4)
    return {"consumer": found.kernel, "prefix": piece(found.prefix), "body": piece(found.rest)}


def _remove_statement(data: bytes, span: tuple[int, int]) -> Edit:
    """Remove a statement; with its line when nothing else is on it."""
    start, end = span
    line_start = max(data.rfind(b"\n", 0, start), data.rfind(b"\r", 0, start)) + 1
    line_end = end
    while line_end < len(data) and data[line_end:line_end + 1] in (b" ", b"\t"):
        line_end += 1
    if not data[line_start:start].strip() and data[line_end:line_end + 1] in (b"\n", b"\r", b""):
        if data[line_end:line_end + 2] == b"\r\n":
            line_end += 2
        elif line_end < len(data):
            line_end += 1
        return Edit(line_start, line_end, b"")
    return Edit(start, end, b"")
