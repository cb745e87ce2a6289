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


def _creation(data: bytes, body, name: str):
    """(why `name` is no stream the body creates, None, ()) or (None, its creation, the
    uses that would make it unknown: (a destruction, whose point matters; the node; the
    reason), in order)."""
    declaration = next((s for s in loops.statements(body) if s.type == "declaration"
                        and loops.declared_in(data, s, name) is not None), None)
    if declaration is None or text(data, declaration.child_by_field_name("type")) != "cudaStream_t":
        return (f"'{name}' is not a cudaStream_t declared in the function's body (a parameter, a global, an "
                "expression)"), None, ()
    creation = None
    for statement in loops.statements(body):
        call = loops.call_of_statement(data, statement, STREAM_CREATES)
        if call is not None and call.arguments and loops.target_of(data, call.arguments[0]) == name:
            creation = call
            break
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


def threads(data: bytes) -> str | None:
    """The first way the file starts host threads (another thread may enqueue work)."""
    return next((t.decode() for t in _THREADS if t in data), None)
