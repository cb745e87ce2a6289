"""A static estimate of the VGPRs a kernel needs on CDNA (gfx90a and later), from its
source alone, and whether it will spill: what `cu2hip report` shows beside hipcc's own
figures, and where no compiler is installed, instead of them.

The method. A VGPR holds one 32-bit value per lane, so the estimate counts the per-lane
32-bit values a kernel keeps at its busiest statement:

- Per lane or uniform. Kernel parameters, `blockIdx`, `blockDim`, `gridDim`, literals and
  anything computed from them alone are the same in every lane: the compiler keeps them
  in SGPRs, and they count 0. A value is per lane when it depends on `threadIdx`, on a
  read of memory, on a warp operation or atomic, or on another per-lane value; a local
  becomes per lane when its initializer, any assignment to it, or a branch condition
  around such an assignment is per lane (a fixed point over the function), or when its
  address is taken.
- Declarations in scope. At each statement, the per-lane locals declared before it in
  the enclosing blocks count by their size in 32-bit words: `double`, 64-bit integers and
  pointers 2, `float`/`int` and smaller 1, vector types by their components, structs of
  the file by their fields, anything unknown (a template parameter) 1. A local array of
  constant size counts its elements when every subscript of it is a compile-time value
  once the loops with constant trip counts are unrolled (what LLVM does for private
  arrays); otherwise it lives in scratch memory and counts 0 (it is listed instead).
  The induction variable of such a loop is a constant after unrolling and counts 0.
- Temporaries of the statement. Each read adds the value it loads, and each read whose
  address is per lane adds that address (2 words for global memory; 1 per `__shared__`
  array, whose other elements are reached by immediate offsets); the reads' addresses
  are live together, and a store's address reuses them (it adds only what it needs
  beyond them). A call of a `__device__` function of the file (or of a lambda) adds the
  callee's own peak, computed the same way with each parameter per lane when its
  argument is (inlined, as hipcc inlines them).
- One global constant, `BASE`, added to every kernel's peak for what the count leaves
  out (the work-item id registers, the offsets computed from them). `bench/registers.py`
  measures it as the median of hipcc's VGPRs less the count over the corpus's kernels
  that hipcc did not cap: 0 (the addresses counted already hold those offsets; the
  large gaps are library calls the count cannot see, one-sided, so the median and not
  the mean).

The demand is that peak plus `BASE`. hipcc then allocates at most the VGPR budget the
kernel's bound allows (`vgpr_cap`, the CDNA workgroup rule: a block of the bound's size
must fit on one CU; without `__launch_bounds__`, HIP-Clang assumes 1024 threads, 128
VGPRs); the estimate is the demand up to that cap, and a spill is predicted when the
demand exceeds it.

Limits, said plainly: the count takes the scope of a declaration for its live range
(a value dead before the block ends still counts), ignores the temporaries of
arithmetic and of library calls (a math function inlines dozens of instructions),
counts no SGPR or AGPR, does not know which uniform loads hipcc turns into scalar
loads, nor what the scheduler adds to hide latency, and does not model loops that hipcc
leaves rolled or arrays it promotes anyway. It is a number to rank kernels by and to
flag likely spills, not the compiler's figure.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import tree_sitter as ts

from translator.frontend import ParsedFile, parse_file
from translator.ir.elementwise import device_functions
from translator.ir.host_values import HostValues, Value
from translator.ir.macros import macros
from translator.ir.nodes import descendants, function_around, initialized
from translator.ir.model import WARP_MASKLESS_BUILTINS, WARP_SYNC_BUILTINS, Kernel

# Added to every kernel's count: see the module's docstring; bench/registers.py measures
# it (the median gap to hipcc over the corpus is 0).
BASE = 0
MAX_VGPRS = 256            # architected VGPRs per lane on CDNA (AGPRs aside)
DEFAULT_MAX_THREADS = 1024  # HIP-Clang's --gpu-max-threads-per-block without __launch_bounds__
_MAX_DEPTH = 8              # nested inlined calls followed

_WIDE = frozenset({"double", "long", "long long", "unsigned long", "unsigned long long", "size_t", "ptrdiff_t",
                   "int64_t", "uint64_t", "intptr_t", "uintptr_t", "long int", "long long int",
                   "unsigned long int", "unsigned long long int", "signed long long"})
_VECTOR = re.compile(r"(u?char|u?short|u?int|u?long|u?longlong|float|double|half|__half|__nv_bfloat16)([1-4])")
_QUALIFIERS = frozenset({"const", "volatile", "static", "register", "__restrict__", "__restrict", "constexpr",
                         "struct", "class", "typename", "inline", "__device__"})
_UNIFORM_NAMES = frozenset({"blockIdx", "blockDim", "gridDim", "warpSize"})
_LANE_CALLS = WARP_SYNC_BUILTINS | WARP_MASKLESS_BUILTINS | {"clock", "clock64", "__lane_id", "rand", "curand",
                                                               "curand_uniform", "curand_normal"}
_COMMENTS = re.compile(r"//.*|/\*.*?\*/", re.S)


@dataclass(frozen=True)
class Demand:
    """The per-lane 32-bit values of a kernel at its busiest point, `BASE` included;
    `values` is None when the kernel cannot be read (with the reason)."""
    values: int | None
    at: int | None = None                      # the byte offset of the busiest statement
    scratch: tuple[str, ...] = ()              # local arrays left in scratch memory
    reason: str = ""


@dataclass(frozen=True)
class Estimate:
    """The estimate for one kernel compiled with a given bound."""
    vgprs: int | None          # what hipcc would allocate: the demand up to the cap
    spill: bool | None         # the demand exceeds the cap
    demand: int | None
    cap: int
    max_threads: int           # the block size the cap is for
    scratch: tuple[str, ...] = ()
    reason: str = ""

    def to_json(self) -> dict:
        out = {"vgprs": self.vgprs, "spill": self.spill, "demand": self.demand, "cap": self.cap,
               "max_threads": self.max_threads, "scratch_arrays": list(self.scratch)}
        if self.reason:
            out["reason"] = self.reason
        return out


def vgpr_cap(max_threads: int | None = None, min_waves: int | None = None) -> int:
    """The most VGPRs hipcc gives a kernel on CDNA: a workgroup of `max_threads` (1024
    without a bound) must fit on one CU of 4 SIMDs of 512 registers a lane, so each SIMD
    runs ceil(ceil(threads / 64) / 4) waves (or `min_waves`, `__launch_bounds__`'s second
    argument in HIP, if more) and each gets alignDown(512 / waves, 8), at most 256."""
    threads = min(max(max_threads or DEFAULT_MAX_THREADS, 1), DEFAULT_MAX_THREADS)
    waves = math.ceil(math.ceil(threads / 64) / 4)
    if min_waves:
        waves = max(waves, min(min_waves, 8))
    return min(MAX_VGPRS, 512 // waves // 8 * 8)


def estimate(demand: Demand, max_threads: int | None = None, min_waves: int | None = None) -> Estimate:
    """The estimate for a kernel whose demand is known, compiled for blocks of at most
    `max_threads` (None: no bound, 1024)."""
    cap = vgpr_cap(max_threads, min_waves)
    threads = max_threads or DEFAULT_MAX_THREADS
    if demand.values is None:
        return Estimate(None, None, None, cap, threads, reason=demand.reason)
    return Estimate(min(demand.values, cap), demand.values > cap, demand.values, cap, threads, demand.scratch)


def kernel_bounds(parsed: ParsedFile, kernel: Kernel) -> tuple[int | None, int | None]:
    """The values of a kernel's `__launch_bounds__(MAX_THREADS, MIN_WAVES)` as the file
    gives them (HIP's meaning of the second: waves per SIMD), each None where it is
    absent or not a compile-time constant here."""
    counter = _Counter(parsed, functions=False)
    out: list[int | None] = []
    tree = parsed.main.root
    for expr in kernel.launch_bounds[:2]:
        node = tree.descendant_for_byte_range(*expr.span)
        out.append(counter.constant(node, function_around(node)) if node is not None else None)
    return (out + [None, None])[0], (out + [None, None])[1]


def kernel_demand(parsed: ParsedFile, kernel: Kernel) -> Demand:
    """The kernel's demand (see the module's docstring), or why it cannot be counted."""
    if kernel.body_span is None:
        return Demand(None, reason="only its prototype is in this file")
    if kernel.in_macro:
        return Demand(None, reason="it is defined in a macro")
    node = _definition(parsed, kernel)
    if node is None:
        return Demand(None, reason="its definition was not found in the file's parse")
    from translator.facts import provide
    counter = provide(parsed, "register-counter")     # one per file: its functions, structs, constants
    peak, at, scratch = counter.function(node, None, frozenset())
    return Demand(peak + BASE, at, tuple(scratch))


def _definition(parsed: ParsedFile, kernel: Kernel) -> ts.Node | None:
    for frag in [parsed.main, *parsed.configurations]:
        if frag.delta:
            continue
        node = frag.root.descendant_for_byte_range(*kernel.span)
        while node is not None and node.type != "function_definition":
            node = node.parent
        if node is not None and (node.start_byte, node.end_byte) == kernel.span:
            return node
    return None


def _name(declarator: ts.Node | None) -> tuple[ts.Node | None, bool, list[ts.Node]]:
    """The identifier a declarator declares, whether a pointer or reference wraps it, and
    its array sizes (outermost first)."""
    pointer, sizes = False, []
    node = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type in ("pointer_declarator", "reference_declarator", "abstract_pointer_declarator"):
            pointer = True
        if node.type == "array_declarator":
            size = node.child_by_field_name("size")
            if size is not None:
                sizes.append(size)
        if node.type == "init_declarator" or node.type == "function_declarator":
            node = node.child_by_field_name("declarator")
            continue
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type in ("identifier", "field_identifier")
                          or c.type.endswith("declarator")), None)
        node = inner
    return node, pointer, sizes


@dataclass
class _Scope:
    """What one function's count knows: per-lane names, sizes, arrays, lambdas."""
    node: ts.Node
    lane: set[str] = field(default_factory=set)
    words: dict[str, int] = field(default_factory=dict)           # a name's size in 32-bit words
    pointee: dict[str, int] = field(default_factory=dict)         # a pointer's element size
    registers: dict[str, int] = field(default_factory=dict)       # register arrays: their words
    scratch: list[str] = field(default_factory=list)
    shared: set[str] = field(default_factory=set)
    unrolled: set[int] = field(default_factory=set)               # the ids of constant-trip for loops
    lambdas: dict[str, ts.Node] = field(default_factory=dict)


