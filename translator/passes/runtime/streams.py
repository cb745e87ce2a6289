"""Which stream the host code of a function puts its device work on, call by call, for the
runtime pass's synchronisation and graph rewrites (translator.passes.runtime.sync and
.graphs).

A call is one of:

* `launch`: a kernel launch, on the stream of its configuration (`0` when it names none);
* `async`: an asynchronous runtime call on a stream (`cudaMemcpyAsync(..., s)`, the
  last argument; `cudaEventRecord(e, s)`, `0` without; `cudaStreamWaitEvent(s, e, f)`,
  `cudaLaunchHostFunc(s, fn, data)`: the first);
* `default`: a blocking copy or memset, on the legacy default stream;
* `library`: a call of cuBLAS, cuFFT, cuRAND... (their work goes to the handle's stream);
* `neutral`: a runtime call that enqueues no work (allocation, creation, queries, error
  strings, synchronisation), or a host C library function that cannot reach the device;
* `unseen`: anything else (a function of the program, a function of another file, a
  member call, a macro whose body this module cannot read): it may enqueue work on any
  stream. A function-like macro the file defines is read through its body's calls.

Work no call expression shows (`hidden_calls`, read by `Program`, one per tree with the
file's macro table): a declaration of an object (in the scope, or at file scope, whose
constructor runs before main) whose class's constructor or destructor, a base's or a
member's, may enqueue work (a type the file does not define counts, but for the CUDA
headers' C types and the standard library's, whose template arguments are read; one the
file defines counts where a constructor or destructor is defined in another file, or
its body makes a call that is not `neutral`, or holds hidden work itself, or a member is
initialised by a call); an operator expression whose operand is not of a built-in type
where the file overloads that operator in host code and a definition of it may enqueue
work (a conversion operator: anywhere); the use of a macro whose body (every
definition, its macros read through) launches or calls a name that is not `neutral`.
Host threads (`Program.threads`) are found in the tree and the macros' bodies:
`std::thread`, `std::jthread`, `std::async`, `pthread_create`, `#pragma omp`, and the
unqualified names under `using namespace std`; a comment or a string naming one is none.

A stream is known (`created`) when it is a local `cudaStream_t` of the function created
by `cudaStreamCreate(&s)` (or `WithFlags`, `WithPriority`) in a statement of the
function's body itself (not in a loop or branch), and its address is taken, and it is
written, nowhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from translator.passes.runtime import loops
from translator.passes.runtime.loops import line_of, text

DEFAULT_STREAMS = frozenset({"0", "NULL", "nullptr", "cudaStreamDefault", "cudaStreamLegacy", "cudaStreamPerThread",
                             "(cudaStream_t)0", "cudaStream_t(0)", "0L"})
_ASYNC_LAST = frozenset({"cudaMemcpyAsync", "cudaMemsetAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
                         "cudaMemset2DAsync", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync",
                         "cudaMemPrefetchAsync", "cudaMallocAsync", "cudaFreeAsync", "cudaGraphLaunch"})
# Asynchronous calls whose first argument is their stream.
_ASYNC_FIRST = frozenset({"cudaStreamWaitEvent", "cudaLaunchHostFunc", "cudaStreamAddCallback"})
_DEFAULT = frozenset({"cudaMemcpy", "cudaMemset", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemset2D",
                      "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpyPeer"})
_NEUTRAL = frozenset({
    "cudaMalloc", "cudaMallocHost", "cudaHostAlloc", "cudaMallocManaged", "cudaMallocPitch", "cudaFree",
    "cudaFreeHost", "cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority",
    "cudaStreamDestroy", "cudaEventCreate", "cudaEventCreateWithFlags", "cudaEventDestroy", "cudaGetLastError",
    "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName", "cudaSetDevice", "cudaGetDevice",
    "cudaGetDeviceCount", "cudaGetDeviceProperties", "cudaDeviceGetAttribute", "cudaEventElapsedTime",
    "cudaEventSynchronize", "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaThreadSynchronize",
    "cudaEventQuery", "cudaStreamQuery", "cudaMemGetInfo", "cudaFuncSetAttribute", "cudaFuncGetAttributes",
    "cudaDeviceSetLimit", "cudaDeviceGetLimit", "cudaRuntimeGetVersion", "cudaDriverGetVersion",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "cudaOccupancyMaxPotentialBlockSize",
    "cudaDeviceGetStreamPriorityRange", "cudaGraphDestroy", "cudaGraphExecDestroy"})
_HOST = frozenset({"printf", "fprintf", "puts", "fputs", "fflush", "sprintf", "snprintf", "malloc", "calloc", "free",
                   "memset", "memcpy", "memcmp", "exit", "abort", "rand", "srand", "fabs", "fabsf", "sqrt", "sqrtf",
                   "exp", "expf", "sin", "sinf", "cos", "cosf", "abs", "atoi", "atof", "strtol", "strtod", "strcmp",
                   "std::abs", "std::fabs", "std::sqrt", "std::exp", "std::min", "std::max", "std::printf",
                   "std::exit", "std::memset", "std::memcpy", "assert", "static_cast", "reinterpret_cast",
                   "const_cast", "sizeof"})
_LIBRARIES = ("cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn", "nccl")
STREAM_CREATES = frozenset({"cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority"})


@dataclass(frozen=True)
class Op:
    call: object            # the call_expression
    kind: str               # launch, async, default, library, neutral, unseen
    stream: str | None      # for launch and async
    name: str               # the callee (the kernel's name for a launch)


def _arguments(call) -> list:
    arguments = call.child_by_field_name("arguments")
    return [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []


def launch_stream(data: bytes, call) -> str | None:
    """The stream of a launch's configuration (`0` when it names none), None when the
    call is no launch."""
    config = next((c for c in call.children if c.type == "kernel_call_syntax"), None)
    if config is None:
        return None
    parts = [c for c in config.named_children if c.type != "comment"]
    return text(data, parts[3]) if len(parts) > 3 else "0"


def macro_body(data: bytes, name: str) -> str | None:
    """The body of the file's function-like macro `name`, or None."""
    m = re.search(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name.encode()) + rb"\(((?:[^\n\\]|\\.|\\\n)*)", data,
                  re.M)
    return m.group(1).decode("utf-8", "replace") if m else None


