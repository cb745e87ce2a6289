"""Allocation and handle creation in loops (R001-R004): an acquire/release pair in a
host loop's body is moved out of the loop (acquired once before it, released once after
it) where translator.passes.runtime.loops proves it legal, else reported with the fix.

Pattern 1 (R001, R002): `cudaMalloc`/`cudaFree`, `cudaMallocManaged`/`cudaFree`,
`cudaMallocHost` and `cudaHostAlloc`/`cudaFreeHost`. Each call allocates from the driver
(on AMD a `hipMalloc` maps pages and a `hipFree` synchronises the device): once per
iteration, that is a device-wide stall per iteration. Refused, the fix named is
stream-ordered allocation (`cudaMallocAsync`/`cudaFreeAsync`, HIP from ROCm 5.2) with
the default pool's release threshold raised once, so that freed memory is reused.
Pattern 5 (R003, R004): `cudaStreamCreate*`/`cudaStreamDestroy`,
`cudaEventCreate*`/`cudaEventDestroy`, `cublasCreate`/`cublasDestroy`, `cufftPlan*`/
`cufftDestroy` (a plan's creation compiles kernels: milliseconds each).
A cuBLAS handle or cuFFT plan whose state the loop sets (`cublasSet*`, `cufftSet*`) is
refused: hoisted, an iteration would start from the previous one's state. So are a
stream the loop queries (`cudaStreamQuery`, `cudaStreamIsCapturing`,
`cudaStreamGetCaptureInfo`: a fresh stream is idle, a reused one may still run the last
iteration's work) and an event that an iteration uses before recording it, or records
under a condition (a fresh event is complete; a reused one holds the last recording).
An array filled one element per iteration (`cudaMalloc(&d[i], n)`, `cudaStreamCreate(s + i)`,
`i` the `for` loop's own counter, which nothing else in the loop writes) allocates each
element once: no pair is made per iteration, and nothing is said unless the same loop also
releases an element of it (a per-iteration allocation and free of distinct slots: reported,
never moved). A fix's text is built from the first argument as written: the address as it
is, and the pointer `x` of `&x`, `*e` of another `e`, or in words where `e` has a call or a
write.
"""

from __future__ import annotations

from dataclasses import dataclass

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.passes.runtime import loops, ordering
from translator.passes.runtime.loops import text


@dataclass(frozen=True)
class Kind:
    release: tuple[str, ...]
    invariant: tuple[int, ...]      # the argument indexes that must not change per iteration
    memory: bool                    # an allocation (pattern 1) or a handle (pattern 5)
    device: bool = True             # device memory (stream-ordered allocation applies)


KINDS = {
    "cudaMalloc": Kind(("cudaFree",), (1,), True),
    "cudaMallocManaged": Kind(("cudaFree",), (1, 2), True, False),
    "cudaMallocHost": Kind(("cudaFreeHost",), (1, 2), True, False),
    "cudaHostAlloc": Kind(("cudaFreeHost",), (1, 2), True, False),
    "cudaStreamCreate": Kind(("cudaStreamDestroy",), (), False),
    "cudaStreamCreateWithFlags": Kind(("cudaStreamDestroy",), (1,), False),
    "cudaStreamCreateWithPriority": Kind(("cudaStreamDestroy",), (1, 2), False),
    "cudaEventCreate": Kind(("cudaEventDestroy",), (1,), False),
    "cudaEventCreateWithFlags": Kind(("cudaEventDestroy",), (1,), False),
    "cublasCreate": Kind(("cublasDestroy",), (), False),
    "cublasCreate_v2": Kind(("cublasDestroy", "cublasDestroy_v2"), (), False),
    "cufftPlan1d": Kind(("cufftDestroy",), (1, 2, 3), False),
    "cufftPlan2d": Kind(("cufftDestroy",), (1, 2, 3), False),
    "cufftPlan3d": Kind(("cufftDestroy",), (1, 2, 3, 4), False),
    "cufftPlanMany": Kind(("cufftDestroy",), tuple(range(1, 11)), False),
}
RELEASES = frozenset(r for k in KINDS.values() for r in k.release)
# Calls whose answer depends on what a stream has been given: a fresh stream is idle.
_STREAM_STATE = frozenset({"cudaStreamQuery", "cudaStreamIsCapturing", "cudaStreamGetCaptureInfo",
                           "cudaStreamGetCaptureInfo_v2", "cudaStreamGetCaptureInfo_v3"})