class _Counter:
    """The count over one file: its device functions and structs, looked up once."""

    def __init__(self, parsed: ParsedFile, functions: bool = True):
        self.parsed = parsed
        self.values = HostValues(parsed, table=macros(parsed))
        tree = parsed.main.root
        self.functions: dict[str, ts.Node] = {}
        for name, fn in (device_functions(parsed) if functions else {}).items():
            node = tree.descendant_for_byte_range(*fn.span)
            while node is not None and node.type != "function_definition":
                node = node.parent
            if node is not None:
                self.functions[name] = node
        self._structs: dict[str, int] | None = None
        self._memo: dict[tuple, int] = {}
        self.shared: dict[str, int] = {}           # the file-scope __shared__ arrays: their element size
        stack = list(tree.named_children)
        while stack:
            node = stack.pop()
            if node.type in ("namespace_definition", "declaration_list", "linkage_specification"):
                stack.extend(node.named_children)
            elif node.type == "declaration" and b"__shared__" in parsed.data[node.start_byte:node.end_byte]:
                kind = node.child_by_field_name("type")
                for d in node.children_by_field_name("declarator"):
                    name = _name(d)[0]
                    if name is not None and kind is not None:
                        self.shared[self.text(name)] = self.type_words(self.text(kind))

    def text(self, node: ts.Node) -> str:
        return self.parsed.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    # ---- sizes
    @property
    def structs(self) -> dict[str, int]:
        """The size in words of each struct or class the file defines (its data members)."""
        if self._structs is None:
            self._structs = {}
            stack = [self.parsed.main.root]
            found = []
            while stack:
                node = stack.pop()
                if node.type in ("struct_specifier", "class_specifier") and node.child_by_field_name("body"):
                    found.append(node)
                stack.extend(node.named_children)
            for node in reversed(found):        # inner structs first: they come later in a pre-order walk
                name = node.child_by_field_name("name")
                if name is None:
                    continue
                total = 0
                for member in node.child_by_field_name("body").named_children:
                    if member.type != "field_declaration":
                        continue
                    kind = member.child_by_field_name("type")
                    if kind is None or any(d.type == "function_declarator" for d in
                                           member.children_by_field_name("declarator")):
                        continue
                    if "static" in self.text(member).split():
                        continue
                    for d in member.children_by_field_name("declarator"):
                        _, pointer, sizes = _name(d)
                        total += self.declared_words(kind, pointer, sizes, None)
                self._structs[self.text(name)] = total
        return self._structs

    def type_words(self, type_text: str) -> int:
        """The size of a type, written without declarator, in 32-bit words."""
        words = [w for w in type_text.replace("*", " * ").split() if w not in _QUALIFIERS]
        if "*" in words or "&" in words:
            return 2
        name = " ".join(words)
        if name in _WIDE:
            return 2
        vector = _VECTOR.fullmatch(name)
        if vector:
            wide = vector.group(1).lstrip("u") in ("long", "longlong", "double")
            return int(vector.group(2)) * (2 if wide else 1)
        short = name.rsplit("::", 1)[-1]
        if short in self.structs:
            return max(1, self.structs[short])
        return 1

    def declared_words(self, kind: ts.Node, pointer: bool, sizes: list[ts.Node], function: ts.Node | None) -> int:
        if pointer:
            return 2
        words = self.type_words(self.text(kind))
        for size in sizes:
            count = self.constant(size, function)
            words *= count if count is not None else 1
        return words

    def constant(self, node: ts.Node, function: ts.Node | None) -> int | None:
        """The node's compile-time value (the largest, for a template's several), or None."""
        value = self.values.value(node, function, node.start_byte)
        if not value.known and node.type == "identifier":
            value = self._macro(self.text(node))
        return max(value.values) if value.known else None

    def _macro(self, name: str) -> Value:
        """An object-like macro's value, its comments left out (`#define LIVE 160 // ...`)."""
        text = self.values.macros.get(name)
        if not text:
            return Value(())
        text = _COMMENTS.sub(" ", text).strip()
        snippet = parse_file(b"int __cu2hip_value = " + text.encode() + b";\n")
        found = next((n for n in descendants(snippet.main.root) if n.type == "init_declarator"), None)
        value = found.child_by_field_name("value") if found is not None else None
        if snippet.main.root.has_error or value is None:
            return Value(())
        return HostValues(snippet, file=self.values).value(value, None, 0)

    # ---- one function
    def function(self, node: ts.Node, lanes: tuple[bool, ...] | None, outer: frozenset[str],
                 depth: int = 0, enclosing: _Scope | None = None) -> tuple[int, int | None, list[str]]:
        """The peak of a function (or lambda) body: (words, where, scratch arrays).
        `lanes`: which parameters are per lane (None: a kernel, all uniform); `outer`: the
        per-lane names a lambda sees."""
        scope = _Scope(node)
        if enclosing is not None:           # a lambda sees what its function declared
            scope.words.update(enclosing.words)
            scope.pointee.update(enclosing.pointee)
            scope.registers.update(enclosing.registers)
            scope.shared |= enclosing.shared
            scope.lambdas.update(enclosing.lambdas)
        scope.lane |= outer
        scope.shared |= set(self.shared)
        scope.pointee.update(self.shared)
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type not in ("function_declarator", "abstract_function_declarator"):
            declarator = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        own = 0
        for i, p in enumerate(c for c in (params.named_children if params is not None else ())
                              if c.type in ("parameter_declaration", "optional_parameter_declaration")):
            name, pointer, sizes = _name(p.child_by_field_name("declarator"))
            kind = p.child_by_field_name("type")
            if name is None or kind is None:
                continue
            key = self.text(name)
            size = 2 if pointer or sizes else self.type_words(self.text(kind))
            scope.words[key] = size
            if pointer or sizes:
                scope.pointee[key] = self.type_words(self.text(kind))
            if lanes is not None and i < len(lanes) and lanes[i]:
                scope.lane.add(key)
                own += size
        body = node.child_by_field_name("body")
        if body is None:
            return own, None, []
        self._prepare(scope, body, node if node.type == "function_definition" else function_around(node))
        walk = _Walk(self, scope, depth)
        walk.block(body, own)
        return walk.peak, walk.peak_at, scope.scratch

    def _prepare(self, scope: _Scope, body: ts.Node, function: ts.Node | None) -> None:
        """Declarations, register arrays, unrolled loops and the per-lane names (a fixed
        point over every initializer and assignment)."""
        writes: list[tuple] = []        # (name, value or None, conditions, through a subscript)
        arrays: dict[str, int] = {}
        subscripts: dict[str, list[ts.Node]] = {}
        stack: list[tuple[ts.Node, tuple[ts.Node, ...]]] = [(body, ())]
        while stack:
            node, conditions = stack.pop()
            kind = node.type
            if kind == "lambda_expression":
                continue
            if kind in ("if_statement", "while_statement", "do_statement", "switch_statement",
                        "conditional_expression"):
                cond = node.child_by_field_name("condition")
                inner = conditions + ((cond,) if cond is not None else ())
                stack.extend((c, inner if c != cond else conditions) for c in node.named_children)
                continue
            if kind == "for_statement":
                self._loop(scope, node, function)
                cond = node.child_by_field_name("condition")
                inner = conditions + ((cond,) if cond is not None else ())
                stack.extend((c, inner) for c in node.named_children)
                continue
            if kind == "declaration":
                self._declaration(scope, node, function, writes, arrays, conditions)
            elif kind == "assignment_expression":
                left = node.child_by_field_name("left")
                target = _base(left)
                if target is not None:
                    writes.append((self.text(target), node.child_by_field_name("right"), list(conditions),
                                   _subscripted(left)))
            elif kind == "update_expression":
                target = _base(node.child_by_field_name("argument"))
                if target is not None:
                    writes.append((self.text(target), None, list(conditions),
                                   _subscripted(node.child_by_field_name("argument"))))
            elif kind == "pointer_expression" and self.text(node).startswith("&"):
                target = _base(node.child_by_field_name("argument"))
                if target is not None:
                    scope.lane.add(self.text(target))
            elif kind == "subscript_expression":     # a[i][j]: both subscripts are a's
                target = node.child_by_field_name("argument")
                while target is not None and target.type == "subscript_expression":
                    target = target.child_by_field_name("argument")
                if target is not None and target.type == "identifier":
                    subscripts.setdefault(self.text(target), []).append(node)
            stack.extend((c, conditions) for c in node.named_children)
        for name, words in arrays.items():
            if all(self._compile_time(scope, s, function) for s in subscripts.get(name, ())):
                scope.registers[name] = words
            else:
                scope.scratch.append(name)
        changed = True
        while changed:
            changed = False
            for name, value, conditions, subscripted in writes:
                if name in scope.lane or name in scope.shared or (subscripted and name not in arrays):
                    continue        # `p[i] = v` through a pointer writes memory, not p
                if value is None and not conditions:
                    continue
                if (value is not None and self.lane(scope, value)) or any(self.lane(scope, c) for c in conditions):
                    scope.lane.add(name)
                    changed = True

    def _declaration(self, scope: _Scope, node: ts.Node, function, writes, arrays, conditions) -> None:
        words = self.text(node).split("=")[0].split()
        kind = node.child_by_field_name("type")
        for d in node.children_by_field_name("declarator"):
            name, pointer, sizes = _name(d)
            if name is None or kind is None:
                continue
            key = self.text(name)
            value = d.child_by_field_name("value") if d.type == "init_declarator" else None
            if "__shared__" in words or "extern" in words or "static" in words:
                scope.shared.add(key)
                scope.pointee[key] = self.type_words(self.text(kind))
                continue
            if value is not None and value.type == "lambda_expression":
                scope.lambdas[key] = value
                scope.words[key] = 0
                continue
            if sizes:
                total = self.declared_words(kind, False, sizes, function)
                arrays[key] = total
                scope.pointee[key] = self.type_words(self.text(kind))
                scope.words[key] = total
            else:
                scope.words[key] = self.declared_words(kind, pointer, [], function)
                if pointer:
                    scope.pointee[key] = self.type_words(self.text(kind))
            if value is not None:
                writes.append((key, value, list(conditions), False))

    def _loop(self, scope: _Scope, node: ts.Node, function) -> None:
        """A `for (T k = A; k < B; ++k)` whose bounds are compile-time constants and whose
        body never writes k: unrolled, so k is a constant in each copy."""
        init, cond = node.child_by_field_name("initializer"), node.child_by_field_name("condition")
        found = initialized(init)
        if found is None or cond is None or cond.type != "binary_expression":
            return
        name, start = found
        left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
        if left is None or right is None or self.text(left) != self.text(name):
            return
        if self.constant(start, function) is None or self.constant(right, function) is None:
            return
        key = self.text(name)
        body = node.child_by_field_name("body")
        pattern = re.compile(r"(?<![\w.>])" + re.escape(key) + r"\s*(?:[-+*/%&|^]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*"
                             + re.escape(key) + r"\b")
        if body is not None and pattern.search(self.text(body)):
            return
        scope.unrolled.add(node.id)

    def _compile_time(self, scope: _Scope, subscript: ts.Node, function) -> bool:
        """Is the subscript's index a constant once the constant-trip loops are unrolled?"""
        index = subscript.child_by_field_name("indices") or subscript.child_by_field_name("index")
        if index is None:
            return False
        stack = [index]
        while stack:
            node = stack.pop()
            if node.type == "identifier":
                name = self.text(node)
                loop = _loop_of(node, name, self)
                if (loop is None or loop.id not in scope.unrolled) and self.constant(node, function) is None:
                    return False
            elif node.type in ("call_expression", "field_expression", "subscript_expression", "pointer_expression"):
                if node.type != "call_expression" or self.constant(node, function) is None:
                    return False
            stack.extend(node.named_children)
        return True

    # ---- per lane or uniform
    def lane(self, scope: _Scope, node: ts.Node) -> bool:
        """Is the expression's value per lane (see the module's docstring)?"""
        kind = node.type
        if kind in ("number_literal", "string_literal", "char_literal", "true", "false", "null", "nullptr",
                    "sizeof_expression", "lambda_expression"):
            return False
        if kind == "identifier":
            name = self.text(node)
            if name == "threadIdx":
                return True
            return name in scope.lane or name in scope.shared
        if kind == "field_expression":
            argument = node.child_by_field_name("argument")
            if argument is not None and self.text(argument) in _UNIFORM_NAMES:
                return False
            return self.text(node.child_by_field_name("operator") or node)[:2] == "->" or \
                (argument is not None and self.lane(scope, argument))
        if kind == "subscript_expression":
            argument = node.child_by_field_name("argument")
            if argument is not None and argument.type == "identifier" and self.text(argument) in scope.registers:
                return self.text(argument) in scope.lane or any(self.lane(scope, c) for c in node.named_children)
            return True      # a read of memory
        if kind == "pointer_expression":
            return self.text(node).startswith("*") or any(self.lane(scope, c) for c in node.named_children)
        if kind == "call_expression":
            callee = node.child_by_field_name("function")
            name = self.text(callee) if callee is not None else ""
            if name in _LANE_CALLS or name.startswith("atomic") or name in self.functions or name in scope.lambdas \
                    or name.startswith("__shfl"):
                return True
            arguments = node.child_by_field_name("arguments")
            return arguments is not None and any(self.lane(scope, a) for a in arguments.named_children)
        return any(self.lane(scope, c) for c in node.named_children)


