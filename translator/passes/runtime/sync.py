"""Device-wide synchronisation (R005, R006), reported with the exact fix; nothing is
rewritten yet.

R005: `cudaDeviceSynchronize()` (or `cudaThreadSynchronize()`) inside an error-check
macro or function, right after a launch, in a loop whose body does nothing but launches
and runtime calls (where the host reads or computes between, the wait may be needed): the host waits for the whole device
at every iteration, which serialises launch and execution (on AMD each wait also costs a
round trip to the command processor). The fix: synchronise in debug builds only, and
keep checking launch errors with `cudaGetLastError()`.

R006: `cudaDeviceSynchronize()` where every launch and asynchronous call of the function
before it (since the function's start or its previous synchronisation) is on one named
stream `s`: `cudaStreamSynchronize(s)` would do, unless work that other code left on other
streams must finish here. That is what cannot be proved from one function (its callers,
other host threads, a library's own streams), so the replacement is reported, not made.
"""

from __future__ import annotations

from translator.catalog import WARNING, rule
from translator.ir.nodes import calls_between
from translator.passes.runtime import loops
from translator.passes.runtime.loops import text

_DEVICE_SYNC = ("cudaDeviceSynchronize", "cudaThreadSynchronize")
_SYNC_NAMES = loops.names_pattern(_DEVICE_SYNC)
_OPTIONS = ("--target", "cuda", "--ignore", "L,F")
# Asynchronous calls whose last argument is their stream.
_ASYNC = frozenset({"cudaMemcpyAsync", "cudaMemsetAsync", "cudaMemcpy2DAsync", "cudaMemcpyToSymbolAsync",
                    "cudaMemcpyFromSymbolAsync", "cudaMemPrefetchAsync", "cudaMallocAsync", "cudaFreeAsync",
                    "cudaEventRecord", "cudaStreamWaitEvent"})
# Calls that synchronise, or enqueue on a stream we cannot name: the search stops there.
_STOPS = frozenset({"cudaMemcpy", "cudaMemset", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMalloc",
                    "cudaFree", "cudaStreamSynchronize", "cudaEventSynchronize"}) | frozenset(_DEVICE_SYNC)

SYNC_IN_CHECK = rule(
    "R005", "sync-in-check", WARNING, "a device-wide synchronisation in a loop's error check after every launch", """
An error-check macro synchronises the device after every launch of a loop
(`CHECK(cudaDeviceSynchronize())`): each iteration waits until the GPU is idle before it
launches the next, so launch and execution never overlap, and on AMD each wait is a
round trip to the device. Synchronise in debug builds only (`#ifndef NDEBUG` around the
call, or a debug-only macro), and keep `cudaGetLastError()` after the launch for launch
errors; keep one synchronisation before the host reads the results.""",
    example="#define CHECK(x) do { if ((x) != cudaSuccess) return; } while (0)\n"
            "__global__ void step(float* x) { x[threadIdx.x] += 1; }\n"
            "void run(float* x) {\n    for (int i = 0; i < 100; ++i) {\n        step<<<1, 64>>>(x);\n"
            "        CHECK(cudaDeviceSynchronize());\n    }\n}\n",
    options=_OPTIONS, topic="runtime")

DEVICE_SYNC_STREAM = rule(
    "R006", "device-sync-one-stream", WARNING, "a device-wide synchronisation after one stream's work", """
The function synchronises the whole device after enqueuing work on one stream only:
`cudaStreamSynchronize(s)` waits for that work without waiting for the other streams
(which on AMD also keeps their queues running). The warning gives the replacement; it is
not made, because whether work that other code left on other streams must finish here
(the function's callers, other host threads) cannot be proved from the function.""",
    example="__global__ void step(float* x) { x[threadIdx.x] += 1; }\n"
            "void run(float* x, float* h, cudaStream_t s) {\n    step<<<1, 64, 0, s>>>(x);\n"
            "    cudaMemcpyAsync(h, x, 256, cudaMemcpyDeviceToHost, s);\n    cudaDeviceSynchronize();\n}\n",
    options=_OPTIONS, topic="runtime")

RULES = (SYNC_IN_CHECK, DEVICE_SYNC_STREAM)


