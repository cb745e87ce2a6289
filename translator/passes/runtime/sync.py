"""Device-wide synchronisation (R005, R006, R010, R011): replaced by one stream's, or
removed, where that is proved; else reported with the exact fix.

R005: `cudaDeviceSynchronize()` (or `cudaThreadSynchronize()`) inside an error-check
macro or function, right after a launch, in a loop whose body does nothing but launches
and runtime calls (where the host reads or computes between, the wait may be needed): the host waits for the whole device
at every iteration, which serialises launch and execution (on AMD each wait also costs a
round trip to the command processor). The fix: synchronise in debug builds only, and
keep checking launch errors with `cudaGetLastError()`.

R006: `cudaDeviceSynchronize()` where every launch and asynchronous call of the function
before it (since the function's start or its previous synchronisation) is on one named
stream `s`: `cudaStreamSynchronize(s)` would do, unless work that other code left on other
streams must finish here. Reported (R006) with the first fact of R010's proof that is
missing; made (R010) where the proof holds:

* the function is `main` (no caller left work on other streams before it) and the file
  starts no host thread (`std::thread`, `pthread_create`, `std::async`, OpenMP, found in
  the tree and the macros' bodies, unqualified under `using namespace std`);
* `s` is a stream `main` creates itself (translator.passes.runtime.streams.created);
* every call of `main` before the synchronisation, and every call of the outermost loop
  around it (a later statement of a loop runs before it at the next iteration), is a
  launch or an asynchronous call on `s`, or a call that enqueues no work (allocation,
  creation, error strings, other synchronisation, host C functions): no blocking copy on
  the default stream, no library call (its handle's stream), no call of the program's
  own functions or of another file's (unseen: they may enqueue on any stream);
* nothing there runs work no call shows (translator.passes.runtime.streams.hidden_calls):
  no object whose class's constructor or destructor may enqueue work (nor one at file
  scope, constructed before main), no operator the file overloads with a definition that
  may, applied to a class operand, no macro whose expansion launches or calls a function
  that may.
Then every piece of device work the program has enqueued is on `s`, and waiting for `s`
waits for all of it.

R011: a bare `cudaDeviceSynchronize();` statement (its result unread) followed at once,
in its block, by another device-wide synchronisation is removed: nothing is enqueued
between the two, and the second (or the `cudaStreamSynchronize(s)` R010 makes of it,
which covers all work exactly when the first would be replaced too) waits for the same.
"""

from __future__ import annotations

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir.nodes import calls_between, function_name
from translator.passes.runtime import loops, streams
from translator.passes.runtime.loops import line_of, text

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

_ONE_STREAM_MAIN = """__global__ void step(float* x) { x[threadIdx.x] += 1; }
int main() {
    cudaStream_t s;
    cudaStreamCreate(&s);
    float* x;
    cudaMalloc(&x, 256);
    cudaMemsetAsync(x, 0, 256, s);
    step<<<1, 64, 0, s>>>(x);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaStreamDestroy(s);
    return 0;
}
"""

SYNC_REPLACED = rule(
    "R010", "device-sync-to-stream-sync", NOTE, "a device-wide synchronisation after one stream's work waits for the "
    "stream", """
`cudaDeviceSynchronize()` in `main`, where every launch and asynchronous call the program
has made before it (and in the loop around it) is on one stream `s` that `main` created,
and nothing else can have enqueued work (no blocking copy on the default stream, no
library call, no call of a function of the program or of another file, no host thread,
no object whose constructor or destructor may, nor an overloaded operator or a macro
whose expansion may),
becomes `cudaStreamSynchronize(s)`: it waits for the same work, without a device-wide
round trip (on AMD, a device synchronisation waits on every queue of the device). An
error check around the call stays. The note names the proof; where a fact is missing,
R006 reports the replacement with it.""",
    edits=True, safe=False, example=_ONE_STREAM_MAIN,
    translation=_ONE_STREAM_MAIN.replace("    cudaDeviceSynchronize();", "    cudaStreamSynchronize(s);"),
    options=_OPTIONS, topic="runtime")

SYNC_REMOVED = rule(
    "R011", "device-sync-redundant", NOTE, "a device-wide synchronisation followed at once by another is removed", """
A bare `cudaDeviceSynchronize();` (its result not read) is followed, in the same block,
by another device-wide synchronisation (`cudaDeviceSynchronize`, `cudaThreadSynchronize`,
bare or in an error check): nothing is enqueued between the two, so the first waits for
nothing the second does not, and it is removed. A checked one stays (its check may be
the one that reports an error).""",
    edits=True, safe=True,
    example=_ONE_STREAM_MAIN.replace("    cudaDeviceSynchronize();", "    cudaDeviceSynchronize();\n    cudaDeviceSynchronize();")
                            .replace("cudaMemsetAsync(x, 0, 256, s)", "cudaMemset(x, 0, 256)"),
    translation=_ONE_STREAM_MAIN.replace("cudaMemsetAsync(x, 0, 256, s)", "cudaMemset(x, 0, 256)"),
    options=_OPTIONS, topic="runtime")

RULES = (SYNC_IN_CHECK, DEVICE_SYNC_STREAM, SYNC_REPLACED, SYNC_REMOVED)