def _loop_of(node: ts.Node, name: str, counter: _Counter) -> ts.Node | None:
    """The nearest for loop around `node` whose initializer declares `name`."""
    up = node.parent
    while up is not None and up.type != "function_definition":
        if up.type == "for_statement":
            init = up.child_by_field_name("initializer")
            if init is not None and init.type == "declaration" and any(
                    (found := _name(d)[0]) is not None and counter.text(found) == name
                    for d in init.children_by_field_name("declarator")):
                return up
        up = up.parent
    return None


def _subscripted(node: ts.Node | None) -> bool:
    """Does the lvalue write through a subscript (`x[i]`, `x[i].f`)?"""
    while node is not None and node.type in ("field_expression", "parenthesized_expression"):
        node = node.child_by_field_name("argument") if node.type == "field_expression" else \
            (node.named_children[0] if node.named_children else None)
    return node is not None and node.type == "subscript_expression"


def _base(node: ts.Node | None) -> ts.Node | None:
    """The variable an lvalue writes: `x`, `x.f`, `x[i]` -> x (not `*p` or `p->f`)."""
    while node is not None:
        if node.type == "identifier":
            return node
        if node.type == "field_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type == "->":
                return None
            node = node.child_by_field_name("argument")
        elif node.type == "subscript_expression":
            node = node.child_by_field_name("argument")
        elif node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        else:
            return None
    return None


