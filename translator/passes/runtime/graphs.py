"""Dispatch (pattern 4: R012, R013): a loop whose body is nothing but a fixed sequence of
kernel launches, with no host work between iterations (no call in the loop's header
either), pays the launch overhead of every kernel at every iteration. The sequence is
captured once as a CUDA graph and the graph launched per iteration where that is proved
to run the same work in the same order; else the loop is reported with the fix and the
estimate. A loop of one launch (HeCBench's `for (i < repeat) k<<<g, b>>>(...);`, with
braces or without: a body without them is made a block, opened at the end of the loop's
header and closed on a line of its own) is captured BATCH (16) times in a row as one graph,
launched every BATCH-th iteration; the iterations after the last such one make the
launch as written after the loop. Every
iteration makes the same launch (the same facts are proved) and nothing else happens in
the loop, so the stream receives the same launches in the same order; they are only
enqueued later on the host, which nothing between them can see. A loop known to run
fewer than BATCH times is left as it is (the graph would never be launched).

A one-launch loop's argument may alternate with its counter, the ping-pong of two buffers
(iso2dfd: `(k % 2) ? d_prev : d_next`): `P ? a : b` with `a`, `b` loop-invariant and P
`k % 2` or `k & 1` (or one compared with a number), `k` its one name there
(_parity_choice), where `k` is the loop's counter `for (T k = c; ...; ++k)` (T an integer
type, c a known constant >= 0, the update `++k`, `k++`, `k += 1` or `k = k + 1`, the
condition writing nothing, nothing in the body nor a macro of the loop writing k:
_counter). The proof: the t-th iteration (from 0) has k = c + t >= 0, and the argument
depends on k through k mod 2 alone, so iterations t and t + BATCH (BATCH even) make the
same launch. Batch m covers iterations 16m .. 16m + 15 (the pending count starts at 0 and
counts every iteration while the graph is good), whose j-th launch has k = c + 16m + j, of
the parity of c + j: the capture writes the j-th launch with k replaced by `(T)(c + j)`
(j the capture's own counter); the remainder after the loop, iterations 16M + j, the same;
the fallback that makes a batch's launches as written when its graph launch fails runs in
iteration 16m + 15, whose k is c + 16m + 15, and writes k - 15 + j, the j-th iteration's
own counter (k >= 15 there: no wrap). Another period (`k % 3`), a step other than one, a
counter written elsewhere, or a negative or unknown first value is refused (R013).

The rewrite (R012) is made when:

* every launch is on one stream `s` that the function creates itself
  (translator.passes.runtime.streams.created), not a parameter or a global (a caller's
  stream may be already capturing); or every launch is on the default stream (none named,
  `0`, `NULL`, `cudaStreamLegacy`, `cudaStreamPerThread`...), which cannot be captured (the
  legacy default stream cannot, and while a blocking stream captures, any use of it is
  illegal): the launches are then captured on a non-blocking stream the rewrite creates
  (`cudaStreamCreateWithFlags(&c, cudaStreamNonBlocking)`, checked, destroyed after the
  loop; the captured copy's configurations name it, a third argument kept) and the graph
  is launched on the default stream they named. A graph launch is one operation of that
  stream, ordered as the first launch was (after the stream's earlier work, and, on the
  legacy stream, after the blocking streams' work) and its nodes run in the launches'
  order, so every iteration runs the same kernels in the same order after the same work;
* each launch's configuration and arguments are loop-invariant (loops.invariant: names
  declared outside the loop that nothing in it writes; an address passed to a runtime
  call before the loop, `cudaMalloc(&d, ...)`, keeps nothing): a graph replays the
  arguments it captured;
* the loop is a statement of a block, and for HIP the target ROCm has stream capture
  and graphs (4.3 and later: hipStreamBeginCapture, hipGraphInstantiate, hipGraphLaunch,
  hipGraphExecDestroy, as the mapping tables say).

The capture records and runs nothing, so a loop that runs zero times launches nothing
either way. Every graph call is checked (`cudaStreamBeginCapture`, `cudaStreamEndCapture`,
`cudaGraphInstantiate`, `cudaGraphLaunch`): where one fails, the iterations from then on
make the launches as written (the loop keeps them in the fallback branch), so a launch the
capture rejects fails as it did in the original, with the same error, not a crash in a
graph that was never made; only what exists is destroyed. The capture is thread-local (`cudaStreamCaptureModeThreadLocal`): other host
threads' calls are not affected. `cudaGraphInstantiate` takes three arguments from CUDA
12 (exec, graph, flags) and five in HIP (exec, graph, error node, log buffer, its size):
the pass writes the form of the target (for HIP the five, which hipify renames).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir.ancestry import ancestry
from translator.ir.nodes import hits, initialized
from translator.passes.runtime import loops, streams
from translator.passes.runtime.loops import text

# The graph benchmark's measured saving per launch (µs, at its smallest kernel size), from
# bench/results/runtime-h200.json (`bench/runtime.py`, pattern "graph"); None until that
# result is recorded (tests/test_runtime.py checks this against the file). Measured on the
# H200, 2026-12-02: 3.07 µs per launch with 1024-element kernels.
MEASURED_SAVING_US = 3.072
_MEASURED_WHERE = "bench/runtime.py's graph benchmark (bench/results/runtime-h200.json)"
_HIP_GRAPHS = (4, 3)
_CHEVRONS = re.compile(rb"<<<")
# The names the rewrite declares: a loop that names one is the rewrite's own (a batch's
# capture, fallback or remainder), never captured again.
_GENERATED = re.compile(rb"\bcu2hip_graph")

_EXAMPLE = """__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void run(float* d, int n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
"""
_CAPTURED = _EXAMPLE.replace("""    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
""", """    cudaGraph_t cu2hip_graph = nullptr;
    cudaGraphExec_t cu2hip_graph_exec = nullptr;
    bool cu2hip_graph_ok = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
    if (cu2hip_graph_ok) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        cu2hip_graph_ok = cudaStreamEndCapture(s, &cu2hip_graph) == cudaSuccess && cu2hip_graph != nullptr;
        cu2hip_graph_ok = cu2hip_graph_ok && cudaGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, 0) == cudaSuccess;
    }
    for (int it = 0; it < 100; ++it) {
        if (!cu2hip_graph_ok || cudaGraphLaunch(cu2hip_graph_exec, s) != cudaSuccess) {
            cu2hip_graph_ok = false;
            twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
            half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        }
    }
    if (cu2hip_graph_exec != nullptr) cudaGraphExecDestroy(cu2hip_graph_exec);
    if (cu2hip_graph != nullptr) cudaGraphDestroy(cu2hip_graph);