_NAMES = loops.names_pattern(KINDS)

_EXAMPLE = """__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(const float* h, int n) {
    for (int it = 0; it < 10; ++it) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaFree(d);
    }
}
"""
_HOISTED = """__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(const float* h, int n) {
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    for (int it = 0; it < 10; ++it) {
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
    }
    cudaFree(d);
}
"""
_OPTIONS = ("--target", "cuda", "--ignore", "L,F")

ALLOC_HOISTED = rule(
    "R001", "allocation-hoisted", NOTE, "an allocation and its free in a loop move out of the loop", """
A loop allocates memory of the same size at every iteration and frees it at the end of
the iteration (`cudaMalloc`/`cudaFree`, `cudaMallocManaged`, `cudaMallocHost`/`cudaFreeHost`).
Each allocation goes to the driver, and on AMD `hipFree` synchronises the whole device:
the loop stalls once per iteration. Where the size is loop-invariant, the pointer does not
escape the iteration (it is only passed to launches and runtime calls, never stored,
returned or passed to the program's own functions), and no `break`, `continue`, `return`
or `goto` skips the free (which is the last thing the body does), the allocation moves
before the loop and the free after it, each statement as it was written (an error-check
macro around it stays). A loop proved to run at least once gets them as they are; a
`for (T i = start; i < bound; ...)` loop that may run zero times (a bound from `argv` or a
parameter) gets both under its first iteration's condition, `if (start < bound)`, whose
names the loop does not write, so that nothing is allocated when it runs zero times. The
note's reason names the proof. Off with `--no-runtime` (`runtime = false`).""",
    edits=True, safe=False, example=_EXAMPLE, translation=_HOISTED, options=_OPTIONS, topic="runtime")

ALLOC_IN_LOOP = rule(
    "R002", "allocation-in-loop", WARNING, "an allocation in a loop that cannot be hoisted, with the fix", """
A loop allocates and frees memory at every iteration, but moving the pair out of the loop
is not proved safe: the warning names the missing fact (the size changes per iteration,
the pointer escapes, a `break` skips the free, a loop that may run zero times whose first
iteration's condition cannot be written before it...). A loop that allocates an array one
element per iteration (`&d[i]`, `d + i`, `i` its own counter) gets no warning: each
element is allocated once; where the same loop frees an element too, the warning says so.
The fix's code is built from the first argument as written (`cudaMallocAsync(&d[i], ...)`,
`cudaFreeAsync(d[i], ...)`). The fix
it names for device memory is stream-ordered allocation: `cudaMallocAsync(&p, size,
stream)` and `cudaFreeAsync(p, stream)` on the stream of the launches that use it
(`hipMallocAsync`/`hipFreeAsync` from ROCm 5.2), with the device's default pool's release
threshold raised once before the loop (`cudaMemPoolSetAttribute(pool,
cudaMemPoolAttrReleaseThreshold, &max)`), so that a free returns the memory to the pool
and the next allocation reuses it without a device-wide synchronisation. For pinned or
managed memory, allocate once before the loop at the largest size it needs.""",
    example=_EXAMPLE.replace("n * sizeof(float));\n        cudaMemcpy", "(n + it) * sizeof(float));\n        cudaMemcpy"),
    options=_OPTIONS, topic="runtime")