def classify(data: bytes, call, seen: frozenset[str] = frozenset()) -> Op:
    callee_node = call.child_by_field_name("function")
    callee = text(data, callee_node)
    stream = launch_stream(data, call)
    if stream is not None:
        return Op(call, "launch", stream, callee)
    args = _arguments(call)
    if callee in _ASYNC_LAST:
        return Op(call, "async", text(data, args[-1]) if args else "0", callee)
    if callee == "cudaEventRecord":
        return Op(call, "async", text(data, args[1]) if len(args) > 1 else "0", callee)
    if callee in _ASYNC_FIRST:
        return Op(call, "async", text(data, args[0]) if args else "0", callee)
    if callee in _DEFAULT:
        return Op(call, "default", None, callee)
    if callee in _NEUTRAL or callee in _HOST:
        return Op(call, "neutral", None, callee)
    if callee.startswith(_LIBRARIES):
        return Op(call, "library", None, callee)
    if callee_node is not None and callee_node.type == "identifier" and callee not in seen:
        body = macro_body(data, callee)
        if body is not None and "<<<" not in body:
            names = set(re.findall(r"([A-Za-z_]\w*(?:::\w+)*)\s*\(", body))
            if all(n in _NEUTRAL or n in _HOST or n in ("do", "while", "if", "for", "switch", "return")
                   or n == callee for n in names):
                return Op(call, "neutral", None, callee)
    return Op(call, "unseen", None, callee)


def operations(data: bytes, node):
    """The calls in `node`, in source order, classified (lambdas' bodies included: a
    lambda may be called there)."""
    for n in loops.walk(node):
        if n.type == "call_expression":
            yield classify(data, n)


def created(data: bytes, function, name: str, before: int) -> str | None:
    """None when `name` is a stream the function creates itself before byte `before`
    (see the module's docstring), else why not. What does not depend on `before` is
    found once per function and name (a function of N loops of launches asks N times)."""
    body = function.child_by_field_name("body")
    memo = loops.index(data, body).memo
    key = ("created", name)
    if key not in memo:
        memo[key] = _creation(data, body, name)
    why, creation, uses = memo[key]
    if why is not None:
        return why
    if creation.statement.start_byte >= before:
        return f"'{name}' is not created by a cudaStreamCreate statement of the function's body before this point"
    for destroyed, n, message in uses:
        if not destroyed or n.start_byte < before:
            return message
    return None


def _body_streams(data: bytes, body) -> tuple[dict, dict]:
    """The body's statements read once for every name a question asks about (a function of
    many loops, each with a stream of its own, asked once per stream): each name's first
    declaration statement, and the first stream creation statement whose target it is."""
    memo = loops.index(data, body).memo
    if "streams of the body" not in memo:
        declarations: dict = {}
        creations: dict = {}
        for statement in loops.statements(body):
            if statement.type == "declaration":
                for n in loops.walk(statement):
                    if n.type in loops.DECLARING:
                        for declared in loops.declared_names(data, n):
                            declarations.setdefault(declared, statement)
            call = loops.call_of_statement(data, statement, STREAM_CREATES)
            if call is not None and call.arguments:
                target = loops.target_of(data, call.arguments[0])
                if target is not None:
                    creations.setdefault(target, call)
        memo["streams of the body"] = (declarations, creations)
    return memo["streams of the body"]