""")
_OPTIONS = ("--target", "cuda", "--ignore", "L,F")

CAPTURED = rule(
    "R012", "launches-as-graph", NOTE, "a loop of launches only is captured once as a graph, launched per iteration", """
A loop's body is a fixed sequence of kernel launches and nothing else, with no host work
between iterations: every iteration pays each launch's overhead on the host.
Where the launches are all on one stream the function creates, or all on the default
stream, and their configurations and arguments are loop-invariant, the sequence is
captured once before the loop (`cudaStreamBeginCapture` in thread-local
mode, the launches as written, `cudaStreamEndCapture`, `cudaGraphInstantiate`), the loop
launches the graph (`cudaGraphLaunch(exec, s)`) and the graph is destroyed after it. The
default stream cannot be captured (the legacy one at all, and while a blocking stream
captures, any use of it is illegal): launches on it are captured on a non-blocking stream
the rewrite creates (`cudaStreamCreateWithFlags(&c, cudaStreamNonBlocking)`, destroyed
after the loop), whose name the captured copy's configurations give, and the graph is
launched on the default stream, one operation ordered there as the first launch was. For
HIP (ROCm 4.3 and later) `hipGraphInstantiate` takes its five arguments (exec, graph,
error node, log buffer, its size); CUDA 12 and later take three (exec, graph, flags).
Every graph call's result is checked: where the capture's start or end, the
instantiation or a graph launch fails (a launch the capture rejects, such as one asking
for more shared memory than a block has), the loop makes the launches as written from
then on, as the original did, and their errors are reported as the original's were.
A loop of one launch (`for (int i = 0; i < repeat; i++) k<<<g, b>>>(...);`, with braces or
without: the rewrite gives a body without them its braces) gains nothing
from a graph of one launch: the launch is captured 16 times in a row as one graph, which
the loop launches every 16th iteration (a counter of the iterations since the last), and
the iterations after the last such one make the launch as written after the loop. Every
iteration makes the same launch and nothing else, so the stream gets the same launches in
the same order. A loop known to run fewer than 16 times is left as it is. An argument that
chooses by the parity of the loop's counter (`(k % 2) ? prev : next`, a counter from a known
constant of 0 or more stepped by one and written nowhere else) alternates: iterations 16
apart make the same launch, and each captured launch is given its iteration's parity.""",
    edits=True, safe=False, example=_EXAMPLE, translation=_CAPTURED, options=_OPTIONS, topic="runtime")