def run(ctx, values=None) -> None:
    """`values`: the file's HostValues, whose macro table says what a macro's use runs."""
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
        fname = function_name(data, function)
        if statement is not None and _redundant(ctx, data, statement, name, fname):
            continue
        stream, why = _one_stream(parsed, function, statement or node)
        if stream is not None:
            why = _replace(ctx, parsed, values, function, statement or node, node, name, stream, fname)
            if why is None:
                continue
            ctx.report(DEVICE_SYNC_STREAM, node.start_byte,
                       f"{name}() after work on stream '{stream}' only: replace it with `cudaStreamSynchronize({stream})`"
                       f" unless work that other code left on other streams must finish here; not rewritten: {why}",
                       end=node.end_byte, subject=fname)


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
        elif callee in _STOPS and _next_sync(data, n.parent) is None:   # R011 removes a redundant one
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


def _ancestors(node, stop):
    n = node.parent
    while n is not None and n != stop:
        yield n
        n = n.parent


def _next_sync(data: bytes, statement):
    """The statement after `statement` in its block when `statement` is a bare device-wide
    synchronisation and that one synchronises the device too, else None."""
    if statement is None or statement.type != "expression_statement" or statement.named_child_count != 1 or \
            statement.named_children[0].type != "call_expression" or \
            text(data, statement.named_children[0].child_by_field_name("function")) not in _DEVICE_SYNC or \
            statement.parent is None or statement.parent.type != "compound_statement":
        return None
    items = loops.statements(statement.parent)
    i = items.index(statement)
    if i + 1 >= len(items) or loops.call_of_statement(data, items[i + 1], set(_DEVICE_SYNC)) is None:
        return None
    return items[i + 1]


def _redundant(ctx, data: bytes, statement, name: str, fname: str) -> bool:
    """R011: the bare statement is followed at once by another device-wide synchronisation."""
    after = _next_sync(data, statement)
    if after is None:
        return False
    start = data.rfind(b"\n", 0, statement.start_byte) + 1
    end = statement.end_byte
    if data[start:statement.start_byte].strip() == b"" and data[end:data.find(b"\n", end) + 1].strip() == b"":
        end = data.find(b"\n", end) + 1
    else:
        start = statement.start_byte
    reason = (f"{name}() removed: the next statement (line {line_of(data, after)}) synchronises the device "
              "again and nothing is enqueued between them; its result was not read")
    fix = ctx.fix(SYNC_REMOVED, Edit(start, end, b""), reason)
    if fix is not None:
        ctx.report(SYNC_REMOVED, statement.start_byte, reason, end=statement.end_byte, fix=fix, subject=fname)
    return True


def _replace(ctx, parsed, values, function, statement, call, name: str, stream: str, fname: str) -> str | None:
    """R010: None when the replacement is made, else the missing fact."""
    data = parsed.data
    if fname != "main":
        return (f"the function is '{fname}', not main: the work other code (its callers, other threads) enqueued "
                "before it is not visible here")
    program = streams.Program(data, parsed.main.root, values.table if values is not None else None)
    started = program.threads()
    if started is not None:
        return f"the file starts host threads ('{started}'): another thread may have work on other streams"
    body = function.child_by_field_name("body")
    lambda_ = next((n for n in _ancestors(statement, function) if n.type == "lambda_expression"), None)
    if lambda_ is not None:
        return "it is in a lambda, which may run after work that follows it in main"
    jump = next((n for n in loops.walk(body) if n.type == "goto_statement"), None)
    if jump is not None:
        return f"main has a goto (line {line_of(data, jump)}): work written after it may run before it"
    why = streams.created(data, function, stream, statement.start_byte)
    if why is not None:
        return why
    outer, n = None, statement.parent
    while n is not None and n != function:
        if n.type in loops.LOOPS:
            outer = n
        n = n.parent
    end = max(statement.start_byte, outer.end_byte if outer is not None else 0)

    def before(node) -> bool:
        """The node runs before the synchronisation: it is written before it, or in its loop."""
        return node.start_byte < end and (node.start_byte < statement.start_byte or
                                          outer is not None and node.start_byte < outer.end_byte)

    for op in streams.operations(data, body):
        if op.call.start_byte >= end:
            break
        if not before(op.call):
            continue
        where = f"line {line_of(data, op.call)}"
        if op.kind in ("launch", "async") and op.stream != stream:
            shown = "the default stream" if op.stream in streams.DEFAULT_STREAMS else f"stream '{op.stream}'"
            return f"{'a launch of ' + op.name if op.kind == 'launch' else op.name} at {where} is on {shown}"
        if op.kind == "default":
            return f"{op.name} at {where} runs on the default stream"
        if op.kind == "library":
            return f"{op.name} at {where} enqueues work on its handle's stream"
        if op.kind == "unseen":
            return f"'{op.name}' at {where} is a call this pass does not see into: it may enqueue work on another stream"
    hidden = next((h for h in streams.hidden_calls(data, parsed.main.root, body, program=program) if before(h.node)),
                  None)
    if hidden is not None:
        return f"{hidden.why}, which may enqueue work on another stream"
    reason = (f"{name}() replaced by cudaStreamSynchronize({stream}): in main, every launch and asynchronous call before "
              f"it{' and in its loop' if outer is not None else ''} is on '{stream}', which main creates, and no other "
              "call can enqueue work (no default-stream copy, library call, unseen function, object whose constructor "
              "may, overloaded operator or macro that may, or host thread)")
    fix = ctx.fix(SYNC_REPLACED, Edit(call.start_byte, call.end_byte, f"cudaStreamSynchronize({stream})".encode()),
                  reason)
    if fix is not None:
        ctx.report(SYNC_REPLACED, call.start_byte, reason, end=call.end_byte, fix=fix, subject=fname)
    return None