def _creation(data: bytes, body, name: str):
    """(why `name` is no stream the body creates, None, ()) or (None, its creation, the
    uses that would make it unknown: (a destruction, whose point matters; the node; the
    reason), in order)."""
    declarations, creations = _body_streams(data, body)
    declaration = declarations.get(name)
    if declaration is None or text(data, declaration.child_by_field_name("type")) != "cudaStream_t":
        return (f"'{name}' is not a cudaStream_t declared in the function's body (a parameter, a global, an "
                "expression)"), None, ()
    creation = creations.get(name)
    if creation is None:
        return f"'{name}' is not created by a cudaStreamCreate statement of the function's body before this point", \
            None, ()
    uses = []
    for n in loops.index(data, body).identifiers.get(name, ()):
        if creation.call.start_byte <= n.start_byte < creation.call.end_byte or \
                declaration.start_byte <= n.start_byte < declaration.end_byte:
            continue
        parent = n.parent
        if parent is not None and parent.type == "pointer_expression" and \
                text(data, parent.child_by_field_name("operator")) == "&":
            uses.append((False, n, f"'&{name}' is taken again (line {line_of(data, n)})"))
            break
        if parent is not None and parent.type in ("assignment_expression", "update_expression") and \
                parent.child_by_field_name("left") in (n, None):
            uses.append((False, n, f"'{name}' is assigned (line {line_of(data, n)})"))
            break
        if parent is not None and parent.type == "argument_list" and parent.parent is not None and \
                text(data, parent.parent.child_by_field_name("function")) == "cudaStreamDestroy":
            uses.append((True, n, f"'{name}' is destroyed before this point (line {line_of(data, n)})"))
    return None, creation, tuple(uses)


_THREADS = (b"std::thread", b"pthread_create", b"std::async", b"#pragma omp", b"std::jthread")


_USING_STD = re.compile(rb"\busing\s+(?:namespace\s+std|std\s*::\s*(?:j?thread|async))\s*;")
_UNQUALIFIED = re.compile(rb"^(?![ \t]*#[ \t]*include).*?(?<![.:>])\b(j?thread|async)\b", re.M)


def threads(data: bytes) -> str | None:
    """The first way the file may start host threads (another thread may enqueue work),
    from its text: a superset (a comment naming one counts; `Program.threads` reads the
    tree), for the ordering of hoisted releases (translator.passes.runtime.ordering).
    Under `using namespace std`, an unqualified `thread`, `jthread` or `async` counts."""
    found = next((t.decode() for t in _THREADS if t in data), None)
    if found is None and _USING_STD.search(data):
        m = _UNQUALIFIED.search(data)
        found = m.group(1).decode() if m else None
    return found


# ---- work that no call expression shows: constructors, overloaded operators, macros, threads

@dataclass(frozen=True)
class Hidden:
    node: object            # where it runs: the declaration, the operator expression, the macro's use
    why: str                # what it runs, as a phrase ("the constructor of 'Launcher' (line 4)...")


_KEYWORDS = frozenset({"do", "while", "if", "for", "switch", "return", "sizeof", "static_cast", "reinterpret_cast",
                       "const_cast", "defined", "decltype", "alignof", "else"})
# Types of the CUDA headers and libraries: C structs, enums and handles, which construct nothing.
_RUNTIME_TYPE = re.compile(r"(?:cuda|cu[A-Z]|CU|cublas|cufft|curand|cusparse|cusolver|cudnn|nccl)\w*\Z|"
                           r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double|half|bfloat16)[1-4]\Z|"
                           r"dim3\Z|__half2?\Z|__nv_bfloat162?\Z|s?size_t\Z|ptrdiff_t\Z|u?int(?:8|16|32|64)_t\Z|"
                           r"u?intptr_t\Z|FILE\Z|wchar_t\Z|char(?:8|16|32)_t\Z|time_t\Z|clock_t\Z")
