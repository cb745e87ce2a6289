"""The IR: kernels, launch sites, API uses and host synchronization points of one file.

Built once per file from the front end's fragments (the file and its macro bodies);
frozen dataclasses whose spans are byte ranges into the original source. The
warp-size, launch-bounds and fusion passes read this, never the tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile, node_at

Span = tuple[int, int]

# CUDA's warp-level builtins, the one list of them: the mask-taking forms of CUDA 9 and
# later, and the legacy mask-less ones (HIP's only forms before 6.2).
WARP_SYNC_BUILTINS = frozenset({
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
    "__all_sync", "__match_any_sync", "__match_all_sync", "__activemask", "__syncwarp", "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
})
WARP_MASKLESS_BUILTINS = frozenset({"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any",
                                    "__all", "__lane_id"})
# Host calls after which the host and device agree on memory, or that touch device memory:
# a fusion chain cannot cross one.
SYNC_POINTS = frozenset({
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaThreadSynchronize",
    "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemset", "cudaMemsetAsync",
    "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync",
    "cudaMalloc", "cudaFree", "cudaMallocHost", "cudaFreeHost", "cudaEventRecord", "cudaStreamWaitEvent",
    "cudaEventQuery", "cudaStreamQuery", "cudaGraphLaunch", "cudaLaunchKernel", "cudaLaunchCooperativeKernel",
    "cuCtxSynchronize", "cuStreamSynchronize", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuLaunchKernel",
})


@dataclass(frozen=True)
class Expr:
    text: str
    span: Span


@dataclass(frozen=True)
class Param:
    name: str
    type_text: str
    qualifiers: tuple[str, ...]
    is_pointer: bool
    span: Span


@dataclass(frozen=True)
class SharedDecl:
    name: str
    type_text: str
    size: str | None          # the array size as written; None for extern (dynamic) or scalars
    is_extern: bool
    span: Span


@dataclass(frozen=True)
class Access:
    """One `param[index]` in a kernel: how it is used and under which `if` conditions."""
    param: str
    index: str
    mode: str                 # "read", "write" or "readwrite"
    guards: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Kernel:
    name: str
    span: Span
    name_span: Span
    template_params: tuple[str, ...]
    params: tuple[Param, ...]
    launch_bounds: tuple[Expr, ...]
    launch_bounds_span: Span | None
    body_span: Span | None    # None for a prototype
    shared: tuple[SharedDecl, ...]
    index_uses: tuple[Expr, ...]          # threadIdx.x, blockDim.y ...
    warp_ops: tuple[Expr, ...]            # calls of warp-level builtins, uses of warpSize
    barriers: tuple[Expr, ...]
    atomics: tuple[Expr, ...]
    accesses: tuple[Access, ...]
    in_macro: bool
    clean: bool                            # no parse error inside or around it


@dataclass(frozen=True)
class LaunchSite:
    kernel: str                # the kernel's name as written, without template arguments
    kernel_expr: Expr          # as written, with template arguments
    template_args: str | None
    grid: Expr
    block: Expr
    shared_mem: Expr | None
    stream: Expr | None
    args: tuple[Expr, ...]
    span: Span                 # the whole call expression
    config_span: Span          # <<<...>>>
    function: str | None       # enclosing function
    statement: Span | None     # the statement that holds the launch
    statement_index: int | None  # its position in the enclosing block
    in_macro: bool
    clean: bool


@dataclass(frozen=True)
class ApiUse:
    name: str
    kind: str                  # function, type, constant, device_function, device_type, header, namespace
    library: str
    span: Span
    in_macro: bool
    in_preprocessor: bool      # inside a #if condition or similar directive


@dataclass(frozen=True)
class SyncPoint:
    name: str
    span: Span
    function: str | None


@dataclass(frozen=True)
class Module:
    path: str
    kernels: tuple[Kernel, ...]
    launches: tuple[LaunchSite, ...]
    api_uses: tuple[ApiUse, ...]
    sync_points: tuple[SyncPoint, ...]

    @cached_property
    def kernels_by_name(self) -> dict[str, list[Kernel]]:
        out: dict[str, list[Kernel]] = {}
        for k in self.kernels:
            out.setdefault(k.name, []).append(k)
        return out

    def launch_sequences(self) -> dict[str | None, list[LaunchSite]]:
        """Launch sites per enclosing host function, in source order."""
        out: dict[str | None, list[LaunchSite]] = {}
        for site in sorted(self.launches, key=lambda s: s.span):
            out.setdefault(site.function, []).append(site)
        return out


# ---------------------------------------------------------------- building
#
# Everything is found from the text and confirmed on the tree: a regex finds candidate
# tokens (`__global__`, `<<<`, `threadIdx`, a parameter name followed by `[` ...), the
# tree gives the node at that exact byte range, and its parents say what it is. A hit
# in a comment or a string has no matching node and drops out. This costs a regex scan
# and a few C calls per hit, where tree-sitter queries cost 10-40 ms each to compile.

# No leading \b: the node at the match's exact range confirms the token's boundaries, and
# a pattern that starts with a literal is scanned many times faster by `re`.
_GLOBAL = re.compile(rb"__global__")
_LAUNCH = re.compile(rb"<<<")
_INDEX = re.compile(rb"(?:threadIdx|blockIdx|blockDim|gridDim)\b")
_WARP = re.compile(rb"(?:" + b"|".join(sorted((n.encode() for n in WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS
                                               | {"warpSize"}), key=len, reverse=True)) + rb")\b")
_GROUP_METHOD = re.compile(rb"\.\s*(shfl|shfl_up|shfl_down|shfl_xor|ballot|any|all|match_any|match_all|sync|"
                           rb"barrier_wait|arrive_and_wait)\s*\(")
_FREE_BARRIER = re.compile(rb"(?:__syncthreads(?:_count|_and|_or)?|sync|barrier_wait|arrive_and_wait)\s*\(")
_ATOMIC = re.compile(rb"atomic\w*(?=\s*\()")
_SHARED = re.compile(rb"__shared__\b")
_WRITE_PARENTS = {"assignment_expression", "update_expression"}
# The CUDA names and their HIP counterparts (a second run sees HIP code).
_SYNC_NAMES = frozenset({n.encode() for n in SYNC_POINTS} | {
    ("hip" + n[4:] if n.startswith("cuda") else "hip" + n[2:]).encode() for n in SYNC_POINTS})


def _text(data: bytes, node: ts.Node) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "replace")


def call_of(name: ts.Node) -> ts.Node | None:
    """The call_expression whose function is `name` (through `ns::` qualifiers), or None."""
    node = name
    while node.parent is not None and node.parent.type == "qualified_identifier" \
            and node.parent.child_by_field_name("name") == node:
        node = node.parent
    parent = node.parent
    if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return parent
    return None


class _Builder:
    def __init__(self, parsed: ParsedFile):
        self.data = parsed.data
        self.parsed = parsed
        self.cleaned = parsed.cleaned
        self.has_launch = b"<<<" in parsed.cleaned

    def hits(self, frag: Fragment, pattern: re.Pattern, lo: int, hi: int, group: int = 0):
        """(match, node) for each regex hit in file bytes [lo, hi) whose exact range is a node."""
        for match in pattern.finditer(self.cleaned, lo, hi):
            node = node_at(frag.root, match.start(group) - frag.delta, match.end(group) - frag.delta)
            if node is not None:
                yield match, node

    def owned_hits(self, frag: Fragment, pattern: re.Pattern):
        """hits() over the byte ranges the fragment answers for."""
        for lo, hi in frag.ranges(len(self.data)):
            yield from self.hits(frag, pattern, lo, hi)

    def expr(self, frag: Fragment, node: ts.Node) -> Expr:
        return Expr(self.text(frag, node), frag.span(node))

    def text(self, frag: Fragment, node: ts.Node) -> str:
        return frag.text(self.data, node)

    # -- kernels
    def kernels(self, frag: Fragment) -> list[Kernel]:
        out = []
        if b"__global__" not in self.parsed.words:
            return out
        for _, token in self.owned_hits(frag, _GLOBAL):
            node = token.parent
            if node is None or node.type not in ("function_definition", "declaration"):
                continue
            declarator = node.child_by_field_name("declarator")
            if declarator is None or declarator.type != "function_declarator":
                continue
            name = declarator.child_by_field_name("declarator")
            params = declarator.child_by_field_name("parameters")
            body = node.child_by_field_name("body")
            if name is None or params is None:
                continue
            template_params: tuple[str, ...] = ()
            if node.parent is not None and node.parent.type == "template_declaration":
                plist = node.parent.child_by_field_name("parameters")
                template_params = tuple(self.text(frag, p) for p in plist.named_children) if plist else ()
            bounds_node = next((c for c in node.children if c.type == "launch_bounds"), None)
            param_list = [self.param(frag, p) for p in params.named_children
                          if p.type in ("parameter_declaration", "optional_parameter_declaration")]
            out.append(Kernel(
                name=self.text(frag, name), span=frag.span(node), name_span=frag.span(name),
                template_params=template_params, params=tuple(param_list),
                launch_bounds=tuple(self.expr(frag, c) for c in bounds_node.named_children) if bounds_node else (),
                launch_bounds_span=frag.span(bounds_node) if bounds_node else None,
                body_span=frag.span(body) if body else None,
                in_macro=frag.in_macro, clean=frag.clean(node),
                **self.body_facts(frag, body, param_list),
            ))
        return out

    def param(self, frag: Fragment, node: ts.Node) -> Param:
        qualifiers = [self.text(frag, c) for c in node.children if c.type == "type_qualifier"]
        name_node = node.child_by_field_name("declarator")
        is_pointer = False
        while name_node is not None and name_node.type not in ("identifier", "field_identifier"):
            if name_node.type in ("pointer_declarator", "array_declarator", "abstract_pointer_declarator",
                                  "abstract_array_declarator"):
                is_pointer = True
            qualifiers += [self.text(frag, c) for c in name_node.children if c.type == "type_qualifier"]
            inner = name_node.child_by_field_name("declarator")
            if inner is None and name_node.type == "reference_declarator":
                inner = next((c for c in name_node.named_children), None)
            name_node = inner
        type_node = node.child_by_field_name("type")
        return Param(
            name=self.text(frag, name_node) if name_node is not None else "",
            type_text=self.text(frag, type_node) if type_node else "",
            qualifiers=tuple(qualifiers), is_pointer=is_pointer, span=frag.span(node))

    def body_facts(self, frag: Fragment, body: ts.Node | None, params: list[Param]) -> dict:
        keys = ("shared", "index_uses", "warp_ops", "barriers", "atomics", "accesses")
        if body is None:
            return {k: () for k in keys}
        lo, hi = frag.span(body)
        index_uses, warp_ops, barriers, atomics, shared, accesses = [], [], [], [], [], []
        for _, node in self.hits(frag, _INDEX, lo, hi):
            parent = node.parent
            if node.type == "identifier" and parent is not None and parent.type == "field_expression" \
                    and parent.child_by_field_name("argument") == node:
                index_uses.append(self.expr(frag, parent))
        for match, node in self.hits(frag, _WARP, lo, hi):
            if node.type != "identifier":
                continue
            call = call_of(node)
            if call is not None:
                warp_ops.append(self.expr(frag, call))
            elif match.group() == b"warpSize":
                warp_ops.append(self.expr(frag, node))
        for match, node in self.hits(frag, _GROUP_METHOD, lo, hi, group=1):
            call = node.parent.parent if node.type == "field_identifier" and node.parent is not None else None
            if call is None or call.type != "call_expression":
                continue
            (barriers if match.group(1) in (b"sync", b"barrier_wait", b"arrive_and_wait") else warp_ops).append(
                self.expr(frag, call))
        for match in _FREE_BARRIER.finditer(self.cleaned, lo, hi):
            name_end = match.start() + len(match.group().split(b"(")[0].rstrip())
            node = node_at(frag.root, match.start() - frag.delta, name_end - frag.delta)
            call = call_of(node) if node is not None and node.type == "identifier" else None
            if call is not None:
                barriers.append(self.expr(frag, call))
        for _, node in self.hits(frag, _ATOMIC, lo, hi):
            call = call_of(node) if node.type == "identifier" else None
            if call is not None:
                atomics.append(self.expr(frag, call))
        for _, token in self.hits(frag, _SHARED, lo, hi):
            qualifier = token.parent
            decl = qualifier.parent if qualifier is not None else None
            if qualifier is not None and qualifier.type == "type_qualifier" and decl is not None \
                    and decl.type == "declaration":
                shared.extend(self.shared(frag, decl, d) for d in decl.children_by_field_name("declarator"))
        pointers = [p.name for p in params if p.is_pointer and p.name]
        if pointers:
            pattern = re.compile(rb"(" + b"|".join(re.escape(n.encode()) for n in pointers) + rb")\s*\[")
            for match, node in self.hits(frag, pattern, lo, hi, group=1):
                sub = node.parent
                if node.type == "identifier" and sub is not None and sub.type == "subscript_expression" \
                        and sub.child_by_field_name("argument") == node:
                    accesses.append(self.access(frag, match.group(1).decode(), sub, body))
        by_span = lambda items: tuple(sorted(items, key=lambda e: e.span))  # noqa: E731
        return {"shared": by_span(shared), "index_uses": by_span(index_uses), "warp_ops": by_span(warp_ops),
                "barriers": by_span(barriers), "atomics": by_span(atomics), "accesses": by_span(accesses)}

    def shared(self, frag: Fragment, decl: ts.Node, declarator: ts.Node) -> SharedDecl:
        is_extern = any(c.type == "storage_class_specifier" and self.text(frag, c) == "extern" for c in decl.children)
        size = None
        node = declarator
        while node is not None and node.type not in ("identifier",):
            if node.type == "array_declarator" and node.child_by_field_name("size") is not None:
                size = self.text(frag, node.child_by_field_name("size"))
            node = node.child_by_field_name("declarator")
        type_node = decl.child_by_field_name("type")
        return SharedDecl(self.text(frag, node) if node is not None else "",
                          self.text(frag, type_node) if type_node else "", size, is_extern, frag.span(decl))

    def access(self, frag: Fragment, name: str, sub: ts.Node, body: ts.Node) -> Access:
        # `p[i].x = v` and `(p[i]) = v` store through p[i] too.
        target = sub
        while target.parent is not None and (
                (target.parent.type == "field_expression" and target.parent.child_by_field_name("argument") == target)
                or target.parent.type == "parenthesized_expression"):
            target = target.parent
        parent = target.parent
        mode = "read"
        if parent is not None and parent.type in _WRITE_PARENTS:
            if parent.type == "update_expression":
                mode = "readwrite"
            elif parent.child_by_field_name("left") == target:
                op = parent.child_by_field_name("operator")
                mode = "write" if op is not None and self.text(frag, op) == "=" else "readwrite"
        guards = []
        child, node = sub, sub.parent
        while node is not None and node != body:
            if node.type == "if_statement":
                cond = node.child_by_field_name("condition")
                if cond is not None:
                    text = self.text(frag, cond)
                    in_else = node.child_by_field_name("alternative") == child
                    guards.append(f"!{text}" if in_else else text)
            child, node = node, node.parent
        indices = sub.child_by_field_name("indices")
        index = self.text(frag, indices)[1:-1].strip() if indices is not None else ""
        return Access(name, index, mode, tuple(reversed(guards)), frag.span(sub))

    # -- launches
    def launches(self, frag: Fragment) -> list[LaunchSite]:
        out = []
        if not self.has_launch:
            return out
        for _, token in self.owned_hits(frag, _LAUNCH):
            config = token.parent
            node = config.parent if config is not None and config.type == "kernel_call_syntax" else None
            if node is None or node.type != "call_expression":
                continue
            kernel, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
            conf = [c for c in config.named_children if c.type != "comment"]
            if kernel is None or args is None or len(conf) < 2:
                continue
            name_text, targs = self.text(frag, kernel), None
            template = kernel
            while template is not None and template.type == "qualified_identifier":
                template = template.child_by_field_name("name")
            if template is not None and template.type == "template_function":
                arguments = template.child_by_field_name("arguments")
                targs = self.text(frag, arguments)
                name_text = self.data[frag.span(kernel)[0]:frag.span(arguments)[0]].decode("utf-8", "replace")
            statement, index = _statement_of(node)
            out.append(LaunchSite(
                kernel=name_text, kernel_expr=self.expr(frag, kernel), template_args=targs,
                grid=self.expr(frag, conf[0]), block=self.expr(frag, conf[1]),
                shared_mem=self.expr(frag, conf[2]) if len(conf) > 2 else None,
                stream=self.expr(frag, conf[3]) if len(conf) > 3 else None,
                args=tuple(self.expr(frag, a) for a in args.named_children if a.type != "comment"),
                span=frag.span(node), config_span=frag.span(config),
                function=self.enclosing_function(frag, node),
                statement=frag.span(statement) if statement is not None else None,
                statement_index=index, in_macro=frag.in_macro, clean=frag.clean(node)))
        return out

    def enclosing_function(self, frag: Fragment, node: ts.Node) -> str | None:
        if frag.in_macro:
            return None
        while node is not None and node.type != "function_definition":
            node = node.parent
        if node is None:
            return None
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type not in ("identifier", "qualified_identifier", "field_identifier",
                                                     "operator_name", "destructor_name"):
            decl = decl.child_by_field_name("declarator")
        return self.text(frag, decl) if decl is not None else None

    def sync_points(self, frag: Fragment) -> list[SyncPoint]:
        out = []
        pattern = self.parsed.word_pattern(_SYNC_NAMES)
        if pattern is None:
            return out
        for match, node in self.owned_hits(frag, pattern):
            if match.group() not in _SYNC_NAMES:
                continue
            call = call_of(node) if node.type == "identifier" else None
            if call is not None:
                out.append(SyncPoint(match.group().decode(), frag.span(call), self.enclosing_function(frag, call)))
        return out


def _statement_of(node: ts.Node) -> tuple[ts.Node | None, int | None]:
    child = node
    parent = node.parent
    while parent is not None and parent.type != "compound_statement":
        child, parent = parent, parent.parent
    if parent is None:
        return None, None
    named = [c for c in parent.named_children if c.type != "comment"]
    return child, next((i for i, c in enumerate(named) if c == child), None)


def build_ir(path: str, parsed: ParsedFile, uses: list = ()) -> Module:
    """The Module of one parsed file. `uses` are translator.scan.Use (API uses with their nodes)."""
    b = _Builder(parsed)
    kernels, launches, syncs = [], [], []
    for frag in parsed.fragments:
        kernels += b.kernels(frag)
        launches += b.launches(frag)
        syncs += b.sync_points(frag)
    return Module(path, tuple(sorted(kernels, key=lambda k: k.span)), tuple(sorted(launches, key=lambda s: s.span)),
                  tuple(u.api for u in uses), tuple(sorted(syncs, key=lambda s: s.span)))
