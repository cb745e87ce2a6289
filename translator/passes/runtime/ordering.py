"""What a synchronising release in a loop's body orders, and whether a hoist keeps it.

`cudaFree` and `cudaFreeHost` (and `cublasDestroy`, `cufftDestroy`) wait for the whole
device: at the end of every iteration, all the work enqueued on every stream so far is
complete. Hoisted, that wait happens once, after the loop. What the wait ordered, and
must still be ordered without it:

* host reads: host code of the next iteration, and the loop's condition and update,
  that run before the next iteration synchronises, saw the previous iteration's device
  work finished (a host read of managed memory, of a pinned buffer, of a flag);
* streams: the next iteration's work on one stream ran after the previous iteration's
  work on every other stream (a writer on one stream and a reader on another).

The wait is proved redundant (the hoist keeps everything) when the body synchronises
after its last device work: a `cudaDeviceSynchronize`, or a blocking copy to the host
(`cudaMemcpy` of kind `cudaMemcpyDeviceToHost` or `cudaMemcpyDefault`,
`cudaMemcpyFromSymbol`), which waits for the legacy default stream and so for every
blocking stream, where the file is legacy-ordered: it creates no non-blocking stream,
names no per-thread default stream and starts no host thread. Other copies and memsets
return before their work is done and synchronise nothing.

Else the hoist is legal only when nothing the wait ordered can be observed: the loop's
condition and update read no memory and call nothing, no host code of the body runs
before its first synchronisation, every device work of the body is a launch or runtime
call on one stream (no library call, no function of the program, which may enqueue
work anywhere), and that stream is ordered with every other by the runtime itself: the
legacy default stream or a blocking stream, in a legacy-ordered file whose every launch
and asynchronous call is on it or on the legacy default stream.
"""

from __future__ import annotations

from translator.passes.runtime import streams
from translator.passes.runtime.loops import call_of_statement, line_of, statements, text, walk

_DEVICE_WIDE = frozenset({"cudaDeviceSynchronize", "cudaThreadSynchronize"})
_TO_HOST = frozenset({"cudaMemcpyFromSymbol"})
_TO_HOST_KINDS = ("cudaMemcpyDeviceToHost", "cudaMemcpyDefault")
_UNORDERED = (b"cudaStreamNonBlocking", b"cudaStreamPerThread", b"CUDA_API_PER_THREAD_DEFAULT_STREAM",
              b"per-thread")
_DEVICE_KINDS = ("launch", "async", "default", "library", "unseen")


def unordered(data: bytes) -> str | None:
    """Why the file is not legacy-ordered (see the module's docstring), or None."""
    word = next((w.decode() for w in _UNORDERED if w in data), None)
    if word is not None:
        return f"the file names '{word}': a stream not ordered with the legacy default stream"
    started = streams.threads(data)
    if started is not None:
        return f"the file starts host threads ('{started}'): another thread's work is not ordered by this one's"
    return None


def _calls(node):
    return [n for n in walk(node) if n.type == "call_expression"]


def _sync_statement(data: bytes, statement, legacy: bool) -> bool:
    """The statement is a call (bare or in an error check) that waits for the whole
    device (a blocking copy to the host: in a legacy-ordered file only)."""
    call = call_of_statement(data, statement, _DEVICE_WIDE | _TO_HOST | {"cudaMemcpy", "cudaMemcpy2D"})
    if call is None:
        return False
    name, args = call.name, call.arguments
    if name in _DEVICE_WIDE:
        return True
    if not legacy:
        return False
    if name in _TO_HOST:
        return True
    if name in ("cudaMemcpy", "cudaMemcpy2D") and args:
        return text(data, args[-1]) in _TO_HOST_KINDS
    return False