# The standard library's names (under `using namespace std`): their constructors enqueue no
# device work (their template arguments' may: they are checked); threads are found apart.
_STD_NAMES = frozenset({"vector", "string", "array", "map", "multimap", "set", "multiset", "unordered_map",
                        "unordered_set", "pair", "tuple", "deque", "list", "forward_list", "queue", "stack",
                        "priority_queue", "unique_ptr", "shared_ptr", "weak_ptr", "optional", "variant",
                        "function", "complex", "valarray", "bitset", "mt19937", "mt19937_64", "minstd_rand",
                        "default_random_engine", "random_device", "uniform_int_distribution",
                        "uniform_real_distribution", "normal_distribution", "bernoulli_distribution",
                        "stringstream", "istringstream", "ostringstream", "ifstream", "ofstream", "fstream",
                        "string_view", "mutex", "atomic", "numeric_limits", "initializer_list"})
_THREAD_NAMES = frozenset({"thread", "jthread", "async"})
_THREAD_CALLS = frozenset({"pthread_create", "thrd_create"})
_OPERATOR_NODES = {"assignment_expression": ("left", "right"), "binary_expression": ("left", "right"),
                   "unary_expression": ("argument",), "update_expression": ("argument",),
                   "pointer_expression": ("argument",), "subscript_expression": ("argument",),
                   "field_expression": ("argument",)}
_DEPTH = 8          # constructors that construct objects of classes that... before "not seen"


def _name_of(data: bytes, node) -> str:
    return re.sub(r"\s+", "", text(data, node))


def _host_callable(data: bytes, node) -> bool:
    """The definition or declaration around `node` is not `__device__` (or `__global__`) alone."""
    n = node
    while n is not None and n.type not in ("function_definition", "declaration", "field_declaration"):
        n = n.parent
    if n is None:
        return True
    body = n.child_by_field_name("body")
    head = data[n.start_byte:body.start_byte if body is not None else n.end_byte]
    if re.search(rb"\b__global__\b", head):
        return False
    return not re.search(rb"\b__device__\b", head) or bool(re.search(rb"\b__host__\b", head))