HANDLE_HOISTED = rule(
    "R003", "handle-hoisted", NOTE, "a stream, event, cuBLAS handle or cuFFT plan created in a loop moves out of it", """
A loop creates a stream, an event, a cuBLAS handle or a cuFFT plan at every iteration and
destroys it at the end of the iteration. Creating a handle costs a driver call (a plan's
creation compiles its kernels); where the same facts as for an allocation are proved
(the loop runs at least once, or the creation and the destruction go under its first
iteration's condition as for R001, the creation's arguments are loop-invariant, the handle is
only passed to the runtime's and the libraries' calls and to launches, nothing skips the
destruction, and the loop sets no state of a cuBLAS handle or cuFFT plan that the next
iteration would inherit), it is created once before the loop and destroyed once after.
Work that ran on one stream per iteration then runs on one stream in order: more
ordering than before, never less.""",
    edits=True, safe=False,
    example=_EXAMPLE.replace("float* d;\n        cudaMalloc(&d, n * sizeof(float));",
                             "cudaStream_t s;\n        cudaStreamCreate(&s);")
                    .replace("twice<<<(n + 255) / 256, 256>>>(d, n);\n        cudaFree(d);",
                             "twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);\n        cudaStreamDestroy(s);")
                    .replace("cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n        ", "")
                    .replace("const float* h", "float* x"),
    translation=_HOISTED.replace("float* d;\n    cudaMalloc(&d, n * sizeof(float));",
                                 "cudaStream_t s;\n    cudaStreamCreate(&s);")
                        .replace("twice<<<(n + 255) / 256, 256>>>(d, n);\n    }\n    cudaFree(d);",
                                 "twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);\n    }\n    cudaStreamDestroy(s);")
                        .replace("cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n        ", "")
                        .replace("const float* h", "float* x"),
    options=_OPTIONS, topic="runtime")

HANDLE_IN_LOOP = rule(
    "R004", "handle-in-loop", WARNING, "a handle created in a loop that cannot be hoisted, with the fix", """
A loop creates and destroys a stream, an event, a cuBLAS handle or a cuFFT plan at every
iteration, but moving the pair out of the loop is not proved safe; the warning names the
missing fact. The fix: create it once before the loop (for a plan, one per distinct size,
kept in a cache) and destroy it once after.""",
    example=HANDLE_HOISTED.example.replace("for (int it = 0; it < 10; ++it)", "while (n-- > 0)"),
    options=_OPTIONS, topic="runtime")

RULES = (ALLOC_HOISTED, ALLOC_IN_LOOP, HANDLE_HOISTED, HANDLE_IN_LOOP)


def run(ctx, values) -> None:
    parsed = ctx.parsed
    data = parsed.data
    if not any(name.encode() in parsed.words for name in KINDS):
        return
    hoisted: dict = {}      # (the block's range, a name) -> the earlier loop whose declaration of it moved there
    for node in loops.calls_named(parsed, _NAMES):
        name = text(data, node.child_by_field_name("function"))
        if name not in KINDS:
            continue
        loop = node.parent
        while loop is not None and loop.type not in loops.LOOPS and loop.type != "function_definition":
            loop = loop.parent
        if loop is None or loop.type == "function_definition" or loops.host_function(data, node) is None:
            continue
        _consider(ctx, values, data, loop, node, name, hoisted)


def _consider(ctx, values, data: bytes, loop, call, name: str, hoisted: dict) -> None:
    kind = KINDS[name]
    args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
    target = loops.target_of(data, args[0]) if args else None
    pointer = pointer_of(data, args[0]) if args else None
    shown = target or pointer or (text(data, args[0]) if args else "?")
    element = _element(values, data, loop, args[0], kind) if args else None
    if element is not None:
        counter, released = element
        if released is None:
            return      # one element of an array per iteration, released elsewhere: nothing per iteration to hoist
        verbs = ("allocates", "allocation and free", "allocation") if kind.memory else \
            ("creates", "creation and destruction", "creation")
        why = (f"each iteration {verbs[0]} its own element '{shown}' (indexed by the loop's counter '{counter}') and "
               f"the loop releases '{text(data, released)}' (line {loops.line_of(data, released)}) too: a "
               f"per-iteration {verbs[1]} of distinct slots, which one {verbs[2]} before the loop cannot stand for")
    else:
        proof, why = _prove(ctx, values, data, loop, call, name, kind, args, target, hoisted)
    if why is None:
        return
    if kind.memory:
        ctx.report(ALLOC_IN_LOOP, call.start_byte, f"{name} of '{shown}' in a loop not hoisted: {why}. "
                   f"{_alloc_fix(ctx, data, loop, name, kind, pointer, args)}", end=call.end_byte, subject=shown)
    else:
        ctx.report(HANDLE_IN_LOOP, call.start_byte, f"{name} of '{shown}' in a loop not hoisted: {why}. Fix: create "
                   f"it once before the loop and destroy it once after (a plan: one per distinct size, cached)",
                   end=call.end_byte, subject=shown)


