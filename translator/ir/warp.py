"""The lane and warp model of device code: what the warp-size pass reads.

For each device function of the file (translator.ir.calls), one walk of its body finds:

- thread values: the names derived from a thread's position (`threadIdx`, `__lane_id()`,
  `thread_rank()`, and locals computed from them), across calls: a helper's parameter is a
  thread value when a caller passes one (iterated over the call graph to a fixed point);
- lane sites: arithmetic that splits a thread value into lanes and warps, on 32
  (`% 32`, `& 31`, `& 0x1f`, `/ 32`, `>> 5`, `blockDim.x / 32` and every other count of
  32-lane warps from `blockDim`, `(blockDim.x + 31) / 32` included, `lane == 31` for a lane of
  32) or on `warpSize` (`% warpSize`, `/ warpSize`, `& (warpSize - 1)`), each with its
  warpSize-generic spelling and whether its value indexes a pointer parameter (a per-warp
  output in global memory, whose layout would change with the warp);
- shuffles: each `__shfl*` call, and what its offset or source lane was written for:
  `"32"` (16, 31, a loop starting at 16 or running to 32, a lane-of-32 value), `"warpSize"`
  (an offset or width from `warpSize`), `"grouped"` (an explicit width of at most 32),
  `"neutral"` (a literal that means the same on any width: 0, 1, 2 ...) or `"unknown"`,
  with the loop that feeds it and the edits that make that loop warpSize-generic;
- votes: the whole-warp operations (`__ballot*`, `__any*`, `__all*`, `__match_*`,
  `__reduce_*`, `__activemask`) that are not a mask argument;
- narrow masks: 32-bit variables initialised with a ballot or `__activemask()` (HIP's are
  64-bit), with every use (`__popc`, `__ffs`, a mask argument, a zero test, other);
- mask arguments of the `*_sync` builtins that are 32-bit and not all ones: a parameter or
  local of a 32-bit type, or a literal or macro of at most 32 bits that is not all ones;
- tiles: `tiled_partition<32>` and `thread_block_tile<32>`;
- header calls: calls of a device function a local header the file includes defines, with
  the lane model of that function's code (its header's own facts), which the caller shares.

`lane_model(facts, component)` says which model a group of functions joined by calls
follows: `"32"` (32-lane groups), `"warpSize"`, `"mixed"` or `"none"`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from functools import cached_property

import tree_sitter as ts

from translator.frontend import ParsedFile, node_at, object_macros
from translator.ir.calls import CallGraph, Function, call_graph
from translator.ir.macros import directive_end, macros as macro_table
from translator.ir.mask_flow import Escape, MaskFlow, follow, wide_type
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Span
from translator.ir.nodes import descendants, initialized, with_parents

SHUFFLES = frozenset(n for n in WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS if n.startswith("__shfl"))
VOTES = frozenset(n for n in WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS
                  if n.startswith(("__ballot", "__any", "__all", "__match", "__reduce", "__activemask")))
MASKED = frozenset(n for n in WARP_SYNC_BUILTINS if n != "__activemask")
_BALLOTS = frozenset(n for n in VOTES if n.startswith(("__ballot", "__activemask")))
_NARROW_TYPES = frozenset({"unsigned", "unsignedint", "uint32_t", "int", "int32_t", "uint", "signed",
                           "signedint", "unsigned32"})
_THREAD_SEEDS = frozenset({"threadIdx", "__lane_id"})
_LITERAL = re.compile(r"(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)[uUlL]*\Z")
_TILE = re.compile(rb"(?:tiled_partition|thread_block_tile)\s*<\s*\Z")
_POPC = {"__popc": "__popcll", "__ffs": "__ffsll"}


@dataclass(frozen=True)
class Edit:
    span: Span
    text: str


@dataclass(frozen=True)
class LaneSite:
    function: str
    kind: str                   # "lane" (% &), "warp" (/ >>: warp index), "warps" (per block), "last" (== 31),
                                # "first" (`threadIdx.x < 32`: a warp or 32 items; it sets no lane model)
    width: str                  # "32" or "warpSize"
    span: Span                  # the whole expression
    text: str
    generic: Edit | None        # the warpSize-generic spelling (for a 32 site)
    feeds_memory: bool          # its value indexes a pointer parameter


@dataclass(frozen=True)
class Shuffle:
    function: str
    name: str
    span: Span
    width_at: int               # where `, width` goes: the end of the last argument
    offset: str                 # the offset, mask or source lane as written
    basis: str                  # "32", "warpSize", "grouped", "neutral", "unknown"
    loop: tuple[Edit, ...] | None   # a loop that feeds the offset: its warpSize-generic edits (empty: none known)
    has_width: bool = False     # a `width` argument is written
    macro: bool = False         # the name is the file's own function-like macro, not the builtin


@dataclass(frozen=True)
class Vote:
    function: str
    name: str
    span: Span
    text: str
    function_span: Span = (0, 0)
    args: tuple[Span, ...] = ()
    held: bool = False          # the value initialises or is assigned to a variable


@dataclass(frozen=True)
class NarrowMask:
    function: str
    name: str
    source: str                 # the builtin that initialises it
    type_span: Span
    type_text: str
    span: Span                  # the declaration
    uses: tuple[tuple[str, Span], ...]   # ("popc" | "ffs" | "mask" | "test" | "other", the use's span)
    value_span: Span = (0, 0)   # the ballot or `__activemask()` call that initialises it
    flow: MaskFlow | None = None    # where its value goes (translator.ir.mask_flow)


@dataclass(frozen=True)
class WideMask:
    """A ballot kept in 64 bits (a variable of a 64-bit type, or the call itself) that is
    counted: `__popc`/`__ffs` of it truncate it or, for `__ffs`, are ambiguous in hipcc."""
    function: str
    source: str                 # the ballot builtin
    name: str                   # the variable, or "" for the call itself
    span: Span                  # the declaration or the call
    flow: MaskFlow


@dataclass(frozen=True)
class MaskArg:
    function: str
    call: str
    span: Span
    text: str
    why: str


@dataclass(frozen=True)
class Tile:
    function: str
    span: Span
    text: str


@dataclass(frozen=True)
class HeaderCall:
    """A call of a device function that a local header the file includes defines: the
    lane model that function's code follows once its own translation is done ("32",
    "warpSize", "mixed"), which the caller's component shares and cannot rewrite."""
    function: str               # the caller, of this file
    callee: str
    header: str                 # the header's path
    model: str