class Program:
    """The file's types and overloaded operators, and the macro table: what a declaration,
    an operator or a macro's use may run (gathered once per tree)."""

    def __init__(self, data: bytes, root, table=None):
        self.data, self.root, self.table = data, root, table
        self.classes: dict[str, list] = {}          # name (last component) -> definitions with a body
        self.aliases: dict[str, list] = {}          # typedef / using name -> the aliased type nodes
        self.enums: set[str] = set()
        self.functions: dict[str, list] = {}        # a definition's name as written, spaces removed -> definitions
        self.operators: dict[str, list] = {}        # a host-callable overloaded operator's symbol -> its nodes
        self.conversions: list = []                 # host-callable conversion operators
        self.using_std = False                      # `using namespace std;` or `using std::thread;`
        self.template_params: set[str] = set()      # the names of template type parameters
        self._quiet: dict = {}                       # a class or operator (its start) -> what it runs
        for n in loops.descendants(root):
            kind = n.type
            if kind in ("struct_specifier", "class_specifier", "union_specifier"):
                name = n.child_by_field_name("name")
                if name is not None and n.child_by_field_name("body") is not None:
                    self.classes.setdefault(_name_of(data, name).split("::")[-1].split("<")[0], []).append(n)
            elif kind in ("type_parameter_declaration", "optional_type_parameter_declaration"):
                name = n.child_by_field_name("name") or next((c for c in n.named_children
                                                              if c.type == "type_identifier"), None)
                if name is not None:
                    self.template_params.add(text(data, name))
            elif kind == "enum_specifier":
                name = n.child_by_field_name("name")
                if name is not None:
                    self.enums.add(_name_of(data, name).split("::")[-1])
            elif kind == "type_definition":
                for d in n.children_by_field_name("declarator"):
                    pointer = d.type != "type_identifier"
                    while d is not None and d.type != "type_identifier":
                        d = d.child_by_field_name("declarator")
                    if d is not None:
                        self.aliases.setdefault(text(data, d), []).append(None if pointer else
                                                                           n.child_by_field_name("type"))
            elif kind == "alias_declaration":
                name, aliased = n.child_by_field_name("name"), n.child_by_field_name("type")
                if name is not None:
                    abstract = aliased.child_by_field_name("declarator") if aliased is not None else None
                    self.aliases.setdefault(text(data, name), []).append(
                        None if abstract is not None else (aliased.child_by_field_name("type") if aliased else None))
            elif kind == "using_declaration":
                words = _name_of(data, n)
                if words in ("usingnamespacestd;", "usingstd::thread;", "usingstd::jthread;", "usingstd::async;"):
                    self.using_std = True
            elif kind == "function_definition":
                d = n.child_by_field_name("declarator")
                while d is not None and d.type not in ("function_declarator",):
                    d = d.child_by_field_name("declarator")
                name = d.child_by_field_name("declarator") if d is not None else None
                if name is not None:
                    self.functions.setdefault(_name_of(data, name), []).append(n)
            elif kind == "operator_name" and _host_callable(data, n):
                symbol = _name_of(data, n)[len("operator"):]
                if symbol not in ("()", "") and not symbol.startswith('""'):
                    self.operators.setdefault(symbol, []).append(n)
            elif kind == "operator_cast" and _host_callable(data, n):
                self.conversions.append(n)

    # -- types
    def type_code(self, node, depth: int = 0) -> str | None:
        """None when constructing (and destroying) an object of the type `node` names runs no
        code that may enqueue device work, else what it runs."""
        data = self.data
        if node is None:
            return "a type this pass does not read"
        kind = node.type
        if kind in ("primitive_type", "sized_type_specifier", "placeholder_type_specifier", "enum_specifier",
                    "decltype", "auto"):
            return None
        if kind == "type_descriptor":
            abstract = node.child_by_field_name("declarator")
            return None if abstract is not None and "pointer" in abstract.type else \
                self.type_code(node.child_by_field_name("type"), depth)
        if kind in ("struct_specifier", "class_specifier", "union_specifier") and \
                node.child_by_field_name("body") is not None:
            return self._class_code(node, depth)
        name = _name_of(data, node.child_by_field_name("name") if kind in ("struct_specifier", "class_specifier",
                                                                         "union_specifier") else node)
        arguments = next((c for c in loops.walk(node) if c.type == "template_argument_list"), None)
        base = re.sub(r"<.*", "", name)
        last = base.split("::")[-1]
        if base.split("::")[0] != "std" and last in self.classes:
            for spec in self.classes[last]:
                why = self._class_code(spec, depth)
                if why is not None:
                    return why
            return self._arguments_code(arguments, depth)
        if "::" not in base and base in self.aliases:
            for aliased in self.aliases[base]:
                why = self.type_code(aliased, depth + 1) if aliased is not None and depth < _DEPTH else None
                if why is not None:
                    return why
            return None
        if "::" not in base and (base in self.enums or base in self.template_params) or _RUNTIME_TYPE.match(base):
            return None         # a template parameter: the arguments of each use of the template are checked
        if base.startswith(("std::", "chrono::")) or self.using_std and base in _STD_NAMES:
            return self._arguments_code(arguments, depth)
        return f"the constructor of '{name}', a type this file does not define"

    def _arguments_code(self, arguments, depth: int) -> str | None:
        if arguments is None or depth >= _DEPTH:
            return None if arguments is None else "constructors of types nested too deep to read"
        for a in arguments.named_children:
            if a.type == "type_descriptor":
                why = self.type_code(a, depth + 1)
                if why is not None:
                    return why
        return None

    def _class_code(self, spec, depth: int) -> str | None:
        key = spec.start_byte
        if key in self._quiet:
            return self._quiet[key]
        self._quiet[key] = None         # met again while its members are read (a template argument): no more
        why = self._class_code_of(spec, depth)
        self._quiet[key] = why
        return why

    def _class_code_of(self, spec, depth: int) -> str | None:
        data = self.data
        if depth >= _DEPTH:
            return "constructors of members nested too deep to read"
        name_node = spec.child_by_field_name("name")
        name = _name_of(data, name_node).split("::")[-1].split("<")[0] if name_node is not None else ""
        shown = name or "an unnamed class"
        for c in spec.children:
            if c.type == "base_class_clause":
                for b in c.named_children:
                    if b.type in ("type_identifier", "qualified_identifier", "template_type"):
                        why = self.type_code(b, depth + 1)
                        if why is not None:
                            return why          # the base's constructor runs
        members = list(spec.child_by_field_name("body").named_children)
        while members:
            m = members.pop(0)
            if m.type == "template_declaration":
                members[:0] = [c for c in m.named_children if c.type != "template_parameter_list"]
                continue
            if m.type not in ("function_definition", "declaration", "field_declaration"):
                continue
            special = _special(data, m, name)
            if special is not None:
                why = self._special_code(m, name, special, depth)
                if why is not None:
                    return f"the {special} of '{shown}' (line {line_of(data, m)}), which {why}"
                continue
            if m.type != "field_declaration" or any(c.type == "storage_class_specifier" and text(data, c) == "static"
                                                    for c in m.children):
                continue
            if any(c.type == "function_declarator" for c in loops.walk(m)):
                continue            # a member function: called by name, seen where it is
            value = m.child_by_field_name("default_value")
            if value is not None and any(n.type in ("call_expression", "new_expression") for n in loops.walk(value)):
                return f"the initialiser '{text(data, value)}' of a member of '{shown}' (line {line_of(data, m)})"
            declarators = m.children_by_field_name("declarator")
            if declarators and all(d.type in ("pointer_declarator", "reference_declarator") for d in declarators):
                continue
            why = self.type_code(m.child_by_field_name("type"), depth + 1)
            if why is not None:
                return why              # the member's constructor runs
        return None

    def _special_code(self, member, name: str, special: str, depth: int) -> str | None:
        """None when the constructor or destructor declared by `member` is defaulted or
        deleted, or every definition of it in the file enqueues nothing."""
        data = self.data
        words = _name_of(data, member)
        if words.endswith(("=default;", "=delete;")):
            return None
        definitions = [member] if member.type == "function_definition" else []
        if not definitions:
            wanted = f"{name}::~{name}" if special == "destructor" else f"{name}::{name}"
            definitions = [f for key, fs in self.functions.items() if key == wanted or key.endswith("::" + wanted)
                           for f in fs]
        if not definitions:
            return "is defined in another file: it may enqueue work"
        for f in definitions:
            why = self.body_work(f, depth + 1)
            if why is not None:
                return why
        return None

    def body_work(self, function, depth: int) -> str | None:
        """What a function of the file (a constructor, destructor or operator) runs that may
        enqueue work: a call that is not known to enqueue none, or hidden work; None."""
        data = self.data
        if depth >= _DEPTH:
            return "calls functions nested too deep to read"
        for op in operations(data, function):
            if op.kind == "launch":
                return f"launches {op.name} (line {line_of(data, op.call)})"
            if op.kind != "neutral":
                return f"calls {op.name} (line {line_of(data, op.call)})"
        hidden = self.hidden(function, depth + 1)
        if hidden:
            return f"holds {hidden[0].why}"
        return None

    # -- the hidden work of a scope
    def hidden(self, scope, depth: int = 0) -> list[Hidden]:
        """The work `scope` runs that no call expression in it shows: objects it declares
        whose class runs code, overloaded operators, macros whose expansion calls, in
        source order."""
        data = self.data
        found: list[Hidden] = []
        for n in loops.descendants(scope):
            kind = n.type
            if kind == "declaration":
                why = self.declaration_code(n, depth)
                if why is not None:
                    found.append(Hidden(n, f"the declaration '{text(data, n)}' (line {line_of(data, n)}) runs {why}"))
            elif kind in ("new_expression", "compound_literal_expression"):
                why = self.type_code(n.child_by_field_name("type"), depth)
                symbol = "new" if kind == "new_expression" else None
                if why is None and symbol is not None and (symbol in self.operators or "new[]" in self.operators):
                    why = "the file's operator new"
                if why is not None:
                    found.append(Hidden(n, f"'{text(data, n)}' (line {line_of(data, n)}) runs {why}"))
            elif kind == "delete_expression" and any(s.startswith("delete") for s in self.operators):
                found.append(Hidden(n, f"'{text(data, n)}' (line {line_of(data, n)}) may call the file's operator "
                                       "delete"))
            elif kind in _OPERATOR_NODES and self.operators:
                symbol = self._symbol(n)
                if symbol in self.operators and not all(self.builtin(n.child_by_field_name(f), scope)
                                                        for f in _OPERATOR_NODES[kind]):
                    why = self.operator_code(symbol, depth)
                    if why is not None:
                        found.append(Hidden(n, f"'{text(data, n)}' (line {line_of(data, n)}) may call {why}"))
        if self.conversions:
            c = self.conversions[0]
            found.append(Hidden(scope, f"the conversion operator '{text(data, c)}' (line {line_of(data, c)}), "
                                       "which any expression of its class may call"))
        found += self.macro_work(scope)
        found.sort(key=lambda h: h.node.start_byte)
        return found

    def operator_code(self, symbol: str, depth: int) -> str | None:
        """What the file's overloaded operator `symbol` runs (its first definition that may
        enqueue work), or None when every definition of it in the file enqueues nothing."""
        data = self.data
        whys = []
        for n in self.operators[symbol]:
            holder = n
            while holder is not None and holder.type not in ("function_definition", "declaration",
                                                             "field_declaration"):
                holder = holder.parent
            if holder is None or holder.type != "function_definition":
                definitions = [f for key, fs in self.functions.items() if key.endswith("operator" + symbol)
                               for f in fs]
                if not definitions:
                    return f"the file's operator{symbol} (line {line_of(data, n)}), defined in another file"
            else:
                definitions = [holder]
            for f in definitions:
                key = ("operator", f.start_byte)
                if key not in self._quiet:
                    self._quiet[key] = None         # a recursive operator: its own use adds nothing
                    self._quiet[key] = self.body_work(f, depth + 1)
                if self._quiet[key] is not None:
                    whys.append(f"the file's operator{symbol} (line {line_of(data, f)}), which {self._quiet[key]}")
        return whys[0] if whys else None

    def declaration_code(self, declaration, depth: int = 0) -> str | None:
        """What constructing the objects a declaration declares may run, or None."""
        objects = []
        for d in declaration.children_by_field_name("declarator"):
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            if inner is not None and inner.type in ("pointer_declarator", "reference_declarator"):
                continue
            if inner is not None and inner.type == "function_declarator" and declaration.parent is not None and \
                    declaration.parent.type in ("translation_unit", "declaration_list"):
                continue        # a function's declaration at file scope
            objects.append(d)
        if not objects:
            return None
        return self.type_code(declaration.child_by_field_name("type"), depth)

    def _symbol(self, node) -> str | None:
        kind = node.type
        if kind == "subscript_expression":
            return "[]"
        operator = node.child_by_field_name("operator")
        if operator is None:
            operator = next((c for c in node.children if not c.is_named), None)
        symbol = _name_of(self.data, operator) if operator is not None else None
        if kind == "field_expression":
            return "->" if symbol == "->" else None
        return symbol

    def builtin(self, node, scope) -> bool:
        """The expression's value is of a built-in type (a number, a pointer, an element of an
        array of numbers...): no operator of the file applies to it."""
        data = self.data
        if node is None:
            return False
        kind = node.type
        if kind in ("number_literal", "char_literal", "string_literal", "true", "false", "null", "nullptr",
                    "sizeof_expression", "concatenated_string"):
            return True
        if kind == "parenthesized_expression":
            inner = [c for c in node.named_children if c.type != "comment"]
            return len(inner) == 1 and self.builtin(inner[0], scope)
        if kind in ("binary_expression", "assignment_expression"):
            return self.builtin(node.child_by_field_name("left"), scope) and \
                self.builtin(node.child_by_field_name("right"), scope)
        if kind in ("unary_expression", "update_expression"):
            return self.builtin(node.child_by_field_name("argument"), scope)
        if kind == "cast_expression":
            descriptor = node.child_by_field_name("type")
            kind = descriptor.child_by_field_name("type") if descriptor is not None else None
            abstract = descriptor.child_by_field_name("declarator") if descriptor is not None else None
            return abstract is not None and "pointer" in abstract.type or \
                kind is not None and kind.type in ("primitive_type", "sized_type_specifier")
        if kind == "pointer_expression":
            if self._symbol(node) == "&":
                return self.builtin(node.child_by_field_name("argument"), scope)
            return self._element_builtin(node.child_by_field_name("argument"), scope)
        if kind == "subscript_expression":
            return self._element_builtin(node.child_by_field_name("argument"), scope)
        if kind == "identifier":
            shape = self._declared(text(data, node), scope)
            return shape is not None and (shape[0] or shape[1])
        return False

    def _element_builtin(self, node, scope) -> bool:
        """`*p` or `p[i]` of a pointer or array of a built-in type."""
        if node is None or node.type != "identifier":
            return False
        shape = self._declared(text(self.data, node), scope)
        return shape is not None and shape[0]

    def _declared(self, name: str, scope) -> tuple[bool, bool] | None:
        """(its type is built-in, it is a pointer or an array) for a name declared in the
        function around `scope` (a parameter too) or at file scope, else None."""
        data = self.data
        function = scope
        while function is not None and function.type != "function_definition":
            function = function.parent
        declaration = loops.declared_in(data, function, name) if function is not None else None
        if declaration is None:
            declaration = next((d for d in self.root.named_children if d.type == "declaration"
                                and name in loops.declared_names(data, d)), None)
        if declaration is None:
            return None
        kind = declaration.child_by_field_name("type")
        primitive = kind is not None and (kind.type in ("primitive_type", "sized_type_specifier") or
                                          _RUNTIME_TYPE.match(_name_of(data, kind)) is not None)
        pointer = False
        for d in declaration.children_by_field_name("declarator"):
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            names = [text(data, n) for n in loops.walk(inner) if n.type == "identifier"] if inner is not None else []
            if name in names and inner.type in ("pointer_declarator", "array_declarator"):
                pointer = True
        return primitive, pointer

    # -- macros
    def macro_work(self, scope) -> list[Hidden]:
        """The uses of the file's macros in `scope` whose expansion may enqueue work."""
        from translator.ir import macros
        table = self.table
        if table is None or not table.names:
            return []
        found = []
        frag = _Frag()
        for name, node in macros.uses(table, frag, self.data, scope):
            why = self.macro_code(name, frozenset())
            if why is not None:
                found.append(Hidden(node, f"the macro {name} (line {line_of(self.data, node)}) {why}"))
        return found

    def macro_code(self, name: str, seen: frozenset[str]) -> str | None:
        """What the macro's body (every definition of it, the macros it uses read through)
        runs that may enqueue work: a launch, or a call of a name not known to enqueue none."""
        table = self.table
        if name in seen or len(seen) > _DEPTH:
            return None if name in seen else "its macros nest too deep to read"
        from translator.ir import macros
        for definition in table.every.get(name, []):
            body = definition.body
            if "<<<" in body:
                return f"expands to '{body}', a launch"
            found = macros.tokens(body)
            params = set(definition.params or ())
            for token, after in zip(found, found[1:] + [""]):
                if token in params or not (token[0].isalpha() or token[0] == "_"):
                    continue
                if token in table.names:
                    why = self.macro_code(token, seen | {name})
                    if why is not None:
                        return f"uses the macro {token}, which {why}"
                    continue
                if after == "(" and token not in _NEUTRAL and token not in _HOST and token not in _KEYWORDS:
                    return f"expands to '{body}', a call of {token}"
        return None

    # -- threads
    def threads(self) -> str | None:
        """The first way the program starts a host thread, found in its tree (a comment or a
        string naming one is none) and its macros' bodies."""
        data = self.data
        for n in loops.descendants(self.root):
            kind = n.type
            if kind == "qualified_identifier":
                name = re.sub(r"<.*", "", _name_of(data, n)).lstrip(":")
                if name in ("std::thread", "std::jthread", "std::async", "boost::thread"):
                    return name
            elif kind in ("identifier", "type_identifier"):
                name = text(data, n)
                if name in _THREAD_CALLS or self.using_std and name in _THREAD_NAMES and \
                        (n.parent is None or n.parent.type != "qualified_identifier"):
                    return name
            elif kind == "preproc_call" and text(data, n.child_by_field_name("directive")) == "#pragma":
                argument = text(data, n.child_by_field_name("argument")).split()
                if argument and argument[0] == "omp":
                    return "#pragma omp"
        table = self.table
        if table is not None:
            for name, definitions in table.every.items():
                for definition in definitions:
                    words = re.sub(r"\s+", "", definition.body)
                    hit = re.search(r"\bstd::(?:j?thread|async)\b|\b(?:pthread_create|thrd_create)\b|_Pragma\(\"omp",
                                    words)
                    if hit is None and self.using_std:
                        hit = re.search(r"\b(?:j?thread|async)\b", definition.body)
                    if hit is not None:
                        return f"{hit.group(0)} (in the macro {name})"
        return None