def free_wait_needed(data: bytes, root, loop, body, moved: list) -> str | None:
    """Why hoisting the synchronising release (one of `moved`) out of `loop` may lose an
    ordering its wait gave, or None (see the module's docstring)."""
    why_unordered = unordered(data)
    legacy = why_unordered is None
    items = [s for s in statements(body) if s not in moved]
    syncs = [i for i, s in enumerate(items) if _sync_statement(data, s, legacy)]
    work = [(i, op) for i, s in enumerate(items) if i not in syncs for call in _calls(s)
            if (op := streams.classify(data, call)).kind in _DEVICE_KINDS and not _error_check(data, op)]
    if not work:
        return None
    last_work = work[-1][0]
    if syncs and syncs[-1] > last_work:
        return None         # the body synchronises after its last work: the wait ordered nothing more
    where = f"the release's wait at the end of every iteration is the only synchronisation after the work at line " \
            f"{line_of(data, items[last_work])}"
    for field in ("condition", "update"):
        part = loop.child_by_field_name(field)
        if part is None:
            continue
        read = next((n for n in walk(part) if n.type in ("call_expression", "subscript_expression")
                     or n.type == "pointer_expression" and text(data, n.child_by_field_name("operator")) == "*"
                     or n.type == "field_expression" and text(data, n.child_by_field_name("operator")) == "->"), None)
        if read is not None:
            return f"{where}, and the loop's {field} reads '{text(data, read)}' after it: it may read memory that work writes"
    first_sync = syncs[0] if syncs else len(items)
    host = next((s for s in items[:first_sync] if _host_read(data, s)), None)
    if host is not None:
        return (f"{where}, and host code at line {line_of(data, host)} runs before the next iteration synchronises: "
                "it may read what the previous iteration's work wrote")
    opaque = next((op for _, op in work if op.kind in ("library", "unseen")), None)
    if opaque is not None:
        return (f"{where}, and '{opaque.name}' (line {line_of(data, opaque.call)}) may enqueue work on any stream: "
                "the wait ordered it with the next iteration's")
    used = list(dict.fromkeys("0" if op.kind == "default" or op.stream in streams.DEFAULT_STREAMS else op.stream
                              for _, op in work))
    named = [s for s in used if s != "0"]
    if len(named) > 1:
        return (f"{where}, and the body's work is on several streams ({', '.join(used)}): the wait ordered one "
                "iteration's work on each with the next iteration's on the others")
    if not legacy:
        return f"{where}, and {why_unordered}: the wait ordered the loop's work with it"
    if named:
        other = _other_stream(data, root, named[0])
        if other is not None:
            return (f"{where}, and the file also puts work on '{other}': the wait ordered the loop's work on "
                    f"'{named[0]}' with it")
    return None


def _error_check(data: bytes, op) -> bool:
    """A call of the program whose one argument is a runtime or library call: an error
    check around it (the call inside is classified on its own)."""
    if op.kind != "unseen":
        return False
    args = [a for a in op.call.child_by_field_name("arguments").named_children if a.type != "comment"]
    return len(args) == 1 and args[0].type == "call_expression" and \
        streams.classify(data, args[0]).kind != "unseen"


_HOST_MEMORY = frozenset({"memcpy", "memset", "memcmp", "memmove", "std::memcpy", "std::memset", "std::copy",
                          "fwrite", "fread", "strcmp", "strlen", "puts", "fputs"})


def _host_read(data: bytes, statement) -> bool:
    """The statement's host code may read memory: an element or a pointee, a member through
    a pointer, a C library function that reads buffers."""
    return any(n.type in ("subscript_expression", "new_expression", "delete_expression")
               or n.type == "pointer_expression" and text(data, n.child_by_field_name("operator")) == "*"
               or n.type == "field_expression" and text(data, n.child_by_field_name("operator")) == "->"
               or n.type == "call_expression" and text(data, n.child_by_field_name("function")) in _HOST_MEMORY
               for n in walk(statement))


_FILE_STREAMS: list = [None, None, ()]      # the last tree's root, its text, and its launch and async streams


def _other_stream(data: bytes, root, stream: str) -> str | None:
    """A stream of the file's launches and asynchronous calls that is neither `stream` nor
    the legacy default stream (gathered once per tree)."""
    if _FILE_STREAMS[0] is not root or _FILE_STREAMS[1] is not data:
        found = [op.stream for op in streams.operations(data, root) if op.kind in ("launch", "async")]
        _FILE_STREAMS[:] = [root, data, tuple(dict.fromkeys(found))]
    return next((s for s in _FILE_STREAMS[2] if s != stream and s not in streams.DEFAULT_STREAMS), None)