def _prove(ctx, values, data, loop, call, name, kind, args, target, hoisted):
    """(the edits' fix made, None) or (None, the missing fact)."""
    if target is None:
        return None, f"its first argument '{text(data, args[0]) if args else ''}' is not the address of a variable"
    body = loops.loop_body(loop)
    if body is None:
        return None, "the loop's body is not a block"
    if loop.parent is None or loop.parent.type != "compound_statement":
        return None, "the loop is not a statement of a block (nothing can go before it)"
    body_statements = loops.statements(body)
    acquire = next((c for s in body_statements if (c := loops.call_of_statement(data, s, {name})) is not None
                    and c.call == call), None)
    if acquire is None:
        return None, "the call is not a statement of the loop's body (it is conditional or nested)"
    index = body_statements.index(acquire.statement)
    release = None
    for s in body_statements[index + 1:]:
        c = loops.call_of_statement(data, s, set(kind.release))
        if c is not None and len(c.arguments) == 1 and text(data, c.arguments[0]) == target:
            release = c
            break
    if release is None:
        return None, f"no {'/'.join(kind.release)}({target}) is a statement of the body after it"
    after = body_statements[body_statements.index(release.statement) + 1:]
    if any(loops.call_of_statement(data, s, RELEASES) is None for s in after):
        return None, f"the body goes on after {release.name}({target}): it is not the iteration's last step"
    jump = loops.jump_in(body)
    if jump is not None:
        line = loops.line_of(data, jump)
        return None, f"a '{text(data, jump).split()[0].rstrip(';')}' at line {line} may skip the release or leave it acquired"
    trips = loops.runs_once(values, data, loop)
    guard = None
    if trips is not None and "never runs" in trips:
        return None, trips
    if trips is not None:
        guard, why = loops.first_iteration(values, data, loop)
        if guard is None:
            return None, f"{trips}, and the condition of its first iteration is not known before it: {why}"
    for i in kind.invariant:
        if i < len(args):
            why = loops.invariant(values, data, loop, args[i])
            if why is not None:
                return None, f"its argument '{text(data, args[i])}' may change per iteration: {why}"
    if not kind.memory and name.startswith(("cublas", "cufft")):
        setter = next((n for n in loops.walk(body) if n.type == "call_expression" and
                       text(data, n.child_by_field_name("function")).startswith(("cublasSet", "cufftSet"))), None)
        if setter is not None:
            return None, (f"the loop sets the handle's state ('{text(data, setter.child_by_field_name('function'))}'): "
                          "hoisted, an iteration would start from the previous one's")
    declaration = None
    for s in body_statements[:index]:
        if s.type == "declaration" and loops.declared_in(data, s, target) is not None:
            declaration = s
    function = loops.host_function(data, loop)
    header = [loop.child_by_field_name(f) for f in ("initializer", "condition", "update")]
    for part in header:
        if part is not None and any(n.type == "identifier" and text(data, n) == target for n in loops.walk(part)):
            return None, f"the loop's header uses '{target}'"
    if declaration is not None:
        declarators = declaration.children_by_field_name("declarator")
        if len(declarators) != 1 or (declarators[0].type == "init_declarator" and
                                     text(data, declarators[0].child_by_field_name("value")) not in ("nullptr", "NULL", "0")):
            return None, f"the declaration of '{target}' declares more than it or gives it a value"
        clash = loops.clash(data, loop, target, function)
        if clash is not None:
            return None, clash
    elif loops.declared_in(data, body, target) is not None:
        return None, f"'{target}' is declared in the body but not as a statement before the call"
    why = loops.escape(data, body, acquire, release, target, ctx.module.kernels)
    if why is not None:
        return None, f"it may escape the iteration: {why}"
    if name.startswith("cudaEventCreate"):
        first = next((n for n in loops.walk(body) if n.type == "identifier" and text(data, n) == target
                      and n.start_byte > acquire.statement.end_byte), None)
        user = first.parent.parent if first is not None and first.parent is not None else None
        if first is not None and (user is None or user.type != "call_expression"
                                  or text(data, user.child_by_field_name("function")) != "cudaEventRecord"):
            return None, (f"'{target}' is used before the iteration records it: a fresh event is complete, "
                          "the previous iteration's may not be")
        recorded = first is not None and any(
            (c := loops.call_of_statement(data, s_, {"cudaEventRecord"})) is not None and c.call == user
            for s_ in body_statements)
        if first is not None and not recorded:
            return None, (f"'{target}' is recorded under a condition (line {loops.line_of(data, user)}): in an "
                          "iteration that does not record it a fresh event is complete, the previous iteration's "
                          "recording may not be")
    if name.startswith("cudaStreamCreate"):
        query = next((n for n in loops.walk(body) if n.type == "call_expression"
                      and text(data, n.child_by_field_name("function")) in _STREAM_STATE
                      and any(text(data, a) == target for a in n.child_by_field_name("arguments").named_children)),
                     None)
        if query is not None:
            return None, (f"'{target}' is queried ({text(data, query.child_by_field_name('function'))} at line "
                          f"{loops.line_of(data, query)}): a fresh stream is idle, the previous iteration's may not be")
    rule_ = ALLOC_HOISTED if kind.memory else HANDLE_HOISTED
    moved = [declaration, acquire.statement] if declaration is not None else [acquire.statement]
    if release.name in loops.SYNCHRONISING_RELEASES:
        why = ordering.free_wait_needed(data, values.root, loop, body, moved + [release.statement])
        if why is not None:
            return None, why
    key = (loop.parent.start_byte, loop.parent.end_byte, target)
    if declaration is not None and key in hoisted:
        return None, (f"an earlier loop of the block (line {loops.line_of(data, hoisted[key])}) has its declaration of "
                      f"'{target}' moved out too: the two declarations would clash")
    edits = _move(data, loop, moved, release.statement, guard, {acquire.statement: acquire, release.statement: release})
    what = "size is" if kind.memory else "arguments are"
    if guard is None:
        runs = loops.trip_proof(values, data, loop)
        where = "moved before the loop"
        after = "after it"
    else:
        runs = (f"the loop may run zero times, so '{target}' is {'allocated' if kind.memory else 'created'} only "
                f"where its first iteration runs (`{guard}`, whose names the loop does not write) and released under "
                "the same condition")
        where = f"moved before the loop under `if ({guard})`"
        after = "after it under the same condition"
    reason = (f"{name} of '{target}' {where} and {release.name} {after}: "
                  f"{runs}, its {what} loop-invariant (nothing in the loop writes its names), "
                  f"'{target}' is only passed to launches and runtime calls, and nothing skips the release, "
                  f"the body's last step")
    fix = ctx.fix(rule_, edits, reason)
    if fix is not None:
        ctx.report(rule_, call.start_byte, reason, end=call.end_byte, fix=fix, subject=target)
        if declaration is not None:
            hoisted[key] = loop
    return fix, None