@dataclass(frozen=True)
class WarpFacts:
    graph: CallGraph
    lanes: tuple[LaneSite, ...]
    shuffles: tuple[Shuffle, ...]
    votes: tuple[Vote, ...]
    narrows: tuple[NarrowMask, ...]
    masks: tuple[MaskArg, ...]
    tiles: tuple[Tile, ...]
    wides: tuple[WideMask, ...] = ()
    headers: tuple[HeaderCall, ...] = ()

    @cached_property
    def _by_function(self) -> dict[tuple[str, str], list[tuple[int, object]]]:
        """(kind, function) -> [(place in the kind's tuple, fact)]: within() reads the
        facts of its names only (a filter of every fact per component made a file of N
        independent functions cost N * N)."""
        out: dict[tuple[str, str], list[tuple[int, object]]] = {}
        for kind in _KINDS:
            for i, item in enumerate(getattr(self, kind)):
                out.setdefault((kind, item.function), []).append((i, item))
        return out

    def within(self, names: frozenset[str]) -> "WarpFacts":
        def keep(kind: str) -> tuple:
            found = [p for name in names for p in self._by_function.get((kind, name), ())]
            return tuple(item for _, item in sorted(found, key=lambda p: p[0]))
        return WarpFacts(self.graph, *(keep(kind) for kind in _KINDS))


_KINDS = ("lanes", "shuffles", "votes", "narrows", "masks", "tiles", "wides", "headers")


def lane_model(facts: WarpFacts) -> str:
    """The lane model of facts within() one component: "32" (written for 32-lane warps),
    "warpSize" (written for any width), "mixed" (both), or "none"."""
    uses32 = any(s.width == "32" and s.kind != "first" for s in facts.lanes) or \
        any(s.basis == "32" for s in facts.shuffles) or bool(facts.tiles) or \
        any(h.model in ("32", "mixed") for h in facts.headers)
    uses_w = any(s.width == "warpSize" for s in facts.lanes) or any(s.basis == "warpSize" for s in facts.shuffles) \
        or any(h.model in ("warpSize", "mixed") for h in facts.headers)
    return "mixed" if uses32 and uses_w else "warpSize" if uses_w else "32" if uses32 else "none"


def integer(text: str) -> int | None:
    """The value of an integer literal (suffixes allowed), else None."""
    match = _LITERAL.match(text.replace(" ", ""))
    return int(match.group(1), 0) if match else None


_CEIL_WARPS = re.compile(r"\(blockDim\.x\+(?:31|32-1)\)")
def narrow_type(text: str) -> bool:
    return re.sub(r"\s+|\bconst\b|\bvolatile\b", "", text) in _NARROW_TYPES


def _constant_declaration(frag, data: bytes, declaration: ts.Node) -> bool:
    """Is it `const`/`constexpr` of an integer type, with one declarator of a literal value?"""
    typ, found = declaration.child_by_field_name("type"), initialized(declaration)
    if typ is None or found is None:
        return False
    qualifiers = {frag.text(data, c) for c in declaration.children if c.type == "type_qualifier"}
    value = found[1]
    return bool(qualifiers & {"const", "constexpr"}) and value.type == "number_literal" and \
        re.sub(r"\s+", "", frag.text(data, typ)) in _INTEGER_TYPES and integer(frag.text(data, value)) is not None


_INTEGER_TYPES = _NARROW_TYPES | {"unsignedlong", "long", "size_t", "unsignedlonglong", "longlong", "short",
                                  "unsignedshort", "uint64_t", "int64_t"}


def file_constants(parsed: ParsedFile) -> dict[str, int | None]:
    """Name -> value of the file's integer constants: object-like macros whose every
    definition is one literal (None where two disagree), and namespace-scope `const` or
    `constexpr` integers of a literal value."""
    out: dict[str, int | None] = {}
    for name, body in object_macros(parsed.data):
        value = integer(body.decode("utf-8", "replace").strip().strip("()"))
        key = name.decode("utf-8", "replace")
        out[key] = value if out.get(key, value) == value else None
    frag = parsed.main
    for node in frag.root.named_children:
        if node.type == "declaration" and _constant_declaration(frag, parsed.data, node):
            declarator = node.children_by_field_name("declarator")[0]
            key = frag.text(parsed.data, declarator.child_by_field_name("declarator"))
            value = integer(frag.text(parsed.data, declarator.child_by_field_name("value")))
            out[key] = value if out.get(key, value) == value else None
    return out


def warp_facts(parsed: ParsedFile) -> WarpFacts:
    """The facts of every device function of the file (the fact "warp": computed once per
    round)."""
    from translator.facts import provide
    return provide(parsed, "warp")