DISPATCH = rule(
    "R013", "launch-loop-dispatch", WARNING, "a loop of launches only that is not captured as a graph, with the fix", """
A loop's body is a fixed sequence of launches and nothing else, but capturing
it as a graph is not proved safe: the warning names the missing fact (the launches are on
several streams, the stream is not one the function creates, an argument changes per
iteration, the target ROCm has no graphs). The fix: capture the
sequence once on a stream of your own (`cudaStreamBeginCapture(s, ...)`, the launches,
`cudaStreamEndCapture(s, &graph)`, `cudaGraphInstantiate`), launch the graph per
iteration (`cudaGraphLaunch(exec, s)`; arguments that change per iteration through
`cudaGraphExecKernelNodeSetParams`), and destroy it after the loop. The estimate of the
launch overhead saved comes from the graph benchmark's recorded result on the H200.""",
    example=_EXAMPLE.replace("half<<<(n + 255) / 256, 256, 0, s>>>(d, n);", "half<<<(n + 255) / 256, 256, 0, s>>>(d + it, n);"),
    options=_OPTIONS, topic="runtime")

RULES = (CAPTURED, DISPATCH)


def run(ctx, values) -> None:
    parsed = ctx.parsed
    if b"<<<" not in parsed.data:
        return
    data = parsed.data
    # The edits made so far, by start, with the furthest end among each prefix: a loop
    # overlaps one when some edit starting at or before its end ends at or after its start.
    taken = sorted((e.start, e.end) for f in ctx.fixes for e in f.edits)
    starts = [start for start, _ in taken]
    reach = list(accumulate((end for _, end in taken), max))
    # After round 0, only the loops an earlier round's fix edited (deferred then) are new.
    edited = getattr(ctx.source, "omap", None) if ctx.round > 0 else None
    taken = set(parsed.words)       # the file's words and the names the loops rewritten so far declare
    for loop in _loops_of_launches(parsed):
        before = bisect_right(starts, loop.end_byte)
        if before and reach[before - 1] >= loop.start_byte or \
                not (ctx.round == 0 or (edited is not None and edited.touching(loop.start_byte, loop.end_byte))):
            continue
        launches = _launches_only(data, loop)
        if launches is not None and _GENERATED.search(data, loop.start_byte, loop.end_byte) is None:
            function = loops.host_function(data, loop, parsed.main)
            if function is not None:
                _consider(ctx, values, data, loop, launches, function, taken)


def _loops_of_launches(parsed) -> list:
    """The loops whose body (a block, or a statement without braces) holds a launch
    statement, found from each `<<<` of
    the file (no walk of the whole tree; each step up is the fragment's Ancestry's, not a
    `.parent`, which costs the depth), in document order."""
    frag, found = parsed.main, {}
    tree = ancestry(frag)
    for _, n in hits(parsed, frag, _CHEVRONS, 0, len(parsed.data)):
        while n is not None and n.type != "call_expression":
            n = tree.parent(n)
        statement = tree.parent(n) if n is not None else None
        block = tree.parent(statement) if statement is not None and statement.type == "expression_statement" else None
        # The launch's statement in a block that is the loop's body, or the body itself (a
        # loop without braces: `for (...) k<<<g, b>>>(...);`).
        body, loop = (block, tree.parent(block)) if block is not None and block.type == "compound_statement" else \
            (statement, block)
        if loop is not None and loop.type in loops.LOOPS and loop.child_by_field_name("body") == body:
            found.setdefault((loop.start_byte, loop.end_byte), loop)
    return [found[k] for k in sorted(found)]


def _launches_only(data: bytes, loop):
    """The launches (call nodes) when the loop's body is one or more bare launch statements
    and nothing else (a block of them, or one launch statement without braces), and its
    header calls nothing; else None."""
    body = loops.loop_body(loop)
    braceless = loop.child_by_field_name("body")
    if body is None and (braceless is None or braceless.type != "expression_statement"):
        return None
    items = loops.statements(body) if body is not None else [braceless]
    calls = []
    for s in items:
        call = s.named_children[0] if s.type == "expression_statement" and s.named_child_count == 1 else None
        if call is None or call.type != "call_expression" or streams.launch_stream(data, call) is None:
            return None
        calls.append(call)
    if not calls:
        return None
    for field in ("initializer", "condition", "update"):
        part = loop.child_by_field_name(field)
        if part is not None and any(n.type == "call_expression" for n in loops.walk(part)):
            return None
    return calls


def estimate(count: int) -> str:
    if MEASURED_SAVING_US is None:
        return f"launch overhead not measured yet: {_MEASURED_WHERE} records it"
    return (f"about {MEASURED_SAVING_US:.1f} µs of launch overhead per launch, {count * MEASURED_SAVING_US:.1f} µs "
            f"per iteration, as measured by {_MEASURED_WHERE}")