def run(ctx) -> None:
    parsed = ctx.parsed
    data = parsed.data
    if not any(n.encode() in parsed.words for n in _DEVICE_SYNC):
        return
    for node in loops.calls_named(parsed, _SYNC_NAMES):
        if text(data, node.child_by_field_name("function")) not in _DEVICE_SYNC:
            continue
        function = loops.host_function(data, node)
        if function is None:
            continue
        name = text(data, node.child_by_field_name("function"))
        statement = node.parent
        while statement is not None and statement.type != "expression_statement":
            statement = statement.parent
        wrapped = statement is not None and statement.named_children and statement.named_children[0] != node
        if wrapped and _after_launch_in_loop(data, statement):
            macro = text(data, statement.named_children[0].child_by_field_name("function"))
            indent = data[data.rfind(b"\n", 0, statement.start_byte) + 1:statement.start_byte].decode()
            ctx.report(SYNC_IN_CHECK, node.start_byte,
                       f"{macro}({name}()) after a launch in a loop waits for the whole device at every iteration. "
                       f"Fix: synchronise in debug builds only: `#ifndef NDEBUG` / `{indent.strip()}"
                       f"{text(data, statement)}` / `#endif`, with `{macro}(cudaGetLastError())` after the launch",
                       end=node.end_byte)
            continue
        stream, why = _one_stream(parsed, function, statement or node)
        if stream is not None:
            ctx.report(DEVICE_SYNC_STREAM, node.start_byte,
                       f"{name}() after work on stream '{stream}' only: replace it with `cudaStreamSynchronize({stream})`"
                       f" unless work that other code left on other streams must finish here; not rewritten: {why}",
                       end=node.end_byte, subject=stream)


def _after_launch_in_loop(data: bytes, statement) -> bool:
    """The statement follows a launch (or a launch's error check) in a loop's body."""
    body = statement.parent
    if body is None or body.type != "compound_statement" or body.parent is None or body.parent.type not in loops.LOOPS:
        return False
    items = loops.statements(body)
    if not all(_device_work(data, s) for s in items):
        return False        # the host does something else in the loop: the wait may be what it needs
    i = items.index(statement)
    while i > 0:
        i -= 1
        s = items[i]
        if any(n.type == "kernel_call_syntax" for n in loops.walk(s)):
            return True
        if b"cudaGetLastError" not in data[s.start_byte:s.end_byte] and b"cudaPeekAtLastError" not in data[s.start_byte:s.end_byte]:
            return False
    return False


def _device_work(data: bytes, statement) -> bool:
    """A launch, or a call of the runtime or a library, bare or in an error check."""
    if any(n.type == "kernel_call_syntax" for n in loops.walk(statement)):
        return True
    if statement.type != "expression_statement" or statement.named_child_count != 1:
        return False
    call = statement.named_children[0]
    while call.type == "call_expression":
        callee = loops.text(data, call.child_by_field_name("function"))
        if loops._LIBRARY.match(callee):
            return True
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        if len(args) != 1:
            return False
        call = args[0]
    return False


def _one_stream(parsed, function, statement) -> tuple[str | None, str]:
    """The one stream of the function's launches and asynchronous calls before the
    statement, since the start or the previous synchronisation; None when there is none,
    or several, or the default stream, or a call whose stream is not named."""
    streams: set[str] = set()
    work = 0
    data = parsed.data
    body = function.child_by_field_name("body")
    for n in calls_between(parsed, parsed.main, body.start_byte, statement.start_byte):
        callee = text(data, n.child_by_field_name("function"))
        config = next((c for c in n.children if c.type == "kernel_call_syntax"), None)
        args = n.child_by_field_name("arguments")
        args = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        if config is not None:
            parts = [c for c in config.named_children if c.type != "comment"]
            streams.add(text(data, parts[3]) if len(parts) > 3 else "0")
            work += 1
        elif callee in _ASYNC:
            streams.add(text(data, args[-1]) if args else "?")
            work += 1
        elif callee in _STOPS:
            streams, work = set(), 0
        elif not loops._LIBRARY.match(callee) or callee.startswith(("cublas", "cufft", "curand", "cusparse",
                                                                      "cusolver", "cudnn")):
            if callee.startswith(("cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn")):
                return None, ""         # a library's work: its stream is the handle's
    if work == 0 or len(streams) != 1:
        return None, ""
    stream = next(iter(streams))
    if stream in ("0", "NULL", "nullptr", "cudaStreamDefault", "cudaStreamLegacy", "cudaStreamPerThread", "?"):
        return None, ""
    return stream, "the work other code enqueued before this function (its callers, other threads) is not visible here"