def build_warp_facts(parsed: ParsedFile, headers: list[tuple[str, bytes]] = ()) -> WarpFacts:
    """The facts of every device function of the file, computed; `headers`: the local
    headers it includes (path, text), whose device functions' lane models its calls of
    them share (HeaderCall)."""
    graph = call_graph(parsed)
    table = macro_table(parsed)
    # The object-like macros of one definition by their text (a literal's value is read
    # through them); the names any definition makes function-like (that call is the macro's).
    macros = {name: m.body for name, m in table.known().items() if m.object_like}
    defined = frozenset(name for name, found in table.every.items() if any(m.params is not None for m in found))
    constants = file_constants(parsed) if graph.functions else {}
    walks = [_Walk(parsed, f, macros, defined, constants) for f in graph.functions]
    by_name: dict[str, list[_Walk]] = {}
    for w in walks:
        by_name.setdefault(w.function.name, []).append(w)
    changed = True
    marked: set[tuple[str, int]] = set()    # every function of that name has that parameter marked
    while changed:       # a parameter is a thread value when a caller passes one
        changed = False
        for w in walks:
            w.propagate()
            for callee, position in w.thread_arguments():
                if (callee, position) in marked:
                    continue        # (a thread value stays one: marking again changes nothing)
                marked.add((callee, position))
                for target in by_name.get(callee, ()):
                    changed |= target.mark_parameter(position)
    single = {name: ws[0] for name, ws in by_name.items() if len(ws) == 1}
    counting = _counting_macros(parsed, table)
    for w in walks:
        w.helpers = {name: len(h.params) for name, h in single.items()}
        w.helpers.update((name, len(m.params)) for name, (m, _) in counting.items())
    facts = WarpFacts(graph, *(tuple(x for w in walks for x in getattr(w, kind)()) for kind in _KINDS[:-1]),
                      _header_calls(graph, headers))
    if any(n.flow is not None and n.flow.calls for n in facts.narrows):
        facts = dataclasses.replace(facts, narrows=_through_helpers(facts.narrows, walks, single, counting))
    return facts


_COUNT_OF = re.compile(rb"\b(__popc|__ffs)\s*\(\s*(\w+)\s*\)")


def _counting_macros(parsed: ParsedFile, table) -> dict[str, tuple[object, dict[int, tuple[Span, ...]]]]:
    """The function-like macros of the file (one definition, here, not under `#ifndef`) whose
    body counts a parameter and does nothing else with it (`#define LEADER(m) (__ffs(m) - 1)`),
    by name: (the Macro, {parameter position: the spans of its `__popc`/`__ffs` names}). Passed a
    64-bit mask, such a body counts it with `__popcll`/`__ffsll`."""
    out = {}
    data = parsed.data
    for name, macro in table.known().items():
        if macro.object_like or macro.header or macro.overridable or macro.offset < 0 or \
                not ("__popc" in macro.body or "__ffs" in macro.body):
            continue
        end = directive_end(data, macro.offset)
        head = re.compile(rb"#\s*define\s+" + re.escape(name.encode()) + rb"\s*\([^)]*\)").match(data, macro.offset)
        if head is None:
            continue
        body = (head.end(), end)
        positions: dict[int, tuple[Span, ...]] = {}
        for i, param in enumerate(macro.params):
            uses = [m for m in re.finditer(rb"\b" + re.escape(param.encode()) + rb"\b", data[body[0]:body[1]])]
            counts = [m for m in _COUNT_OF.finditer(data, *body) if m.group(2) == param.encode()]
            if uses and len(uses) == len(counts):
                positions[i] = tuple((m.start(1), m.end(1)) for m in counts)
        if positions:
            out[name] = (macro, positions)
    return out