_CHANGES = "may change per iteration"
# A loop of one launch is captured as a graph of this many launches in a row.
BATCH = 16


def _consider(ctx, values, data: bytes, loop, launches, function, taken: set) -> None:
    """`taken`: the words no generated name may be (the file's, and those of the loops
    rewritten before this one: two loops of one block declare distinct names)."""
    kernels = ", ".join(dict.fromkeys(text(data, c.child_by_field_name("function")) for c in launches))
    missing, stream, alternating = _prove(ctx, values, data, loop, launches, function)
    line = ctx.source.position(loop.start_byte)[0]      # the input's line in every round
    if not missing and len(launches) == 1:
        few = _fewer_trips(values, loop)
        if few is not None:
            return      # the loop runs fewer times than a graph holds: it would never be launched
    if missing:
        changing = any(f" {_CHANGES}: " in why for why in missing)
        ctx.report(DISPATCH, loop.start_byte,
                   f"the loop at line {line} makes {len(launches)} launch{'es' if len(launches) > 1 else ''} ({kernels}) per "
                   "iteration and "
                   f"nothing else: {estimate(len(launches))}. Not captured as a graph: {'; '.join(missing)}. Fix: "
                   "capture the launches once on a stream of your own (cudaStreamBeginCapture, the launches, "
                   "cudaStreamEndCapture, cudaGraphInstantiate), cudaGraphLaunch the graph per iteration, destroy it "
                   "after the loop" + ("; a graph replays the arguments it captured, so set the ones that change on "
                                       "each kernel node before each launch (cudaGraphExecKernelNodeSetParams)"
                                       if changing else ""),
                   end=loop.end_byte, subject=kernels)
        return
    words = taken
    graph, exec_, ok = (loops.fresh(words, "cu2hip_graph"), loops.fresh(words, "cu2hip_graph_exec"),
                        loops.fresh(words, "cu2hip_graph_ok"))
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    loop_line = data.rfind(b"\n", 0, loop.start_byte) + 1
    indent = data[loop_line:loop.start_byte]
    indent = indent if indent.strip() == b"" else b""
    first, last = launches[0].parent, launches[-1].parent
    body_line = data.rfind(b"\n", 0, first.start_byte) + 1
    body_indent = data[body_line:first.start_byte]
    # One level of indentation: what the body's first line adds to the loop's, where that is
    # white space (not the loop's header, on the line of a body `{ k<<<...>>>();` or of a body
    # without braces); else what the loop's line adds to that of the block it is in; else four
    # spaces.
    block_line = data.rfind(b"\n", 0, loop.parent.start_byte) + 1 if loop.parent is not None else 0
    block_indent = data[block_line:len(data) if loop.parent is None else loop.parent.start_byte]
    block_indent = block_indent[:len(block_indent) - len(block_indent.lstrip())]
    unit = body_indent[len(indent):] if body_indent.strip() == b"" and body_indent.startswith(indent) \
        and len(body_indent) > len(indent) else indent[len(block_indent):] \
        if indent.startswith(block_indent) and len(indent) > len(block_indent) else b"    "
    launched = data[first.start_byte:last.end_byte]
    # On the default stream, the capture is on a non-blocking stream of the rewrite's own (the
    # legacy default stream cannot be captured, and a blocking stream's capture makes any use
    # of it illegal); the captured copy's launches name that stream, the graph is launched on
    # the default stream the launches were on.
    own = loops.fresh(words, "cu2hip_graph_stream") if stream in streams.DEFAULT_STREAMS else None
    k = loops.fresh(words, "cu2hip_graph_k")
    # An argument that alternates with the counter (`(i % 2) ? a : b`, _parity_choice): the
    # copies of the launch made where the counter is not the iteration's (the capture, the
    # remainder after the loop: the j-th launch of a batch or of the remainder is that of an
    # iteration whose counter is first + 16m + j, of the parity of first + j; the fallback
    # in the iteration that completes a batch: the counter of its j-th launch is the
    # current one - 15 + j) name the counter's value there.
    capture_copy = rest_copy = fallback_copy = launched
    if alternating is not None:
        (type_name, first_value), choices = alternating
        uses = [u for _, found in choices for u in found]
        counter_name = text(data, uses[0])
        at_batch = [(u, f"(({type_name})({first_value} + {k}))".encode()) for u in uses]
        in_batch = [(u, f"(({type_name})({counter_name} - {BATCH - 1} + {k}))".encode()) for u in uses]
        capture_copy = _on_stream(data, launches, first.start_byte, own, at_batch)
        rest_copy = _on_stream(data, launches, first.start_byte, None, at_batch)
        fallback_copy = _on_stream(data, launches, first.start_byte, None, in_batch)
    if alternating is not None:
        captured = capture_copy
    else:
        captured = launched if own is None else _on_stream(data, launches, first.start_byte, own)
    launch_on = stream if own is None else (stream if stream in _NAMED_DEFAULTS else "0")
    capture_on = stream if own is None else own

    # The launches (as written, or as captured), re-indented one level deeper than `base`
    # (they were at `body_indent`).
    def at(base: bytes, text_: bytes = launched) -> bytes:
        if body_indent.strip() == b"" and body_indent:
            text_ = text_.replace(newline + body_indent, newline + base + unit)
        return base + unit + text_
    if ctx.options.target == "hip":
        instantiate = f"cudaGraphInstantiate(&{exec_}, {graph}, nullptr, nullptr, 0) == cudaSuccess;"
    else:
        instantiate = f"cudaGraphInstantiate(&{exec_}, {graph}, 0) == cudaSuccess;"
    s = capture_on
    begin = f"cudaStreamBeginCapture({s}, cudaStreamCaptureModeThreadLocal) == cudaSuccess;"
    lines = [f"cudaGraph_t {graph} = nullptr;".encode(), f"cudaGraphExec_t {exec_} = nullptr;".encode()]
    if own is not None:
        lines += [f"cudaStream_t {own} = nullptr;".encode(),
                  f"bool {ok} = cudaStreamCreateWithFlags(&{own}, cudaStreamNonBlocking) == cudaSuccess &&".encode(),
                  unit + unit + begin.encode()]
    else:
        lines.append(f"bool {ok} = {begin}".encode())
    batch = len(launches) == 1
    pending = loops.fresh(words, "cu2hip_graph_pending")
    repeat = f"for (int {k} = 0; {k} < {BATCH}; ++{k}) {{".encode()
    lines += [f"if ({ok}) {{".encode(), None,
              unit + f"{ok} = cudaStreamEndCapture({s}, &{graph}) == cudaSuccess && {graph} != nullptr;".encode(),
              unit + f"{ok} = {ok} && {instantiate}".encode(), b"}"]
    capture = at(indent, captured) if not batch else \
        (indent + unit + repeat + newline + at(indent + unit, captured) + newline + indent + unit + b"}")
    if batch:
        lines.insert(0, f"int {pending} = 0;".encode())
    before = b"".join((capture if line is None else indent + line) + newline for line in lines)
    before = before[len(indent):] + indent
    inner = body_indent if body_indent.strip() == b"" else indent + unit
    if not batch:
        in_loop = (f"if (!{ok} || cudaGraphLaunch({exec_}, {launch_on}) != cudaSuccess) {{".encode() + newline
                   + inner + unit + f"{ok} = false;".encode() + newline + at(inner) + newline + inner + b"}")
    else:
        # One launch per iteration: the graph holds BATCH of them, launched every BATCH-th
        # iteration; the iterations it did not reach launch after the loop, as written.
        two = inner + unit + unit
        in_loop = (f"if (!{ok}) {{".encode() + newline + at(inner) + newline + inner
                   + f"}} else if (++{pending} == {BATCH}) {{".encode() + newline
                   + inner + unit + f"{pending} = 0;".encode() + newline
                   + inner + unit + f"if (cudaGraphLaunch({exec_}, {launch_on}) != cudaSuccess) {{".encode() + newline
                   + two + f"{ok} = false;".encode() + newline
                   + two + repeat + newline + at(two, fallback_copy) + newline + two + b"}" + newline
                   + inner + unit + b"}" + newline + inner + b"}")
    rest = b"" if not batch else (newline + indent + f"for (int {k} = 0; {k} < {pending}; ++{k}) {{".encode() + newline
                                  + at(indent, rest_copy) + newline + indent + b"}")
    after = (rest + newline + indent + f"if ({exec_} != nullptr) cudaGraphExecDestroy({exec_});".encode() + newline + indent
             + f"if ({graph} != nullptr) cudaGraphDestroy({graph});".encode())
    if own is not None:
        after += newline + indent + f"if ({own} != nullptr) cudaStreamDestroy({own});".encode()
    body = loop.child_by_field_name("body")
    # What follows the loop goes after a comment that ends the loop's last line (`} // timed`,
    # `k<<<g, b>>>(...); // timed`), which stays with the loop.
    end = loop.end_byte
    comment = loop.next_sibling
    if comment is not None and comment.type == "comment" and b"\n" not in data[end:comment.start_byte] and \
            data.startswith(b"//", comment.start_byte):
        end = comment.end_byte
    if body.type == "compound_statement":
        edits = (Edit(loop.start_byte, loop.start_byte, before),
                 Edit(first.start_byte, last.end_byte, in_loop),
                 Edit(end, end, after))
    else:
        # No braces (`for (...) k<<<g, b>>>(...);`): the body becomes a block, opened at the end
        # of the loop's header (what lies between, a comment, is kept) and closed on a line of
        # its own at the loop's indentation.
        head = max((c for c in loop.children if c.end_byte <= body.start_byte and c.type != "comment"),
                   key=lambda c: c.end_byte)
        between = data[head.end_byte:body.start_byte]
        opened = b" {" + between if b"\n" in between else \
            b" {" + (b" " + between.strip() if between.strip() else b"") + newline + inner
        edits = (Edit(loop.start_byte, loop.start_byte, before),
                 Edit(head.end_byte, body.end_byte, opened + in_loop + newline + indent + b"}"),
                 Edit(end, end, after))
    if own is None:
        where = (f"captured once as a graph on '{s}' and the graph launched per iteration: the body is nothing but "
                 f"the launches, all on '{s}', a stream the function creates")
    else:
        where = (f"captured once as a graph on a non-blocking stream of their own ('{own}': the default stream "
                 f"cannot be captured) and the graph launched per iteration on the default stream ('{launch_on}'), "
                 "where they were: the body is nothing but the launches, all on the default stream, so each graph "
                 "launch runs them in the same order after the same work")
    if batch:
        where = where.replace("captured once as a graph", f"captured {BATCH} times in a row once as a graph") \
            .replace("stream of their own", "stream of its own").replace("the launches", "the launch") \
            .replace("launched per iteration", f"launched every {BATCH}th iteration (the iterations after the last "
                     "such one launch after the loop, as written" + (", with the counter's parity of each"
                                                                     if alternating is not None else "") + ")")
        if alternating is None:
            same = (f"and its configuration and arguments are loop-invariant, so every iteration makes the same launch "
                    f"and {BATCH} of them in a row are one graph")
        else:
            (type_name, first_value), choices = alternating
            counter_name = text(data, choices[0][1][0])
            shown = ", ".join(f"'{' '.join(text(data, e).split())}'" for e, _ in choices)
            same = (f"and its configuration and arguments are loop-invariant but for {shown}, which choose by the "
                    f"parity of the counter '{counter_name}' (from {first_value}, stepped by one and written nowhere "
                    f"else, so it alternates): iterations {BATCH} apart make the same launch, and {BATCH} of them in a "
                    f"row are one graph, each captured with the counter's parity of its iteration")
        reason = (f"the launch of the loop at line {line} ({kernels}) {where}, {same}; "
                  f"{estimate(BATCH).replace(' per iteration', f' per graph of {BATCH}')}")
    else:
        reason = (f"the {len(launches)} launches of the loop at line {line} ({kernels}) {where}, and their "
                  f"configurations and arguments are loop-invariant; {estimate(len(launches))}")
    fix = ctx.fix(CAPTURED, edits, reason)
    if fix is not None:
        ctx.report(CAPTURED, loop.start_byte, reason, end=loop.end_byte, fix=fix, subject=kernels)
        taken.update(n.encode() for n in (graph, exec_, ok, own, k, pending) if n is not None)