def _alloc_fix(ctx, data, loop, name, kind, pointer: str | None, args) -> str:
    """The fix's text, built from the first argument as written: the address is passed as it
    is, the pointer freed is `pointer` (pointer_of), or said in words where it cannot be written."""
    size = text(data, args[1]) if len(args) > 1 else "size"
    address = text(data, args[0]) if args else "&p"
    if not kind.device:
        what = f"'{pointer}'" if pointer is not None else f"the pointer it stores through '{address}'"
        return (f"Fix: allocate {what} once before the loop at the largest size the loop needs and free it once "
                "after (pinned and managed memory have no stream-ordered allocator)")
    stream = _stream_of(data, loop, pointer) if pointer is not None else "0"
    hip = ""
    if ctx.options.target == "hip":
        if ctx.options.rocm_version < (5, 2):
            return (f"Fix: allocate once before the loop at the largest size; the target ROCm "
                    f"{'.'.join(map(str, ctx.options.rocm_version))} has no hipMallocAsync (ROCm 5.2 and later)")
        hip = " (hipMallocAsync/hipFreeAsync, ROCm 5.2 and later)"
    free = f"`cudaFreeAsync({pointer}, {stream})`" if pointer is not None else \
        (f"`cudaFreeAsync` of the pointer it stored through '{address}' (evaluated once: the expression has a call "
         "or a write)")
    return (f"Fix: stream-ordered allocation{hip}: `cudaMallocAsync({address}, {size}, {stream})` and "
            f"{free}, with the default pool's release threshold raised once before the "
            "loop (`cudaMemPool_t pool; cudaDeviceGetDefaultMemPool(&pool, device); uint64_t keep = UINT64_MAX; "
            "cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);`) so that freed memory is reused")


# Expressions that name memory without computing anything: `*e` of them is written as `*e`.
_PRIMARY = frozenset({"identifier", "subscript_expression", "field_expression", "parenthesized_expression",
                      "cast_expression", "qualified_identifier"})