def _through_helpers(narrows: tuple[NarrowMask, ...], walks: list["_Walk"], single: dict[str, "_Walk"],
                     counting: dict) -> tuple[NarrowMask, ...]:
    """The narrow masks' flows followed into the helpers they are passed to (MaskFlow.calls):
    a helper's 32-bit parameter is widened with the masks when the helper uses it only as a
    mask (its own flow from the parameter has no escape and no call) and every call of the
    helper in the file passes, at that place, a mask that is widened too (to a fixed point:
    a mask that cannot be widened leaves its helpers' other callers unwidened). Each
    resolved flow takes in its helpers' edits; an unresolved call is an escape that says why.
    A counting macro (`_counting_macros`) is a helper whose flow is its body's counts, and
    whose every use in the file's text must be such a call."""
    params: dict[tuple[str, int], MaskFlow] = {}
    data = walks[0].data
    for narrow in narrows:
        for helper, position, _ in (narrow.flow.calls if narrow.flow is not None else ()):
            if (helper, position) in params:
                continue
            if helper in counting:
                spans = counting[helper][1].get(position)
                params[(helper, position)] = MaskFlow((), tuple((s, _POPC[data[s[0]:s[1]].decode()]) for s in spans),
                                                      (), (), frozenset({"count"})) if spans else MaskFlow(
                    (), (), (), (Escape((0, 0), helper, f"is used in the body of the macro '{helper}' other than "
                                 "as the argument of __popc/__ffs", f"expand '{helper}' here"),))
            else:
                walk = single[helper]
                name = walk.params[position]
                params[(helper, position)] = follow(walk, MASKED, name, walk.nodes[0][0], parameter=True) \
                    if name and name not in walk.pointer_params else MaskFlow((), (), (), (Escape(
                        walk.span(walk.nodes[0][0]), helper, "takes it as a pointer or unnamed parameter",
                        "pass it to a function that takes unsigned long long"),))
    sites: dict[str, set[tuple[int, Span]]] = {}      # every call of each helper: (argument position, span)
    names = frozenset(n for n, _ in params)
    for w in walks:
        for call, name, args, _ in w.calls(names, macros=True):
            sites.setdefault(name, set()).update((i, w.span(call)) for i in range(len(args)))
    # A macro used where no walk sees it (host code, another macro's body): not every use is known.
    # (Comments and string literals are not uses.)
    quiet = [(n.start_byte, n.end_byte) for n in descendants(walks[0].frag.root)
             if n.type in ("comment", "string_literal", "raw_string_literal", "char_literal")] if counting else []
    unseen = {n for n in names if n in counting and 1 + len({s for _, s in sites.get(n, ())}) != sum(
        1 for m in re.finditer(rb"\b" + re.escape(n.encode()) + rb"\b", data)
        if not any(lo <= m.start() < hi for lo, hi in quiet))}
    why: dict[int, Escape] = {}

    def written(span: Span) -> str:
        return " ".join(walks[0].data[span[0]:span[1]].decode("utf-8", "replace").split())
    ok = {i for i, n in enumerate(narrows) if n.flow is not None and n.flow.calls and not n.flow.escapes}
    changed = True
    while changed:
        changed = False
        covered = {(h, p, span) for i in ok for h, p, span in narrows[i].flow.calls}
        for i in sorted(ok):
            for helper, position, span in narrows[i].flow.calls:
                inner = params[(helper, position)]
                param = counting[helper][0].params[position] if helper in counting else single[helper].params[position]
                if helper in counting and (inner.escapes or helper in unseen):
                    why[i] = Escape(span, written(span), f"is passed to the macro '{helper}'" + (
                        ", whose body uses it other than as the argument of __popc/__ffs" if inner.escapes else
                        ", which the file uses where its arguments are not known to be masks"),
                        f"expand '{helper}' at this use and count the mask with __popcll/__ffsll there, or write "
                        f"__popcll/__ffsll in the body of '{helper}' if every use of it is passed a 64-bit mask")
                elif inner.escapes or inner.calls:
                    first = inner.escapes[0] if inner.escapes else None
                    why[i] = Escape(span, written(span), f"is passed to '{helper}', whose parameter '{param}' " + (
                        f"{first.why} ('{first.text}') there" if first else "is passed on to another function"),
                        (f"in '{helper}', {first.fix}" if first else f"keep '{param}' in '{helper}'") +
                        f"; then declare '{param}' unsigned long long")
                elif any((helper, position, s) not in covered for p, s in sites.get(helper, ()) if p == position):
                    why[i] = Escape(span, written(span), f"is passed to '{helper}', which is also called with a value "
                                    "that is not a widened mask", f"declare '{param}' of '{helper}' unsigned long "
                                    "long and pass it only 64-bit masks (unsigned long long)")
                else:
                    continue
                ok.discard(i)
                changed = True
                break
    out = []
    for i, narrow in enumerate(narrows):
        flow = narrow.flow
        if flow is None or not flow.calls:
            out.append(narrow)
            continue
        if i in ok:
            inner = [params[(h, p)] for h, p in dict.fromkeys((h, p) for h, p, _ in flow.calls)]
            flow = MaskFlow(flow.variables + tuple(v for f in inner for v in f.variables),
                            flow.counts + tuple(c for f in inner for c in f.counts),
                            flow.literals + tuple(x for f in inner for x in f.literals), flow.escapes,
                            flow.kinds.union(*(f.kinds for f in inner)), flow.calls)
        else:
            escape = why.get(i) or next(
                (Escape(span, written(span), f"is passed to '{h}', which it cannot be followed into", "pass it to a function "
                        "that takes unsigned long long") for h, _, span in flow.calls), None)
            flow = dataclasses.replace(flow, escapes=flow.escapes + ((escape,) if escape and not flow.escapes else ()))
        out.append(dataclasses.replace(narrow, flow=flow))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _header_models(text: bytes) -> tuple[tuple[str, str], ...]:
    """(device function, lane model) of a header's text, each header parsed once per process."""
    if b"__device__" not in text and b"__global__" not in text:
        return ()
    from translator.ir.host_values import parsed_header
    facts = build_warp_facts(parsed_header(text))
    out = []
    for name in facts.graph.by_name:
        model = component_model(facts.within(facts.graph.component(name)))
        if model != "none":
            out.append((name, "warpSize" if model == "generic" else model))
    return tuple(out)


def _header_calls(graph: CallGraph, headers: list[tuple[str, bytes]]) -> tuple[HeaderCall, ...]:
    """The calls of the file's device functions whose callee a local header defines (the
    call graph's unknown edges of that name), each with the callee's lane model as the
    header's translation leaves it: a component the warp-size pass rewrites whole is
    "warpSize" there."""
    if not headers or not any(f.unknown for f in graph.functions):
        return ()
    models: dict[str, tuple[str, str]] = {}
    for path, text in headers:
        for name, model in _header_models(text):
            models.setdefault(name, (path, model))
    return tuple(HeaderCall(f.name, callee, *models[callee]) for f in graph.functions for callee, _ in f.unknown
                 if callee in models and callee not in graph.by_name)