# Default streams that are handles of their own (a graph launched on them goes where the
# launches went); the others are the null stream, written `0`.
_NAMED_DEFAULTS = frozenset({"cudaStreamLegacy", "cudaStreamPerThread"})


def _on_stream(data: bytes, launches, start: int, stream: str | None, replaced=()) -> bytes:
    """The text from `start` to the last launch's end with every launch's configuration
    naming `stream` (where one is given): `<<<g, b>>>` -> `<<<g, b, 0, stream>>>`, `<<<g, b,
    m>>>` -> `<<<g, b, m, stream>>>`, a fourth argument replaced; and each (node, text) of
    `replaced` written as its text."""
    edits = [(n.start_byte, n.end_byte, new) for n, new in replaced]
    for call in launches if stream is not None else ():
        config = next(c for c in call.children if c.type == "kernel_call_syntax")
        parts = [c for c in config.named_children if c.type != "comment"]
        close = config.children[-1]
        if len(parts) > 3:
            edits.append((parts[3].start_byte, parts[3].end_byte, stream.encode()))
        else:
            edits.append((close.start_byte, close.start_byte,
                          (b", 0, " if len(parts) == 2 else b", ") + stream.encode()))
    out, at = b"", start
    for lo, hi, new in sorted(edits):
        out += data[at:lo] + new
        at = hi
    return out + data[at:launches[-1].parent.end_byte]