class _Frag:
    """The text of a node of the file's own tree (translator.ir.macros.uses reads names through it)."""

    @staticmethod
    def text(data: bytes, node) -> str:
        return text(data, node)


def _special(data: bytes, member, name: str) -> str | None:
    """'constructor' or 'destructor' when the class member declares one of class `name`."""
    d = member.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator") if d.type != "init_declarator" else d.child_by_field_name("declarator")
    if d is None:
        return None
    target = d.child_by_field_name("declarator")
    if target is None:
        return None
    if target.type == "destructor_name":
        return "destructor"
    return "constructor" if name and _name_of(data, target) in (name, f"{name}::{name}") else None


def hidden_calls(data: bytes, root, scope, table=None, program: Program | None = None) -> list[Hidden]:
    """The work `scope` (a function's body) runs that `operations` does not show (see
    Program.hidden), and the constructors of the file's objects of static storage, which
    run before main."""
    program = program or Program(data, root, table)
    found = program.hidden(scope)
    for n in root.named_children:
        stack = [n]
        while stack:
            d = stack.pop()
            if d.type in ("namespace_definition", "declaration_list", "linkage_specification"):
                stack.extend(d.named_children)
            elif d.type == "declaration" and not re.search(rb"\b__(?:device|constant|shared|managed)__\b",
                                                            data[d.start_byte:d.end_byte]):
                why = program.declaration_code(d)
                if why is not None:
                    found.insert(0, Hidden(d, f"the declaration '{text(data, d)}' (line {line_of(data, d)}), whose "
                                              f"constructor runs before main: {why}"))
    return found