def pointer_of(data: bytes, argument) -> str | None:
    """The pointer an allocation or a creation stores through its first argument, as code:
    `x` for `&x` (casts and parentheses around it: `(void**)&x`), else `*e` for the
    pointer-to-pointer `e` as written (`*pp`, `*(pp + i)`, `*(void**)pp`); None where the
    expression has a call, an assignment or an increment (written again, it would be
    evaluated twice)."""
    inner = argument
    while inner.type in ("cast_expression", "parenthesized_expression"):
        inner = inner.child_by_field_name("value") if inner.type == "cast_expression" else \
            (inner.named_children[0] if inner.named_child_count == 1 else inner)
        if inner.type == "parenthesized_expression" and inner.named_child_count != 1:
            break
    if inner.type == "pointer_expression" and text(data, inner.child_by_field_name("operator")) == "&":
        written = inner.child_by_field_name("argument")
        if any(n.type in ("call_expression", "assignment_expression", "update_expression") for n in loops.walk(written)):
            return None
        return text(data, written)
    if any(n.type in ("call_expression", "assignment_expression", "update_expression") for n in loops.walk(argument)):
        return None
    written = text(data, argument)
    return f"*{written}" if argument.type in _PRIMARY else f"*({written})"


def _counter(values, data: bytes, loop) -> str | None:
    """The name of a `for` loop's own counter: the update is `++i`, `i++`, `--i`, `i--`, `i += c`
    or `i -= c` (c a nonzero number), nothing else in the loop writes it (translator.ir.writes;
    its address is taken nowhere in the function, no reference or lambda names it, no macro
    the loop uses writes it): every iteration sees another value. None otherwise."""
    if loop.type != "for_statement":
        return None
    update = loop.child_by_field_name("update")
    name = None
    if update is not None and update.type == "update_expression":
        operand = update.child_by_field_name("argument")
        name = text(data, operand) if operand is not None and operand.type == "identifier" else None
    elif update is not None and update.type == "assignment_expression" and \
            text(data, update.child_by_field_name("operator")) in ("+=", "-="):
        left, right = update.child_by_field_name("left"), update.child_by_field_name("right")
        step = values.evaluate(right) if right is not None else None
        if left is not None and left.type == "identifier" and step is not None and step.known and \
                0 not in step.values:
            name = text(data, left)
    if name is None or _written(values, data, loop, name, skip=update):
        return None
    return name


def _written(values, data: bytes, loop, name: str, skip=None, array: bool = False) -> bool:
    """Something in the loop (but `skip`) may write the local `name`, or it has another name.
    For an `array`, a write of an element (`a[i] = ...`, `&a[i]` passed on) is not a write of it."""
    function = loops.host_function(data, loop, values.parsed.main if values.parsed.data is data else None)
    if function is None:
        return True
    if loops.index(data, function).addresses.get(name):
        return True
    for use in loops.index(data, loop).identifiers.get(name, ()):
        if skip is not None and skip.start_byte <= use.start_byte < skip.end_byte:
            continue
        if array and use.parent is not None and use.parent.type == "subscript_expression" and \
                use.parent.child_by_field_name("argument") == use:
            continue
        if loops._write(data, use, values.callees) is not None:
            return True
    return bool(loops.other_name(data, function, name, values.callees) or loops.macro_write(values, data, loop, name))