def _fewer_trips(values, loop) -> int | None:
    """The largest trip count of a `for (... = a; i < b ...)` / `i <= b` loop when a and b
    are known constants and it is under BATCH, else None."""
    condition = loop.child_by_field_name("condition") if loop.type == "for_statement" else None
    init = loop.child_by_field_name("initializer") if condition is not None else None
    if condition is None or condition.type != "binary_expression" or init is None:
        return None
    op = condition.child_by_field_name("operator")
    bound = values.evaluate(condition.child_by_field_name("right"))
    start_node = init.child_by_field_name("value") if init.type == "assignment_expression" else \
        next((d.child_by_field_name("value") for d in init.children_by_field_name("declarator")
              if d.type == "init_declarator"), None)
    start = values.evaluate(start_node) if start_node is not None else None
    if op is None or op.type not in ("<", "<=") or not bound.known or start is None or not start.known:
        return None
    trips = max(bound.values) - min(start.values) + (1 if op.type == "<=" else 0)
    return trips if trips < BATCH else None


_MANAGED = re.compile(rb"\b__managed__\b[^;{}]*;")
_WORD = re.compile(rb"[A-Za-z_]\w*")


def _managed_names(data: bytes) -> frozenset[str]:
    """Every word of the file's `__managed__` declarations: a name among them is memory the
    device writes, which a loop's header reading it by name reads as it would through `*p`."""
    return frozenset(w.decode() for m in _MANAGED.finditer(data) for w in _WORD.findall(m.group(0)))