class _Walk:
    """The walk over one body that keeps the words live in scope and the peak."""

    def __init__(self, counter: _Counter, scope: _Scope, depth: int):
        self.counter, self.scope, self.depth = counter, scope, depth
        self.peak, self.peak_at = 0, None

    def bump(self, words: int, at: int) -> None:
        if words > self.peak:
            self.peak, self.peak_at = words, at

    def block(self, node: ts.Node, live: int) -> None:
        """A statement, with `live` words in scope before it."""
        kind = node.type
        if kind == "compound_statement":
            for child in node.named_children:
                live += self.statement(child, live)
            self.bump(live, node.start_byte)
            return
        self.statement(node, live)

    def statement(self, node: ts.Node, live: int, unrolled: bool = False) -> int:
        """Walk one statement; the words it adds to the enclosing scope (its declarations;
        none for the induction variable of an unrolled loop, `unrolled`)."""
        kind = node.type
        counter, scope = self.counter, self.scope
        if kind == "declaration":
            added = 0
            for d in node.children_by_field_name("declarator"):
                name, _, _ = _name(d)
                value = d.child_by_field_name("value") if d.type == "init_declarator" else None
                if value is not None and value.type != "lambda_expression":
                    self.bump(live + added + self.temporaries(value), node.start_byte)
                if name is None:
                    continue
                key = counter.text(name)
                if key in scope.shared or key in scope.lambdas or key in scope.scratch or unrolled:
                    continue
                if key in scope.lane:
                    added += scope.words.get(key, 1)
            self.bump(live + added, node.start_byte)
            return added
        if kind == "compound_statement":
            self.block(node, live)
            return 0
        if kind == "for_statement":
            inner = live
            init = node.child_by_field_name("initializer")
            if init is not None:
                inner += self.statement(init, live, node.id in scope.unrolled) if init.type == "declaration" else 0
                if init.type != "declaration":
                    self.bump(live + self.temporaries(init), node.start_byte)
            for part in ("condition", "update"):
                child = node.child_by_field_name(part)
                if child is not None:
                    self.bump(inner + self.temporaries(child), child.start_byte)
            body = node.child_by_field_name("body")
            if body is not None:
                self.block(body, inner)
            return 0
        if kind in ("if_statement", "while_statement", "do_statement", "switch_statement", "for_range_loop",
                    "else_clause", "case_statement", "labeled_statement"):
            for child in node.named_children:
                if child.type.endswith("statement") or child.type in ("else_clause", "case_statement"):
                    self.block(child, live)
                else:
                    self.bump(live + self.temporaries(child), child.start_byte)
            return 0
        self.bump(live + self.temporaries(node), node.start_byte)
        return 0

    def temporaries(self, node: ts.Node) -> int:
        """The words an expression needs while it is evaluated: each loaded value, the
        per-lane addresses of its reads (issued together, so live together; a store's
        address takes the registers of the reads' once they are done, and counts only
        where it needs more; one address per `__shared__` array, whose other elements are
        reached by immediate offsets), and the peak of each device function or lambda it
        calls."""
        counter, scope = self.counter, self.scope
        total = 0
        addresses = {False: 0, True: 0}        # of reads, of stores
        lds: set[tuple[str, bool]] = set()     # the __shared__ arrays addressed, by reads and by stores
        stack = [(node, False)]
        while stack:
            n, written = stack.pop()
            kind = n.type
            if kind == "lambda_expression":
                continue
            if kind == "assignment_expression":
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                operator = n.child_by_field_name("operator")
                plain = operator is not None and counter.text(operator) == "="
                if left is not None:
                    stack.append((left, plain))
                if right is not None:
                    stack.append((right, False))
                continue
            if kind == "subscript_expression":
                # `a[i][j]` is one access of a: its indices are walked, not the inner `a[i]`.
                argument, indices = n, []
                while argument is not None and argument.type == "subscript_expression":
                    index = argument.child_by_field_name("indices") or argument.child_by_field_name("index")
                    if index is not None:
                        indices.append(index)
                    argument = argument.child_by_field_name("argument")
                name = counter.text(argument) if argument is not None and argument.type == "identifier" else None
                if name is None or name not in scope.registers:
                    per_lane = any(counter.lane(scope, i) for i in indices) or \
                        (argument is not None and argument.type != "identifier" and counter.lane(scope, argument)) \
                        or (name is not None and name in scope.lane)
                    if per_lane and name in scope.shared:
                        if (name, written) not in lds:      # one base address, the rest immediate offsets
                            lds.add((name, written))
                            addresses[written] += 1
                    elif per_lane:
                        addresses[written] += 2
                    if not written:
                        total += scope.pointee.get(name, 1) if name is not None else 1
                stack.extend((i, False) for i in indices)
                if argument is not None and argument.type != "identifier":
                    stack.append((argument, False))
                continue
            elif kind == "pointer_expression" and counter.text(n).startswith("*"):
                argument = n.child_by_field_name("argument")
                if argument is not None and counter.lane(scope, argument):
                    addresses[written] += 2
                if not written:
                    total += scope.pointee.get(counter.text(argument), 1) if argument is not None else 1
            elif kind == "field_expression":
                operator = n.child_by_field_name("operator")
                argument = n.child_by_field_name("argument")
                if operator is not None and operator.type == "->" and argument is not None:
                    addresses[written] += 2 if counter.lane(scope, argument) else 0
                    total += 0 if written else 1
            elif kind == "call_expression":
                total += self.call(n)
            stack.extend((c, False) for c in n.named_children if c is not None)
        return total + max(addresses[False], addresses[True])

    def call(self, node: ts.Node) -> int:
        """The peak of a called device function or lambda of the file (0 for others)."""
        counter, scope = self.counter, self.scope
        callee = node.child_by_field_name("function")
        name = counter.text(callee) if callee is not None else ""
        arguments = node.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        target = scope.lambdas.get(name) or counter.functions.get(name)
        if target is None or self.depth >= _MAX_DEPTH:
            return 0
        lanes = tuple(counter.lane(scope, a) for a in args)
        key = (target.id, lanes, frozenset(scope.lane) if name in scope.lambdas else None)
        found = counter._memo.get(key)
        if found is None:
            counter._memo[key] = 0          # a recursive call counts nothing more
            if name in scope.lambdas:
                peak, _, _ = counter.function(target, lanes, frozenset(scope.lane), self.depth + 1, scope)
            else:
                peak, _, _ = counter.function(target, lanes, frozenset(), self.depth + 1)
            found = counter._memo[key] = peak
        return found