def _element(values, data: bytes, loop, argument, kind):
    """(the loop's counter, the release in the loop that names the array, or None) when the
    first argument is `&a[i]` or `a + i` (`i + a`; casts and parentheses around it) with `i`
    the loop's own counter (_counter) and `a` a name or `b[j]...` of names and numbers that
    the loop neither declares nor writes: each iteration acquires another element, once.
    None otherwise."""
    inner = argument
    while inner.type in ("cast_expression", "parenthesized_expression"):
        inner = inner.child_by_field_name("value") if inner.type == "cast_expression" else \
            (inner.named_children[0] if inner.named_child_count == 1 else None)
        if inner is None:
            return None
    if inner.type == "pointer_expression" and text(data, inner.child_by_field_name("operator")) == "&":
        element = inner.child_by_field_name("argument")
        if element is None or element.type != "subscript_expression":
            return None
        indices = element.child_by_field_name("indices")
        index = [c for c in indices.named_children if c.type != "comment"] if indices is not None else []
        if len(index) != 1 or index[0].type != "identifier":
            return None
        base, index = element.child_by_field_name("argument"), text(data, index[0])
    elif inner.type == "binary_expression" and text(data, inner.child_by_field_name("operator")) == "+":
        left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
        counter = _counter(values, data, loop)
        if right is not None and right.type == "identifier" and text(data, right) == counter:
            base, index = left, counter
        elif left is not None and left.type == "identifier" and text(data, left) == counter:
            base, index = right, counter
        else:
            return None
    else:
        return None
    if base is None or _counter(values, data, loop) != index:
        return None
    root, names = base, []
    while root.type == "subscript_expression":
        indices = root.child_by_field_name("indices")
        parts = [c for c in indices.named_children if c.type != "comment"] if indices is not None else []
        if len(parts) != 1 or parts[0].type not in ("identifier", "number_literal"):
            return None
        if parts[0].type == "identifier":
            names.append(text(data, parts[0]))
        root = root.child_by_field_name("argument")
    if root is None or root.type != "identifier":
        return None
    array = text(data, root)
    body = loops.loop_body(loop)
    if body is None or index in names + [array] or loops.index(data, body).declared(array) is not None:
        return None
    if _written(values, data, loop, array, array=True) or any(_written(values, data, loop, n) for n in names):
        return None
    for n in loops.walk(body):
        if n.type == "call_expression" and text(data, n.child_by_field_name("function")) in kind.release:
            arguments = n.child_by_field_name("arguments")
            if arguments is not None and any(a.type == "identifier" and text(data, a) == array
                                             for a in loops.walk(arguments)):
                return index, n
    return index, None


def _stream_of(data, loop, target) -> str:
    """The stream of the first launch in the loop that passes `target`, else `0`."""
    for n in loops.walk(loop):
        config = next((c for c in n.children if c.type == "kernel_call_syntax"), None) if n.type == "call_expression" else None
        if config is None:
            continue
        arguments = n.child_by_field_name("arguments")
        if arguments is not None and any(text(data, a) == target for a in arguments.named_children):
            parts = [c for c in config.named_children if c.type != "comment"]
            return text(data, parts[3]) if len(parts) > 3 else "0"
    return "0"


def _line(data: bytes, node) -> tuple[int, int, bytes]:
    """The bytes of a statement with its own line when it has one: (start, end, indent)."""
    start, end = node.start_byte, node.end_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    indent = data[line_start:start]
    if indent.strip() == b"":
        start = line_start
    else:
        indent = b""
    rest = data.find(b"\n", end)
    if rest != -1 and data[end:rest].strip() == b"":
        end = rest + 1
    return start, end, indent


def _guarded(data: bytes, statement, guard: str | None, calls: dict) -> bytes:
    """The statement as written, under `if (guard)` where there is one (in braces when the
    call is inside an error-check macro or function: a macro's own `if` takes no `else`)."""
    written = data[statement.start_byte:statement.end_byte]
    if guard is None:
        return written
    call = calls.get(statement)
    bare = call is not None and statement.named_children[0] == call.call
    return b"if (" + guard.encode() + b") " + (written if bare else b"{ " + written + b" }")


def _move(data: bytes, loop, before, after_statement, guard: str | None = None, calls=None) -> tuple[Edit, ...]:
    """Edits moving the `before` statements to just before the loop and `after_statement`
    to just after it; with a guard, the acquisition and the release under `if (guard)`
    (a declaration moves as it is)."""
    calls = calls or {}
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    _, _, loop_indent = _line(data, loop)
    edits, hoisted = [], b""
    for s in before:
        start, end, _ = _line(data, s)
        edits.append(Edit(start, end, b""))
        hoisted += (_guarded(data, s, guard, calls) if s in calls else data[s.start_byte:s.end_byte]) \
            + newline + loop_indent
    start, end, _ = _line(data, after_statement)
    edits.append(Edit(start, end, b""))
    edits.append(Edit(loop.start_byte, loop.start_byte, hoisted))
    edits.append(Edit(loop.end_byte, loop.end_byte,
                      newline + loop_indent + _guarded(data, after_statement, guard, calls)))
    return tuple(sorted(edits, key=lambda e: (e.start, e.end)))