def _prove(ctx, values, data: bytes, loop, launches, function):
    """([], the stream) when the rewrite is proved, else (every missing fact, None)."""
    missing: list[str] = []
    found = [streams.launch_stream(data, c) for c in launches]
    distinct = list(dict.fromkeys(found))
    stream = distinct[0]
    if len(distinct) > 1:
        missing.append(f"the launches are on several streams ({', '.join(distinct)})")
    elif stream in streams.DEFAULT_STREAMS:
        pass        # captured on a stream of the rewrite's own, the graph launched on the default stream
    else:
        why = streams.created(data, function, stream, loop.start_byte)
        if why is not None:
            missing.append(f"the stream is not known: {why}")
    if loop.parent is None or loop.parent.type != "compound_statement":
        missing.append("the loop is not a statement of a block (nothing can go before it)")
    line_start = data.rfind(b"\n", 0, loop.start_byte)
    before = data[data.rfind(b"\n", 0, max(line_start, 0)) + 1:line_start].strip() if line_start > 0 else b""
    if before.startswith(b"#pragma") or before.startswith(b"#") and b"pragma" in before:
        missing.append(f"a '{before.decode('utf-8', 'replace')}' line precedes the loop: its iterations may run on "
                       "several threads, which one graph would serialise or race on")
    capture = loops.index(data, function).first_call(("cudaStreamBeginCapture", "cudaStreamBeginCaptureToGraph"))
    if capture is not None:
        missing.append(f"the function captures a stream itself (line {ctx.source.position(capture.start_byte)[0]}): "
                       "the loop may run inside that capture, where another would be illegal")
    shared = _managed_names(data)
    for field in ("initializer", "condition", "update"):
        part = loop.child_by_field_name(field)
        read = next((n for n in loops.walk(part) if n.type == "subscript_expression" or n.type == "pointer_expression"
                     and text(data, n.child_by_field_name("operator")) == "*" or n.type == "field_expression"
                     and text(data, n.child_by_field_name("operator")) == "->"
                     or n.type == "identifier" and text(data, n) in shared), None) if part is not None else None
        if read is not None:
            missing.append(f"the loop's header reads memory ('{text(data, read)}'): host work between iterations "
                           "that may read what the launches wrote")
            break
    if ctx.options.target == "hip" and ctx.options.rocm_version < _HIP_GRAPHS:
        missing.append(f"the target ROCm {'.'.join(map(str, ctx.options.rocm_version))} has no stream capture "
                       "(hipStreamBeginCapture and hipGraphInstantiate: ROCm 4.3 and later)")

    def taken_ok(node) -> bool:     # `&d` of `cudaMalloc(&d, ...)` before the loop keeps nothing
        parent = node.parent
        while parent is not None and parent.type == "cast_expression":
            parent = parent.parent
        call = parent.parent if parent is not None and parent.type == "argument_list" else None
        return call is not None and call.end_byte <= loop.start_byte and \
            loops._LIBRARY.match(text(data, call.child_by_field_name("function"))) is not None
    alternating: list = []          # the counter's uses in the arguments that alternate with it
    counter = None
    for call in launches:
        config = next(c for c in call.children if c.type == "kernel_call_syntax")
        parts = [c for c in config.named_children if c.type != "comment"]
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        for expr in parts + args:
            why = loops.invariant(values, data, loop, expr, taken_ok)
            parity = _parity_choice(data, expr) if why is not None and expr in args and len(launches) == 1 else None
            if parity is not None:
                # `(k % 2) ? a : b`: the argument alternates with the loop's counter (_parity_choice).
                if counter is None:
                    counter = _counter(values, data, loop, function)
                name, uses, chosen = parity
                why = counter[1] if counter[0] is None else \
                    f"'{name}' is not the loop's counter" if name != counter[0] else \
                    next((f"{w} (where it alternates with the counter)" for w in
                          (loops.invariant(values, data, loop, e, taken_ok) for e in chosen) if w is not None), None)
                if why is None:
                    alternating.append((expr, uses))
            if why is not None:
                missing.append(f"'{text(data, expr)}' of the launch of "
                               f"{text(data, call.child_by_field_name('function'))} {_CHANGES}: {why}")
                break
        else:
            continue
        break
    if missing:
        return missing, None, None
    return missing, stream, (counter[1:], alternating) if alternating else None