class _Walk:
    """One function's body, walked once; the facts are read after the thread values settle."""

    def __init__(self, parsed: ParsedFile, function: Function, macros: dict[str, str],
                 defined: frozenset[str] = frozenset(), constants: dict[str, int | None] | None = None):
        self.parsed, self.function, self.frag, self.data = parsed, function, parsed.main, parsed.data
        node = function.node(parsed)
        self.nodes = list(with_parents(node)) if node is not None else []
        self.parent = {n.id: up for n, up in self.nodes}
        self.params: list[str] = []
        self.param_types: dict[str, str] = {}
        self.param_type_spans: dict[str, Span] = {}
        self.pointer_params: set[str] = set()
        self.helpers: dict[str, int] = {}    # the file's device functions of one definition: their parameter counts
        declarator = node.child_by_field_name("declarator") if node is not None else None
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        plist = declarator.child_by_field_name("parameters") if declarator is not None else None
        for p in (plist.named_children if plist is not None else ()):
            name, pointer = p.child_by_field_name("declarator"), False
            while name is not None and name.type in ("pointer_declarator", "reference_declarator"):
                pointer = pointer or name.type == "pointer_declarator"
                name = name.child_by_field_name("declarator") or next(iter(name.named_children), None)
            typ = p.child_by_field_name("type")
            text = self.text(name) if name is not None and name.type == "identifier" else ""
            self.params.append(text)
            if text and pointer:
                self.pointer_params.add(text)
            elif text and typ is not None:
                self.param_types[text] = self.text(typ)
                self.param_type_spans[text] = self.span(typ)
        self.thread: set[str] = set()
        self.macros = macros
        self.function_macros = defined       # the file's function-like macros
        # Names of constant integers: the file's (object-like macros, namespace-scope
        # `const`/`constexpr`), then the function's own `const` locals of a literal value.
        self.constants = dict(constants or {})
        for n, up in self.nodes:
            if n.type == "init_declarator" and up is not None and up.type == "declaration" and _constant_declaration(
                    self.frag, self.data, up):
                name = self.text(n.child_by_field_name("declarator"))
                value = integer(self.text(n.child_by_field_name("value")))
                self.constants[name] = value if self.constants.get(name, value) == value else None

    def text(self, node: ts.Node) -> str:
        return self.frag.text(self.data, node)

    def span(self, node: ts.Node) -> Span:
        return self.frag.span(node)

    # -- thread values ------------------------------------------------------------------

    def is_thread(self, node: ts.Node) -> bool:
        """Is the expression computed from a thread value? (What is loaded from memory at a
        thread's index, `keys[i]`, or returned by a call, `hash(i)`, is data: the walk does
        not enter subscripts and call arguments.)"""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "subscript_expression":
                continue
            if n.type == "call_expression":
                function = n.child_by_field_name("function")
                if function is not None:
                    stack.append(function)
                continue
            stack.extend(n.named_children)
            if n.type == "identifier":
                name = self.text(n)
                if name in _THREAD_SEEDS or name in self.thread:
                    return True
            elif n.type == "field_identifier" and self.text(n) == "thread_rank":
                return True
        return False

    def propagate(self) -> None:
        changed = True
        while changed:
            changed = False
            for n, _ in self.nodes:
                target = value = None
                if n.type == "init_declarator":
                    target, value = n.child_by_field_name("declarator"), n.child_by_field_name("value")
                elif n.type == "assignment_expression":
                    target, value = n.child_by_field_name("left"), n.child_by_field_name("right")
                if target is None or value is None or target.type != "identifier":
                    continue
                name = self.text(target)
                if name not in self.thread and self.is_thread(value):
                    self.thread.add(name)
                    changed = True

    def mark_parameter(self, position: int) -> bool:
        if position < len(self.params) and self.params[position] and self.params[position] not in self.thread:
            self.thread.add(self.params[position])
            return True
        return False

    def thread_arguments(self):
        for n, _ in self.nodes:
            if n.type != "call_expression":
                continue
            function = n.child_by_field_name("function")
            args = n.child_by_field_name("arguments")
            if function is None or args is None or function.type != "identifier":
                continue
            for i, a in enumerate(a for a in args.named_children if a.type != "comment"):
                if self.is_thread(a):
                    yield self.text(function), i

    # -- helpers ------------------------------------------------------------------------

    def calls(self, names: frozenset[str], macros: bool = False):
        """The calls of these names; a name the file defines as a function-like macro is
        that macro, not the builtin, and is left out (or kept, with `macros`)."""
        for n, up in self.nodes:
            if n.type == "call_expression":
                function = n.child_by_field_name("function")
                if function is not None and function.type == "identifier" and self.text(function) in names \
                        and (macros or self.text(function) not in self.function_macros):
                    args = n.child_by_field_name("arguments")
                    yield n, self.text(function), [a for a in args.named_children if a.type != "comment"], up

    def constant(self, node: ts.Node | None) -> int | None:
        """The value of an integer constant expression the file determines: literals, the
        names of self.constants, parentheses, + - * / of constants; else None."""
        if node is None:
            return None
        if node.type == "number_literal":
            return integer(self.text(node))
        if node.type == "identifier":
            return self.constants.get(self.text(node))
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            return self.constant(node.named_children[0])
        if node.type == "binary_expression":
            left = self.constant(node.child_by_field_name("left"))
            right = self.constant(node.child_by_field_name("right"))
            op = self.text(node.child_by_field_name("operator"))
            if left is None or right is None:
                return None
            if op == "+":
                return left + right
            if op == "-":
                return left - right
            if op == "*":
                return left * right
            if op == "/" and right > 0 and left >= 0:
                return left // right
        return None

    def _value_of(self, node: ts.Node) -> str:
        """A literal's text, or the literal an object-like macro of the file stands for."""
        text = self.text(node).strip()
        return self.macros.get(text, text).strip("()") if node.type == "identifier" else text

    def _declared_name(self, node: ts.Node) -> str | None:
        """The variable a value is stored in: `T x = node` or `x = node`."""
        up = self.parent.get(node.id)
        while up is not None and up.type in ("parenthesized_expression", "cast_expression"):
            node, up = up, self.parent.get(up.id)
        if up is not None and up.type == "init_declarator" and up.child_by_field_name("value") == node:
            return self.text(up.child_by_field_name("declarator"))
        if up is not None and up.type == "assignment_expression" and up.child_by_field_name("right") == node:
            left = up.child_by_field_name("left")
            return self.text(left) if left.type == "identifier" else None
        return None

    def _indexes_pointer(self, node: ts.Node) -> bool:
        """Does the value of `node` (or the variable it is stored in) index a pointer parameter?"""
        names = {self._declared_name(node)} - {None}
        for n, _ in self.nodes:
            if n.type != "subscript_expression":
                continue
            array = n.child_by_field_name("argument")
            index = n.child_by_field_name("indices") or n.child_by_field_name("index")
            if array is None or index is None or self.text(array) not in self.pointer_params:
                continue
            if n.start_byte <= node.start_byte and node.end_byte <= n.end_byte and array != node:
                return True
            if any(d.type == "identifier" and self.text(d) in names for d in descendants(index)):
                return True
        return False

    # -- the facts ----------------------------------------------------------------------

    def lanes(self):
        name = self.function.name
        lane32 = set()
        for n, _ in self.nodes:
            if n.type == "init_declarator":
                value = n.child_by_field_name("value")
                if value is not None and value.type == "binary_expression" and self._lane_kind(value) == ("lane", "32"):
                    lane32.add(self.text(n.child_by_field_name("declarator")))
        for n, _ in self.nodes:
            if n.type != "binary_expression":
                continue
            kind = self._lane_kind(n)
            op = self.text(n.child_by_field_name("operator"))
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            lanes = lane32 | (set(self.params) & self.thread)
            if kind is None and op in ("==", "!=") and {self.text(left), self.text(right)} & lanes \
                    and 31 in (self.constant(left), self.constant(right)):
                literal = left if self.constant(left) == 31 else right
                kind = ("last", "32")
                yield LaneSite(name, "last", "32", self.span(n), self.text(n),
                               Edit(self.span(literal), "warpSize - 1"), False)
                continue
            if kind is None and self._first_threads(op, left, right, lane32):
                yield LaneSite(name, "first", "32", self.span(n), self.text(n), None, False)
                continue
            if kind is None:
                continue
            generic = None
            ltext = re.sub(r"\s+", "", self.text(left))
            if kind == ("warps", "32") and ltext != "blockDim.x":
                # (blockDim.x + 31) / 32 counts warps rounding up; any other spelling has no
                # rewrite known here, which makes its code mixed (all reported, none rewritten).
                if op == "/" and _CEIL_WARPS.fullmatch(ltext):
                    generic = Edit(self.span(n), "(blockDim.x + warpSize - 1) / warpSize")
            elif kind[1] == "32":
                if op in ("%", "/"):
                    generic = Edit(self.span(right), "warpSize")
                elif op == "&":
                    generic = Edit(self.span(right), "(warpSize - 1)")
                elif op == ">>":
                    operand = self.text(left)
                    if left.type not in ("identifier", "field_expression", "parenthesized_expression",
                                         "call_expression", "subscript_expression"):
                        operand = f"({operand})"
                    generic = Edit(self.span(n), f"{operand} / warpSize")
            yield LaneSite(name, kind[0], kind[1], self.span(n), self.text(n), generic,
                           kind[0] == "warp" and self._indexes_pointer(n))

    def _first_threads(self, op: str, left: ts.Node, right: ts.Node, lanes: set[str]) -> bool:
        """Is it a test for the first 32 threads (`threadIdx.x < 32`, `tid >= 32`, `31 < t`)?
        It may mean the first warp or 32 items: no rewrite is known."""
        flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
        if op not in flipped:
            return False
        if self.constant(left) is not None:
            left, right, op = right, left, flipped[op]
        value = self.constant(right)
        if value is None or not self.is_thread(left) or self.text(left) in lanes:
            return False
        return (op in ("<", ">=") and value == 32) or (op in ("<=", ">") and value == 31)

    def _lane_kind(self, n: ts.Node) -> tuple[str, str] | None:
        op_node = n.child_by_field_name("operator")
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if op_node is None or left is None or right is None:
            return None
        op = self.text(op_node)
        rtext = re.sub(r"\s+", "", self.text(right))
        value = self.constant(right)
        ltext = re.sub(r"\s+", "", self.text(left))
        warps = ltext == "blockDim.x"
        if not warps and "blockDim" in ltext and ((op == "/" and value == 32) or (op == ">>" and value == 5)):
            return ("warps", "32")      # a count of 32-lane warps in another spelling: (blockDim.x + 31) / 32
        if not warps and not self.is_thread(left):
            return None
        if op == "/" and value == 32:
            return ("warps" if warps else "warp", "32")
        if warps:
            if op == ">>" and value == 5:
                return ("warps", "32")
            return ("warps", "warpSize") if op == "/" and rtext == "warpSize" else None
        if (op == "%" and value == 32) or (op == "&" and value == 31):
            return ("lane", "32")
        if op == ">>" and value == 5:
            return ("warp", "32")
        if (op == "%" and rtext == "warpSize") or (op == "&" and rtext.strip("()") == "warpSize-1"):
            return ("lane", "warpSize")
        if op == "/" and rtext == "warpSize":
            return ("warp", "warpSize")
        return None

    def shuffles(self):
        for call, name, args, _ in self.calls(SHUFFLES, macros=True):
            at = 2 if name in WARP_SYNC_BUILTINS else 1
            if name in self.function_macros:
                yield Shuffle(self.function.name, name, self.span(call), self.span(call)[1],
                              self.text(args[min(at, len(args) - 1)]) if args else "", "unknown", None, macro=True)
                continue
            if len(args) <= at:
                continue
            offset = args[at]
            if len(args) > at + 1:
                width = self.text(args[at + 1])
                basis = "warpSize" if "warpSize" in width else \
                    "grouped" if (self.constant(args[at + 1]) or 64) <= 32 else "unknown"
                yield Shuffle(self.function.name, name, self.span(call), self.span(args[-1])[1],
                              self.text(offset), basis, None, has_width=True)
                continue
            basis, loop = self._offset_basis(name, offset, call)
            yield Shuffle(self.function.name, name, self.span(call), self.span(args[-1])[1], self.text(offset),
                          basis, loop)

    def _offset_basis(self, name: str, offset: ts.Node, call: ts.Node) -> tuple[str, tuple[Edit, ...] | None]:
        text = self.text(offset)
        if "warpSize" in text:
            return "warpSize", None
        value = self.constant(offset)
        if value is not None:
            limit = 31 if name.startswith("__shfl_sync") or name == "__shfl" else 16
            return ("32" if value >= limit else "neutral"), None
        if offset.type == "identifier":
            loop = self._loop_of(self.text(offset), call)
            if loop is not None:
                return loop
        if any(self._lane_kind(n) is not None and self._lane_kind(n)[1] == "32"
               for n in descendants(offset) if n.type == "binary_expression"):
            return "32", None
        return "unknown", None

    def _loop_of(self, variable: str, call: ts.Node):
        """("32" | "warpSize" | "neutral", warpSize-generic edits) of the `for` loop whose
        variable is `variable` and that holds the call."""
        up = self.parent.get(call.id)
        while up is not None and up.type != "for_statement":
            up = self.parent.get(up.id)
        if up is None:
            return None
        init = up.child_by_field_name("initializer")
        condition = up.child_by_field_name("condition")
        start = None
        for n in descendants(init) if init is not None else ():
            if n.type in ("init_declarator", "assignment_expression"):
                target = n.child_by_field_name("declarator") or n.child_by_field_name("left")
                if target is not None and self.text(target) == variable:
                    start = n.child_by_field_name("value") or n.child_by_field_name("right")
        if start is None or condition is None or condition.type != "binary_expression":
            return None
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if self.text(left) != variable:
            return None
        op = self.text(condition.child_by_field_name("operator"))
        first, bound = self.constant(start), self.constant(right)
        if "warpSize" in self.text(start) or "warpSize" in self.text(right):
            return "warpSize", None
        if first == 16 and op in (">", ">=", "!=") and bound in (0, 1):
            return "32", (Edit(self.span(start), "warpSize / 2"),)
        if first in (0, 1) and op == "<" and bound == 32:
            return "32", (Edit(self.span(right), "warpSize"),)
        if first in (0, 1) and op == "<=" and bound == 16:
            return "32", (Edit(self.span(right), "warpSize / 2"),)
        if (first is not None and first >= 16) or (bound is not None and bound >= 16):
            return "32", ()
        return None

    def votes(self):
        narrow = {v.name for v in self.narrows()}
        for call, name, args, up in self.calls(VOTES):
            if self._is_mask_argument(call):
                continue
            holder = self._declared_name(call)
            if name in _BALLOTS and holder and holder in narrow:
                continue        # a narrow mask: its own rule
            if self.grouped(call):
                continue        # already the lane's own 32-lane group's bits
            yield Vote(self.function.name, name, self.span(call), self.text(call),
                       self.span(call.child_by_field_name("function")), tuple(self.span(a) for a in args),
                       holder is not None)

    def grouped(self, call: ts.Node) -> bool:
        """Is the call `C` of `C >> (__lane_id() & 32)`: a ballot shifted to the lane's own 32-lane group?"""
        up = self.parent.get(call.id)
        while up is not None and up.type == "parenthesized_expression":
            call, up = up, self.parent.get(up.id)
        return up is not None and up.type == "binary_expression" and up.child_by_field_name("left") == call and \
            self.text(up.child_by_field_name("operator")) == ">>" and \
            re.sub(r"\s+", "", self.text(up.child_by_field_name("right"))) == "(__lane_id()&32)"

    def _is_mask_argument(self, node: ts.Node) -> bool:
        args = self.parent.get(node.id)
        call = self.parent.get(args.id) if args is not None and args.type == "argument_list" else None
        if call is None or call.type != "call_expression":
            return False
        function = call.child_by_field_name("function")
        first = next((a for a in args.named_children if a.type != "comment"), None)
        return first == node and function is not None and self.text(function) in MASKED

    def _ballot_declarations(self):
        """(declarator, declaration, the ballot call, its name node, the type node) of each
        declaration of one variable initialised with a ballot or `__activemask()` (through
        parentheses and casts)."""
        for n, up in self.nodes:
            if n.type != "init_declarator" or up is None or up.type != "declaration":
                continue
            value = n.child_by_field_name("value")
            while value is not None and value.type in ("parenthesized_expression", "cast_expression"):
                value = value.child_by_field_name("value") if value.type == "cast_expression" \
                    else value.named_children[0]
            function = value.child_by_field_name("function") if value is not None and \
                value.type == "call_expression" else None
            typ = up.child_by_field_name("type")
            if function is None or self.text(function) not in _BALLOTS or typ is None or \
                    len(up.children_by_field_name("declarator")) != 1:
                continue
            yield n, up, value, function, typ

    def narrows(self):
        for n, up, value, function, typ in self._ballot_declarations():
            if not narrow_type(self.text(typ)):
                continue
            name = self.text(n.child_by_field_name("declarator"))
            yield NarrowMask(self.function.name, name, self.text(function), self.span(typ), self.text(typ),
                             self.span(up), tuple(self._uses(name, n)), self.span(value),
                             follow(self, MASKED, name, n))

    def wides(self):
        """Ballots kept in 64 bits whose flow (translator.ir.mask_flow) reaches a count."""
        for n, up, _, function, typ in self._ballot_declarations():
            target = n.child_by_field_name("declarator")
            if not wide_type(self.text(typ)) or target is None or target.type != "identifier":
                continue
            flow = follow(self, MASKED, self.text(target), n)
            if flow.counts:
                yield WideMask(self.function.name, self.text(function), self.text(target), self.span(up), flow)
        for call, name, _, _ in self.calls(_BALLOTS):
            if name not in _BALLOTS or self._is_mask_argument(call) or self._declared_name(call) is not None:
                continue
            flow = follow(self, MASKED, node=call)
            if flow.counts:
                yield WideMask(self.function.name, name, "", self.span(call), flow)

    def _uses(self, name: str, declarator: ts.Node):
        for n, up in self.nodes:
            if n.type != "identifier" or self.text(n) != name or up is None or up == declarator:
                continue
            kind = "other"
            if up.type == "argument_list":
                call = self.parent.get(up.id)
                function = call.child_by_field_name("function") if call is not None else None
                fname = self.text(function) if function is not None else ""
                first = next((a for a in up.named_children if a.type != "comment"), None)
                if fname in _POPC and len(up.named_children) == 1:
                    kind = "popc" if fname == "__popc" else "ffs"
                    yield kind, self.span(function)
                    continue
                if fname in MASKED and first == n:
                    kind = "mask"
            elif up.type == "condition_clause" or (up.type == "unary_expression" and self.text(up).startswith("!")):
                kind = "test"
            elif up.type == "binary_expression" and self.text(up.child_by_field_name("operator")) in ("==", "!=") \
                    and 0 in (integer(self.text(up.child_by_field_name("left"))),
                              integer(self.text(up.child_by_field_name("right")))):
                kind = "test"
            yield kind, self.span(n)

    def masks(self):
        for call, name, args, _ in self.calls(MASKED):
            if not args:
                continue
            mask = args[0]
            text = self.text(mask)
            value = integer(self._value_of(mask))
            if value is not None:
                if value <= 0xffffffff and value != 0xffffffff:
                    yield MaskArg(self.function.name, name, self.span(mask), text,
                                  f"'{text}' names lanes of a 32-lane warp")
                continue
            if mask.type != "identifier":
                continue
            declared = self._declaration_type(text)
            if declared is None or not narrow_type(declared[0]):
                continue
            init = declared[1]
            if init is not None:
                if integer(self._value_of(init)) == 0xffffffff or self.text(init).replace(" ", "") in ("~0u", "~0"):
                    continue            # a full mask: the hipify pass widens it
                function = init.child_by_field_name("function") if init.type == "call_expression" else None
                if function is not None and self.text(function) in _BALLOTS:
                    continue            # a narrow mask: its own rule
            where = "parameter" if init is None and text in self.param_types else "variable"
            yield MaskArg(self.function.name, name, self.span(mask), text,
                          f"'{text}' is a 32-bit {where} ({declared[0]})")

    def _declaration_type(self, name: str) -> tuple[str, ts.Node | None] | None:
        if name in self.param_types:
            return self.param_types[name], None
        for n, up in self.nodes:
            if n.type == "init_declarator" and up is not None and up.type == "declaration" and \
                    self.text(n.child_by_field_name("declarator")) == name:
                return self.text(up.child_by_field_name("type")), n.child_by_field_name("value")
        return None

    def tiles(self):
        for n, _ in self.nodes:
            if n.type == "number_literal" and integer(self.text(n)) == 32:
                start = self.span(n)[0]
                if _TILE.search(self.data, max(0, start - 40), start):
                    head = max(self.data.rfind(b"tiled_partition", 0, start),
                               self.data.rfind(b"thread_block_tile", 0, start))
                    close = self.data.find(b">", start)
                    yield Tile(self.function.name, (head, close + 1), self.data[head:close + 1].decode("utf-8", "replace"))


def component_model(facts: WarpFacts) -> str:
    """lane_model(), with "mixed" split: "generic" where every 32-lane site of the
    component has a warpSize-generic spelling (lane arithmetic whose value indexes no
    pointer parameter, shuffle loops with known bounds, no 32-thread tile), so that the
    whole component can be rewritten to warpSize together; else "mixed"."""
    model = lane_model(facts)
    if model != "mixed":
        return model
    lanes = all(s.generic is not None and not s.feeds_memory for s in facts.lanes if s.width == "32")
    loops = all(s.loop for s in facts.shuffles if s.basis == "32")
    headers = all(h.model == "warpSize" for h in facts.headers)     # a header's 32s are not this file's to rewrite
    return "generic" if lanes and loops and headers and not facts.tiles else "mixed"


def clean_at(parsed: ParsedFile, span: Span) -> bool:
    """May an edit touch the node at this span (no parse error in or around it)?"""
    node = node_at(parsed.main.root, *span)
    return node is not None and parsed.main.clean(node)