def _unparenthesized(node):
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _parity_choice(data: bytes, expr):
    """(the name, its identifier nodes, [the two choices]) when `expr` is `P ? a : b` with
    P, parentheses aside, `k % 2` or `k & 1`, or one of them compared (== or !=) with a
    number: the argument then depends on `k` through `k`'s parity alone (for k >= 0), the
    name's one occurrence in it; else None."""
    choice = _unparenthesized(expr)
    if choice is None or choice.type != "conditional_expression":
        return None
    test = _unparenthesized(choice.child_by_field_name("condition"))
    if test is not None and test.type == "binary_expression" and \
            text(data, test.child_by_field_name("operator")) in ("==", "!="):
        left, right = (_unparenthesized(test.child_by_field_name(f)) for f in ("left", "right"))
        test = left if right is not None and right.type == "number_literal" else \
            right if left is not None and left.type == "number_literal" else None
    if test is None or test.type != "binary_expression":
        return None
    operator, left, right = (test.child_by_field_name("operator"), _unparenthesized(test.child_by_field_name("left")),
                             test.child_by_field_name("right"))
    if left is None or left.type != "identifier" or right is None or \
            (text(data, operator), text(data, right)) not in (("%", "2"), ("&", "1")):
        return None
    return text(data, left), [left], [choice.child_by_field_name("consequence"),
                                      choice.child_by_field_name("alternative")]


_UNIT_STEPS = ("++{0}", "{0}++", "{0} += 1", "{0} = {0} + 1", "{0} = 1 + {0}")


def _counter(values, data: bytes, loop, function):
    """(the counter's name, its type, its first value) of a `for (T k = a; ...; ++k)` loop
    whose counter only the update steps, by one: then the counter at the t-th iteration
    (from 0) is a + t; else (None, why not). T an integer type, a a known constant >= 0,
    the update `++k`, `k++`, `k += 1` or `k = k + 1`, nothing else in the loop writing k
    (its condition neither, nor a macro the loop uses)."""
    init, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
    found = initialized(init)
    if loop.type != "for_statement" or found is None or update is None:
        return None, "the loop has no counter declared in its header and stepped by its update"
    name_node, start = found
    kind = init.child_by_field_name("type")
    type_name = " ".join(text(data, kind).split())
    if name_node is None or name_node.type != "identifier" or start is None or kind is None or \
            any(c.type in ("type_qualifier", "storage_class_specifier") for c in init.children) or \
            not loops.builtin_counter(kind, type_name) or \
            type_name in ("float", "double", "long double", "bool", "char", "signed char", "unsigned char"):
        return None, "the loop's counter is not an integer declared in its header with a value"
    name = text(data, name_node)
    first = values.evaluate(start)
    if not first.known or len(first.values) != 1 or first.values[0] < 0:
        return None, f"the first value of the loop's counter '{name}' is not a known constant of 0 or more"
    step = " ".join(text(data, update).split())
    if step not in {s.format(name) for s in _UNIT_STEPS}:
        return None, f"the loop's counter '{name}' is not stepped by one ('{step}'): its parity need not alternate"
    condition = loop.child_by_field_name("condition")
    if condition is not None and any(n.type in ("assignment_expression", "update_expression")
                                     for n in loops.walk(condition)):
        return None, f"the loop's condition '{text(data, condition)}' writes: it may step '{name}' too"
    body = loop.child_by_field_name("body")
    callees = values.callees
    for use in loops.index(data, body).identifiers.get(name, ()):
        why = loops._write(data, use, callees)
        if why is not None:
            return None, f"'{name}' is written in the loop's body (line {loops.line_of(data, use)}: {why})"
    why = loops.macro_write(values, data, loop, name)
    if why is not None:
        return None, why
    return name, type_name, first.values[0]
