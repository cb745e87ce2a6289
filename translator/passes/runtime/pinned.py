"""Pageable copies in loops (pattern 3: R007-R009): a host buffer that a function allocates
with `malloc` or `new T[n]` and copies to or from the device with `cudaMemcpy` in a loop is
allocated pinned (`cudaMallocHost`, freed with `cudaFreeHost` where the function freed it)
when every use of it is proved to keep nothing; else the copy is reported with the fix.

A copy from pageable memory is staged through a pinned buffer of the driver's, in pieces,
and a copy to the device from pageable memory may return before its DMA is done: the
driver copies the bytes twice and the copy cannot overlap anything. Pinned, the DMA reads
the buffer itself.

The rewrite is made where the buffer is known to hold MIN_PINNED_BYTES (256 KiB) or more,
the smallest size at which bench/runtime.py measured pinning to pay (a small buffer's
pinned allocation costs more than its copies save); one known to be smaller is left as it
is, with nothing said. Where the size is known only at run time (a parameter, `argv`
parsed once, a global, a header's or another file's name, a local assigned after its
declaration), the allocation decides: `T* p = nullptr; bool f = (size) >= 262144 &&
cudaMallocHost(&p, size) == cudaSuccess; if (!f) p = <the allocation as written>;`, and
the free becomes `if (f) cudaFreeHost(p); else <the free as written>`. The flag is fixed
at the allocation, so a size changed later changes nothing; the size is evaluated twice
(the test, then the allocation), so a size with a call, an assignment or an increment is
refused (R008). The buffer is proved not to escape when, in its
function:

* it is declared by `T* p = (T*)malloc(size);` (or `static_cast<T*>(malloc(size))`, or
  `malloc(size)` in C style) or `T* p = new T[n];` with `T` a built-in type and no
  initializer (pinned memory is not zeroed, `new T[n]()` is), neither `static` nor
  `const`, outside every loop, the one declaration of its name in the function; or
  declared with no value (`T* p = NULL;`, `nullptr`, `0`, or none; one declarator of
  several, `T *p, *q;`, as well) and allocated by
  `p = (T*)malloc(size);` (`new T[n]`), its one assignment in the function, a statement
  of the declaration's block (not in a branch or a loop of it), with no use of `p`
  between the declaration and it: every fact below then holds from that assignment on
  (and no label lies between it and the free, where a `goto` could enter without it).
  A `calloc` is recognised and refused: it zero-fills, pinned memory is not zeroed;
* every use reads it or an element: an element access (`p[i]`, `*p`, `*(p + i)`), a
  comparison, `sizeof`, an argument (the pointer, `p + k`, a cast of either) of the
  blocking copies (`cudaMemcpy`, `cudaMemcpy2D`, `cudaMemcpyToSymbol`,
  `cudaMemcpyFromSymbol`) or of the C library's functions that keep nothing (`memcpy`,
  `memset`, `fread`, `printf`, `std::fill`...), or an argument of a host function defined
  once in this file (not a template, its parameters one per argument in every
  declaration of it the file holds) whose parameter there is a plain pointer used in its
  body only in these ways (followed through up to four such calls; one that frees it or
  copies it asynchronously is refused); never assigned, stored, aliased (`T* q = p;`),
  returned, taken by address, captured by a lambda, passed to a kernel, to `realloc`,
  to another runtime call or to any other function (an overload declared only in a
  header the file includes is not seen);
* it is freed once, by the matching `free(p)` or `delete[] p`, a statement of the block
  that declares it, after every other use, and no `return`, `goto`, `throw`, `break` or
  `continue` lies between the declaration and the free (a path that leaves without it),
  nor a `cudaDeviceReset()` (which releases pinned memory): called there, or by a function
  of the file called there (through the file's calls, overloads not told apart), or in
  the body of a macro used there. A function of another file that resets the device is
  not seen.

`cudaMemcpyAsync` (or another `*Async` copy) of such a buffer is reported (R009): from
pageable memory it is synchronous. The buffer is then not made pinned: pinned, the copy
becomes asynchronous, and host code that reads the buffer after it would race.
"""

from __future__ import annotations

import re

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir.host_values import SIZES
from translator.ir.nodes import function_name, initialized
from translator.passes.runtime import loops
from translator.passes.runtime.loops import line_of, text

BLOCKING_COPIES = frozenset({"cudaMemcpy", "cudaMemcpy2D", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol"})
ASYNC_COPIES = frozenset({"cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpyToSymbolAsync",
                          "cudaMemcpyFromSymbolAsync"})
# The C library's functions that read or write through a pointer and keep none.
_KEEPS_NOTHING = frozenset({"memcpy", "memset", "memcmp", "memmove", "fread", "fwrite", "printf", "fprintf",
                            "qsort", "std::memcpy", "std::memset", "std::memcmp", "std::fill", "std::copy",
                            "std::memmove", "std::fill_n", "std::copy_n", "std::sort", "std::iota", "std::qsort",
                            "snprintf", "sprintf", "std::snprintf", "std::printf", "std::fprintf", "std::fread",
                            "std::fwrite", "puts", "fputs", "fgets", "strlen", "strcmp", "strncmp", "strcpy",
                            "strncpy", "sscanf"})
# How deep the program's own functions are followed (a pointer passed on from one to the next).
_CALL_DEPTH = 4
_COMPARISONS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
_LEAVES = {"return_statement": "return", "goto_statement": "goto", "throw_expression": "throw",
           "break_statement": "break", "continue_statement": "continue"}

_EXAMPLE = """__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(float* d) {
    const int n = 1 << 18;
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) {
        for (int i = 0; i < n; ++i) h[i] = it;
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    free(h);
}
"""
_PINNED = _EXAMPLE.replace("float* h = (float*)malloc(n * sizeof(float));",
                           "float* h = nullptr;\n    cudaMallocHost(&h, n * sizeof(float));") \
                  .replace("free(h);", "cudaFreeHost(h);")
_OPTIONS = ("--target", "cuda", "--ignore", "L,F")

PINNED = rule(
    "R007", "pageable-made-pinned", NOTE, "a host buffer copied in a loop is allocated pinned", """
A function allocates a host buffer with `malloc` or `new T[n]` (in its declaration, or in C
style by the one assignment `p = (T*)malloc(size);` after a declaration `T* p = NULL;`,
a statement of the declaration's block before any use of `p`) and copies it to or from
the device with `cudaMemcpy` in a loop. From pageable memory the driver stages every copy
through a pinned buffer of its own (two copies, no overlap); the buffer is allocated with
`cudaMallocHost` instead (`hipHostMalloc(..., hipHostMallocDefault)` for HIP), and freed
with `cudaFreeHost` (`hipHostFree`) where the function freed it. Made only where the
buffer is proved to stay in the function: every use reads it or an element, or passes it
to a blocking copy, a C library function that keeps nothing, or a function defined once in
the file that only reads and writes elements through its pointer parameter (it frees,
stores, returns or copies it asynchronously nowhere, followed through four calls); it is
never stored, aliased, returned, passed to another function or a kernel, `realloc`'d or
captured; it
is freed once, by a statement of its own block after every use, with no `return`,
`goto`, `throw`, `break` or `continue` between its allocation and its free, nor a
`cudaDeviceReset()` (which releases pinned memory; called there directly, by a function
of the file or in a macro's body); and its size
is known to be 256 KiB or more (on the H200, pinning a 4 KiB buffer copied 100 times made
the loop 0.56x as fast, a 256 KiB one 2.4x: a smaller one is left as it is). Where the size
is known only at run time (a parameter, `argv` parsed once, a global, a name of a header or
of another file), the allocation decides: pinned where it holds 256 KiB or more and
`cudaMallocHost` succeeds, else allocated as written, a flag set once there saying which,
and the free matches it (`if (f) cudaFreeHost(p); else free(p);`); a size with a call, an
assignment or an increment, which the test and the allocation would evaluate twice, gets
R008. Pinned memory is not zero-filled, so a `new T[n]()` is not
changed; a failed allocation leaves the pointer null (the program's null check still sees
it) where `new` would throw.""",
    edits=True, safe=False, example=_EXAMPLE, translation=_PINNED, options=_OPTIONS, topic="runtime")

PAGEABLE_IN_LOOP = rule(
    "R008", "pageable-copy-in-loop", WARNING, "a pageable host buffer copied in a loop, not made pinned, with the fix", """
A host buffer allocated with `malloc`, `calloc` or `new` in the function is copied with
`cudaMemcpy` in a loop, but allocating it pinned is not proved safe: the warning names
the use that may keep the pointer (it is stored, returned, passed to a function, freed
conditionally or not in this function, `realloc`'d...), or why its allocation is not the
one value it has (assigned twice, in a branch, read before it) or cannot be pinned (a
`calloc`: pinned memory is not zeroed), or a size known only at run time that cannot be
tested there (it has a call, which the test and the allocation would make twice). The fix: allocate it with
`cudaMallocHost(&p, size)` and free it with `cudaFreeHost(p)` on every path that frees
it (or register it once with `cudaHostRegister`), so that the copies read it directly.""",
    example=_EXAMPLE.replace("    free(h);\n", "    keep(h);\n").replace("void run(", "void keep(float*);\nvoid run("),
    options=_OPTIONS, topic="runtime")

ASYNC_PAGEABLE = rule(
    "R009", "async-copy-pageable", WARNING, "cudaMemcpyAsync of a pageable host buffer is synchronous", """
`cudaMemcpyAsync` of a host buffer the function allocated with `malloc` or `new` does not
overlap anything: from or to pageable memory the copy is staged by the driver and the
call returns when the host side is done, as `cudaMemcpy` would. The buffer is not made
pinned by the pass: pinned, the copy becomes asynchronous, and host code that reads the
buffer after it without synchronising the stream would then race. The fix: allocate it
with `cudaMallocHost` (freed with `cudaFreeHost`) and synchronise the stream
(`cudaStreamSynchronize`) before the host reads what the copy wrote.""",
    example="""__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(float* d, int n, cudaStream_t s) {
    float* h = (float*)malloc(n * sizeof(float));
    twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    free(h);
}
""", options=_OPTIONS, topic="runtime")

RULES = (PINNED, PAGEABLE_IN_LOOP, ASYNC_PAGEABLE)


def run(ctx, values) -> None:
    parsed = ctx.parsed
    words = parsed.words
    if not any(w in words for w in (b"malloc", b"calloc", b"new")) or not any(c.encode() in words for c in
                                                                              BLOCKING_COPIES | ASYNC_COPIES):
        return
    data = parsed.data
    root, seen = parsed.main.root, set()
    for m in re.finditer(rb"\b(?:malloc|calloc|new)\b", data):      # no walk of the whole tree
        node = root.descendant_for_byte_range(m.start(), m.end())
        for _ in range(6):      # the declaration `T* p = (T*)static_cast<..>(malloc(...))` holds it
            if node is None or node.type in ("declaration", "expression_statement"):
                break
            node = node.parent
        if node is None or loops.host_function(data, node) is None:
            continue
        if node.type == "declaration" and node.start_byte not in seen:
            seen.add(node.start_byte)
            found = _allocation(data, node)
            if found is not None:
                _consider(ctx, values, data, node, *found)
        elif node.type == "expression_statement":
            found = _assigned(data, node)
            if found is not None and found[0].start_byte not in seen:
                seen.add(found[0].start_byte)
                _consider(ctx, values, data, *found)


def _allocation(data: bytes, declaration):
    """(name, the initializer, 'malloc', 'calloc' or 'new', the size in bytes as text, the
    expression that counts the elements, the element type or None for bytes) of a declaration
    `T* p = (T*)malloc(size);` or `T* p = new T[n];`, else None."""
    found = initialized(declaration)
    if found is None or found[0].type != "pointer_declarator":
        return None
    pointer, value = found
    inner = pointer.child_by_field_name("declarator")
    if inner is None or inner.type != "identifier":
        return None
    found = _allocating(data, value)
    return None if found is None else (text(data, inner), value) + found


_NULLS = ("NULL", "nullptr", "0")


def _declarator_of(data: bytes, declaration, name: str):
    """The declarator of `declaration` that declares `name` (of `float *a, *b;`, `*b` for
    b), or None."""
    for d in declaration.children_by_field_name("declarator"):
        inner = d
        while inner is not None and inner.type != "identifier":
            inner = inner.child_by_field_name("declarator")
        if inner is not None and text(data, inner) == name:
            return d
    return None


def _assigned(data: bytes, statement):
    """(the declaration, name, the allocating expression, how, size, count, element, the
    assignment, None or why it is not the buffer's one allocation) of a statement `p =
    (T*)malloc(size);` (calloc, `new T[n]`) whose `p` is a local of the function declared
    `T* p = NULL;` (nullptr, 0) or `T* p;` and nowhere else; else None. It is the buffer's
    allocation when it is `p`'s one assignment in the function, a statement of the block that
    declares `p` (the function's straight-line path there: not in a branch or a loop of it),
    and nothing uses `p` between its declaration and it."""
    if statement.named_child_count != 1 or statement.named_children[0].type != "assignment_expression":
        return None
    assignment = statement.named_children[0]
    left, value = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if text(data, assignment.child_by_field_name("operator")) != "=" or left is None or left.type != "identifier" \
            or value is None:
        return None
    found = _allocating(data, value)
    function = loops.host_function(data, statement)
    if found is None or function is None:
        return None
    name = text(data, left)
    declarations = loops.index(data, function).declaring.get(name, [])
    if len(declarations) != 1 or declarations[0].type != "declaration":
        return None         # a parameter, a global, or declared twice: not this function's buffer
    declaration = declarations[0]
    # Its declarator, one of several where the declaration names several (`float *a, *b;`).
    pointer = _declarator_of(data, declaration, name)
    if pointer is None:
        return None
    if pointer.type == "init_declarator":
        if text(data, pointer.child_by_field_name("value")) not in _NULLS:
            return None
        pointer = pointer.child_by_field_name("declarator")
    inner = pointer.child_by_field_name("declarator") if pointer is not None and pointer.type == "pointer_declarator" \
        else None
    if inner is None or inner.type != "identifier" or declaration.start_byte > statement.start_byte:
        return None
    why = None
    uses = loops.index(data, function).identifiers.get(name, ())
    assigned = [u for u in uses if u.parent is not None and u.parent.type == "assignment_expression"
                and u.parent.child_by_field_name("left") == u]
    early = next((u for u in uses if declaration.end_byte <= u.start_byte < statement.start_byte), None)
    if len(assigned) > 1:
        lines = [str(line_of(data, u)) for u in assigned]
        why = (f"'{name}' is assigned {len(assigned)} times in the function (lines {', '.join(lines[:-1])} and "
               f"{lines[-1]}): the allocation must be its one value")
    elif statement.parent != declaration.parent:
        why = (f"its allocation '{text(data, assignment)}' (line {line_of(data, statement)}) is not a statement of the "
               "block that declares it (it is in a branch, a loop or a nested block): on another path it is not allocated there")
    elif early is not None:
        why = f"'{name}' is used before its allocation (line {line_of(data, early)})"
    return (declaration, name, value) + found + (assignment, why)


def _allocating(data: bytes, value):
    """(how, the size in bytes as text, the expression that counts the elements, the element
    type or None for bytes) of an allocating expression: `(T*)malloc(size)`,
    `static_cast<T*>(malloc(size))`, `calloc(n, s)`, `new T[n]`; else None."""
    call = value
    while call.type == "cast_expression":
        call = call.child_by_field_name("value")
    if call.type == "call_expression" and text(data, call.child_by_field_name("function")).replace(" ", "") \
            .startswith("static_cast<"):
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        call = args[0] if len(args) == 1 else call
    callee = text(data, call.child_by_field_name("function")) if call.type == "call_expression" else ""
    if callee in ("malloc", "std::malloc", "calloc", "std::calloc"):
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        if len(args) == 1 and "malloc" in callee:
            return "malloc", text(data, args[0]), args[0], None
        if len(args) == 2 and "calloc" in callee:
            return "calloc", f"{text(data, args[0])} * {text(data, args[1])}", args[0], None
        return None
    if value.type == "new_expression":
        count = value.child_by_field_name("declarator")
        kind = value.child_by_field_name("type")
        if count is None or count.type != "new_declarator" or kind is None:
            return None
        size = [c for c in count.named_children if c.type != "comment"]
        if len(size) != 1:
            return None
        n = text(data, size[0])
        n = n if size[0].type in ("identifier", "number_literal") else f"({n})"
        # `new float*[n]`: the front end blanked the type's stars for the parse
        # (frontend.new_pointer_stars), so the type node is `float`; the element is `float*`.
        stars = re.sub(rb"/\*.*?\*/", b"", data[kind.end_byte:count.start_byte], flags=re.S).count(b"*")
        element = text(data, kind) + "*" * stars
        return "new", f"{n} * sizeof({element})", size[0], element
    return None


def _consider(ctx, values, data: bytes, declaration, name: str, value, how: str, size: str, count,
              element: str | None, assignment=None, unassigned: str | None = None) -> None:
    """`assignment`: the allocation is `name = value` (_assigned) after a declaration that
    gives no value, and `unassigned` says why that is not the buffer's one allocation."""
    function = loops.host_function(data, declaration)
    facts = _uses(data, function, declaration, name, frozenset(values.table.names) if values is not None else None,
                  values.parsed.main.root if values is not None else None,
                  skip=assignment.child_by_field_name("left") if assignment is not None else None)
    fname = function_name(data, function)
    if facts["async"] and unassigned is None:
        for call in facts["async"]:
            callee = text(data, call.child_by_field_name("function"))
            ctx.report(ASYNC_PAGEABLE, call.start_byte,
                       f"{callee} of '{name}', which this function allocates with {how}: from pageable memory the "
                       f"copy is synchronous. Fix: allocate '{name}' with `cudaMallocHost(&{name}, {size})` and free "
                       f"it with `cudaFreeHost({name})`, then synchronise the stream before the host reads it (not "
                       "made: pinned, the copy becomes asynchronous, and host code reading it would race)",
                       end=call.end_byte, subject=fname)
        return
    looped = [c for c in facts["copies"] if _in_loop(c, declaration.parent)]
    if not looped:
        return
    copy = looped[0]
    origin = assignment.parent if assignment is not None else declaration
    why = unassigned or facts["escape"] or _kind_refusal(data, declaration, value, how, name) or \
        _free_refusal(data, declaration, name, how, facts, values, origin)
    where, unknown = "", None
    if why is None:
        small, unknown = _size_refusal(values, count, element)
        if small:
            return      # known to be small: pinned, the loop would be slower (nothing to gain, nothing to say)
        # Of a size known only at run time, the allocation decides (MIN_PINNED_BYTES or more:
        # pinned), which it can where the size is evaluated again without effect.
        effect = next((n for n in loops.walk(count) if n.type in _EFFECTS), None) if unknown else None
        if effect is not None:
            why = (f"{unknown}, and it cannot be tested at run time: its size '{text(data, count)}' has "
                   f"'{text(data, effect)}', which evaluated twice would not give the same size")
            where = f"where it holds {MIN_PINNED_BYTES // 1024} KiB or more, "
    callee = text(data, copy.child_by_field_name("function"))
    if why is not None:
        ctx.report(PAGEABLE_IN_LOOP, copy.start_byte,
                   f"{callee} of '{name}' (allocated with {how}) in a loop copies from pageable memory; not made "
                   f"pinned: {why}. Fix: {where}allocate it with `cudaMallocHost(&{name}, {size})` and free it with "
                   f"`cudaFreeHost({name})` on every path that frees it", end=copy.end_byte, subject=fname)
        return
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    line_start = data.rfind(b"\n", 0, declaration.start_byte) + 1
    indent = data[line_start:declaration.start_byte]
    indent = indent if indent.strip() == b"" else b""
    free = facts["frees"][0]
    if unknown is not None:
        allocate, release = _decided_at_run_time(ctx, data, declaration, name, value, size, free, assignment, indent,
                                                 newline)
    elif assignment is not None:
        allocate = Edit(assignment.start_byte, assignment.end_byte, f"cudaMallocHost(&{name}, {size})".encode())
        release = Edit(free.start_byte, free.end_byte, f"cudaFreeHost({name})".encode())
    else:
        allocate = Edit(value.start_byte, declaration.end_byte,
                        b"nullptr;" + newline + indent + f"cudaMallocHost(&{name}, {size});".encode())
        release = Edit(free.start_byte, free.end_byte, f"cudaFreeHost({name})".encode())
    line = line_of(data, copy)
    reason = (f"'{name}' allocated pinned (cudaMallocHost, freed with cudaFreeHost) in place of {how}"
              f"{' where its size, known at run time, pays' if unknown is not None else ''}: it is copied "
              f"with {callee} in a loop (line {line}), every use of it reads it or passes it to a blocking copy or a "
              "C library function that keeps nothing or to a function of this file that only reads and writes "
              "through it, and the one free is its block's, after every use, on every path" +
              ("; its declaration gives it no value and this is its one assignment, before any use of it, a "
               "statement of its declaration's block" if assignment is not None else "") +
              (f"; {unknown.replace('its size is not known', 'its size is known only at run time', 1)}, so the "
               f"allocation decides: pinned where it holds {MIN_PINNED_BYTES // 1024} KiB or more and "
               f"cudaMallocHost succeeds, else with {how} as written, and the free matches"
               if unknown is not None else ""))
    fix = ctx.fix(PINNED, (allocate, release), reason)
    if fix is not None:
        ctx.report(PINNED, value.start_byte, reason, end=value.end_byte, fix=fix, subject=fname)


# What makes an expression give another value when evaluated again.
_EFFECTS = frozenset({"call_expression", "assignment_expression", "update_expression", "new_expression",
                      "comma_expression", "co_await_expression"})


def _decided_at_run_time(ctx, data: bytes, declaration, name: str, value, size: str, free, assignment, indent: bytes,
                         newline: bytes) -> tuple[Edit, Edit]:
    """The edits that allocate the buffer pinned only where its size, known at run time,
    is MIN_PINNED_BYTES or more and cudaMallocHost succeeds (a flag says which), else as
    written, and free it to match: `T* p = nullptr; bool f = (size) >= M && cudaMallocHost(&p,
    size) == cudaSuccess; if (!f) p = <the allocation as written>;` and `if (f) cudaFreeHost(p);
    else <the free as written>`. After a declaration that gives no value, the flag is declared
    without one (a jump past it into its scope stays legal) and assigned where `p` was."""
    flag = loops.fresh(ctx.parsed.words, f"cu2hip_pinned_{name}")
    test = f"({size}) >= {MIN_PINNED_BYTES} && cudaMallocHost(&{name}, {size}) == cudaSuccess;"
    statement = free.parent
    release = Edit(statement.start_byte, statement.end_byte,
                   f"if ({flag}) cudaFreeHost({name}); else ".encode() + data[statement.start_byte:statement.end_byte])
    if assignment is not None:
        line = assignment.parent
        at = data.rfind(b"\n", 0, line.start_byte) + 1
        inner = data[at:line.start_byte] if data[at:line.start_byte].strip() == b"" else b""
        return (Edit(line.start_byte, line.end_byte,
                     f"bool {flag};".encode() + newline + inner + f"{flag} = {test}".encode() + newline + inner
                     + f"if (!{flag}) ".encode() + data[line.start_byte:line.end_byte]), release)
    return (Edit(value.start_byte, declaration.end_byte,
                 b"nullptr;" + newline + indent + f"bool {flag} = {test}".encode() + newline + indent
                 + f"if (!{flag}) {name} = ".encode() + data[value.start_byte:value.end_byte] + b";"), release)


# Pinning pays where the copies are large: on the H200, a loop of 100 copies down and up
# of a buffer allocated pinned in place of malloc ran 0.56x as fast at 4 KiB (the pinned
# allocation, about 1.5 ms, costs more than the copies save) and 2.4x at 256 KiB
# (bench/results/runtime-h200.txt, pattern pageable). The buffer is made pinned where its
# size is known to be at least the smallest size measured to pay.
MIN_PINNED_BYTES = 256 * 1024


def _size_refusal(values, count, element: str | None) -> tuple[bool, str | None]:
    """(False, None) when the buffer's size in bytes (`count` elements of `element`, bytes
    where None) is known and at least MIN_PINNED_BYTES; (True, why) when it is known and
    smaller; (False, why) when it is not known."""
    width = 1
    if element is not None:
        kind = " ".join(element.split())
        width = SIZES.get(kind)
        if width is None:
            return False, f"the size of '{kind}' is not known here"
    size = values.evaluate(count)
    if not size.known:
        return False, (f"its size is not known ({size.reason}): pinning was measured to pay for buffers of "
                       f"{MIN_PINNED_BYTES // 1024} KiB and more, and to cost more than it saves for small ones")
    smallest = min(size.values) * width
    if smallest < MIN_PINNED_BYTES:
        return True, f"it holds {smallest} bytes"
    return False, None


def _in_loop(node, block) -> bool:
    """A loop inside `block` (the buffer's) holds `node`: it is copied at every iteration."""
    n = node.parent
    while n is not None and n != block:
        if n.type in loops.LOOPS:
            return True
        if n.type == "lambda_expression":
            return False
        n = n.parent
    return False


def _uses(data: bytes, function, declaration, name: str, macros=None, root=None, skip=None) -> dict:
    """What the function does with `name`: its blocking copies, asynchronous copies and
    frees (the calls, or `delete[]` expressions), and the first use that may keep it
    (`skip`: the left side of the allocating assignment, which is no such use)."""
    if root is None:
        root = function
        while root.parent is not None:
            root = root.parent
    facts = {"copies": [], "async": [], "frees": [], "escape": None, "uses": [], "root": root, "stack": (),
             "macros": macros}
    body = function.child_by_field_name("body")
    for use in loops.walk(body):
        if use.type != "identifier" or text(data, use) != name:
            continue
        if declaration.start_byte <= use.start_byte < declaration.end_byte or use == skip:
            continue
        facts["uses"].append(use.start_byte)
        why = _use(data, use, name, facts)
        if why is not None and facts["escape"] is None:
            facts["escape"] = f"{why} (line {line_of(data, use)})"
    others = [n for n in loops.walk(body) if n.type == "declaration" and n != declaration
              and loops.declared_in(data, n, name) is not None]
    if others and facts["escape"] is None:
        facts["escape"] = f"the function declares another '{name}' (line {line_of(data, others[0])})"
    return facts


def _use(data: bytes, use, name: str, facts: dict) -> str | None:
    """None when the use keeps nothing (recording copies and frees), else why it may."""
    n = use.parent
    while n is not None and n.type != "function_definition":
        if n.type == "lambda_expression":
            return f"a lambda uses '{name}'"
        n = n.parent
    node, parent = use, use.parent
    while parent is not None:       # the value passed on: the pointer, `p + k`, a cast of it
        if parent.type in ("cast_expression", "parenthesized_expression"):
            node, parent = parent, parent.parent
        elif parent.type == "binary_expression" and text(data, parent.child_by_field_name("operator")) in ("+", "-") \
                and node == parent.child_by_field_name("left"):
            node, parent = parent, parent.parent
        else:
            break
    if parent is None:
        return f"'{name}' is used where its use is not seen"
    kind = parent.type
    if kind == "subscript_expression" and parent.child_by_field_name("argument") == node:
        holder = parent.parent
        if holder is not None and holder.type == "pointer_expression" and \
                text(data, holder.child_by_field_name("operator")) == "&":
            return _argument(data, holder, f"'&{text(data, parent)}' takes an address into it", facts, name)
        return None
    if kind == "pointer_expression":
        if text(data, parent.child_by_field_name("operator")) == "*":
            return None
        return f"'&{name}' takes its address"
    if kind == "sizeof_expression":
        return None
    if kind == "binary_expression" and text(data, parent.child_by_field_name("operator")) in _COMPARISONS:
        return None
    if kind == "unary_expression" and text(data, parent.child_by_field_name("operator")) == "!":
        return None
    if kind in ("condition_clause",) and node == use:
        return None
    if kind == "delete_expression":
        if how_deleted(data, parent) == "delete[]":
            facts["frees"].append(parent)
            return None
        return f"'{text(data, parent)}' is not the delete[] of an array"
    if kind == "argument_list":
        return _argument(data, node, None, facts, name)
    if kind == "return_statement":
        return f"'{name}' is returned"
    if kind == "init_declarator":
        shown = parent.parent if parent.parent is not None and parent.parent.type == "declaration" else parent
        return f"'{text(data, shown)}' aliases it"
    if kind in ("assignment_expression", "initializer_list", "initializer_pair"):
        return f"'{text(data, parent)}' stores or overwrites it"
    return f"'{text(data, parent)}' uses it in a way that may keep it"


def how_deleted(data: bytes, node) -> str:
    return "delete[]" if any(c.type == "[" for c in node.children) else "delete"


def _argument(data: bytes, node, why: str | None, facts: dict, name: str) -> str | None:
    parent = node.parent
    if parent is None or parent.type != "argument_list":
        return why or f"'{text(data, node)}' may be kept"
    call = parent.parent
    callee = text(data, call.child_by_field_name("function")) if call is not None else ""
    if call is not None and any(c.type == "kernel_call_syntax" for c in call.children):
        return f"'{name}' is passed to a kernel launch (a pageable pointer on the device: left as it is)"
    if callee in BLOCKING_COPIES:
        facts["copies"].append(call)
        return None
    if callee in ASYNC_COPIES:
        facts["async"].append(call)
        return None
    if callee in ("free", "std::free") and node.type == "identifier":
        facts["frees"].append(call)
        return None
    if callee in _KEEPS_NOTHING:
        return None
    if callee in ("realloc", "std::realloc"):
        return f"'{name}' is realloc'd"
    if why is None and call is not None and "root" in facts:
        why = _through_function(data, call, node, name, facts)
        return None if why == "" else why
    return why or f"'{name}' is passed to {callee or 'a call'}, which may keep or free it"


_DEFINITIONS: list = [None, None, {}]       # the last tree's root, its text, and its host functions by name


def _functions(data: bytes, root) -> dict[str, list]:
    """The file's function definitions and declarations by their last name: name ->
    [(the definition or declaration, its function_declarator)] (gathered once per tree)."""
    if _DEFINITIONS[1] is data and _DEFINITIONS[0] == root:      # (== : a root asked for twice is two objects)
        return _DEFINITIONS[2]
    found: dict[str, list] = {}
    for n in loops.walk(root):
        if n.type not in ("function_definition", "declaration", "field_declaration"):
            continue
        d = n.child_by_field_name("declarator")
        while d is not None and d.type not in ("function_declarator",):
            d = d.child_by_field_name("declarator")
        name = d.child_by_field_name("declarator") if d is not None else None
        if name is not None:
            found.setdefault(re.split(r"::|\.|->", re.sub(r"\s+", "", text(data, name)))[-1], []).append((n, d))
    _DEFINITIONS[:] = [root, data, found]
    return found


def _through_function(data: bytes, call, node, name: str, facts: dict) -> str:
    """"" when `node` (the buffer, as the argument of `call`) goes to a host function
    defined once in this file whose parameter there is a plain pointer that the body only
    reads or writes through (every use of it is one `_use` accepts, within _CALL_DEPTH
    calls of the program's functions, and none frees it or copies it asynchronously),
    else why it may keep or free the pointer."""
    function = call.child_by_field_name("function")
    callee = text(data, function)
    passed = f"'{name}' is passed to {callee or 'a call'}, which may keep or free it"
    if function is None or function.type != "identifier":
        return passed
    if facts.get("macros") is None or callee in facts["macros"]:
        return f"{passed}: {'it names a macro' if facts.get('macros') else 'the macros of the file are not known'}"
    entries = _functions(data, facts["root"]).get(callee, [])
    definitions = [(n, d) for n, d in entries if n.type == "function_definition"]
    if not definitions:
        return f"{passed}: it is not defined in this file"
    if len(definitions) > 1:
        return f"{passed}: the file defines it {len(definitions)} times (overloads are not told apart)"
    definition, declarator = definitions[0]
    params = [c for c in declarator.child_by_field_name("parameters").named_children if c.type != "comment"]
    args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
    if any(c.type == "variadic_parameter" or text(data, c) == "..." for c in params) or len(params) != len(args) or \
            any(len([c for c in d.child_by_field_name("parameters").named_children if c.type != "comment"]) != len(params)
                for n, d in entries if d.child_by_field_name("parameters") is not None):
        return f"{passed}: its parameters are not one per argument, or another declaration of it has other parameters"
    if loops.host_function(data, definition.child_by_field_name("body")) is None or \
            re.search(rb"\btemplate\b", data[definition.start_byte:declarator.start_byte]):
        return f"{passed}: it is not a plain host function"
    if callee in facts["stack"] or len(facts["stack"]) >= _CALL_DEPTH:
        return f"{passed}: the calls through which it goes are recursive or deeper than {_CALL_DEPTH}"
    position = args.index(node) if node in args else -1
    memo = _CALLEE_FACTS[2] if _CALLEE_FACTS[1] is data and _CALLEE_FACTS[0] == facts["root"] else None
    if memo is None:
        _CALLEE_FACTS[:] = [facts["root"], data, {}]
        memo = _CALLEE_FACTS[2]
    key = (definition.start_byte, position, facts["stack"])
    if key not in memo:
        memo[key] = _parameter_facts(data, definition, params, position, callee, facts)
    why, copies = memo[key]
    facts["copies"].extend(copies)
    return f"{passed}: {why}" if why else ""


_CALLEE_FACTS: list = [None, None, {}]      # the last tree's root, its text, and the answers of _parameter_facts


def _parameter_facts(data: bytes, definition, params, position: int, callee: str, facts: dict):
    """(why the parameter at `position` of `definition` may keep or free what it is given,
    or "", the blocking copies of it in the function's body; the why names no caller): asked once per function,
    position and call chain (a buffer passed to one function N times costs one walk of it)."""
    param = params[position] if position >= 0 else None
    pointer = param.child_by_field_name("declarator") if param is not None else None
    inner = pointer.child_by_field_name("declarator") if pointer is not None and pointer.type == "pointer_declarator" \
        else None
    if inner is None or inner.type != "identifier":
        return f"its parameter '{text(data, param)}' is not a plain pointer", []
    pname = text(data, inner)
    inner_facts = {"copies": [], "async": [], "frees": [], "escape": None, "uses": [], "root": facts["root"],
                   "stack": facts["stack"] + (callee,), "macros": facts["macros"]}
    line = line_of(data, definition)
    for use in loops.walk(definition.child_by_field_name("body")):
        if use.type != "identifier" or text(data, use) != pname:
            continue
        why = _use(data, use, pname, inner_facts)
        if why is not None:
            return f"in {callee} (line {line}), {why} (line {line_of(data, use)})", []
    body = definition.child_by_field_name("body")
    if loops.declared_in(data, body, pname) is not None:
        return f"{callee} (line {line}) declares another '{pname}'", []
    if inner_facts["frees"]:
        return f"{callee} (line {line}) frees '{pname}' (line {line_of(data, inner_facts['frees'][0])})", []
    if inner_facts["async"]:
        return (f"{callee} (line {line}) copies '{pname}' asynchronously (line "
                f"{line_of(data, inner_facts['async'][0])}): pinned, the copy would overlap host code"), []
    return "", inner_facts["copies"]


def _kind_refusal(data: bytes, declaration, value, how: str, name: str) -> str | None:
    if any(c.type in ("storage_class_specifier", "type_qualifier") for c in declaration.children):
        return f"its declaration '{text(data, declaration)}' is static, const or volatile"
    declarator = _declarator_of(data, declaration, name)
    declarator = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" else declarator
    if any(c.type == "type_qualifier" for c in declarator.children):
        return "the pointer is const: it cannot be given the pinned allocation"
    n = declaration.parent
    while n is not None and n.type != "function_definition":
        if n.type in loops.LOOPS:
            return ("it is allocated in a loop: a pinned allocation per iteration costs more than the copies "
                    "save (allocate it once before the loop)")
        n = n.parent
    if how == "calloc":
        return "calloc zero-fills it: pinned memory is not zeroed"
    if how == "new":
        kind = value.child_by_field_name("type")
        if kind is None or kind.type not in ("primitive_type", "sized_type_specifier"):
            return f"'{text(data, value)}' constructs objects of '{text(data, kind)}': pinned memory constructs none"
        if value.child_by_field_name("arguments") is not None or re.search(rb"\]\s*[({]", data[value.start_byte:value.end_byte]):
            return f"'{text(data, value)}' initialises its elements: pinned memory is not initialised"
    return None


def _free_refusal(data: bytes, declaration, name: str, how: str, facts: dict, values=None, origin=None) -> str | None:
    """Why the free is not the one release on every path from `origin` (the statement that
    allocates: the declaration, or the assignment after it), or None."""
    origin = declaration if origin is None else origin
    frees = facts["frees"]
    want = "free" if how in ("malloc", "calloc") else "delete[]"
    if not frees:
        return f"the function does not free '{name}': it may be freed elsewhere, where free() would meet pinned memory"
    if len(frees) > 1:
        return f"'{name}' is freed {len(frees)} times in the function (line {line_of(data, frees[1])}): on several paths"
    free = frees[0]
    got = "free" if free.type == "call_expression" else how_deleted(data, free)
    if got != want:
        return f"'{name}' is allocated with {how} and released with {got} (line {line_of(data, free)})"
    statement = free.parent
    if statement is None or statement.type != "expression_statement" or statement.parent != declaration.parent:
        return (f"the free of '{name}' (line {line_of(data, free)}) is not a statement of the block that allocates it: "
                "it is conditional or on a path this pass does not follow")
    if any(u > free.end_byte for u in facts["uses"]):
        return f"'{name}' is used after its free (line {line_of(data, free)})"
    why = _reset_between(data, origin, statement, values)
    if why is not None:
        return why
    for n in loops.walk(declaration.parent):
        if not (origin.end_byte <= n.start_byte < statement.start_byte):
            continue
        if n.type == "labeled_statement" and origin is not declaration:
            return (f"a label at line {line_of(data, n)} lies between the allocation and the free: a goto may enter "
                    "there without the allocation")
        if n.type not in _LEAVES:
            continue
        if _inside(n, ("lambda_expression",), declaration.parent) or _null_path(data, n, name, declaration.parent):
            continue
        if n.type in ("break_statement", "continue_statement") and \
                _inside(n, loops.LOOPS + (("switch_statement",) if n.type == "break_statement" else ()),
                        declaration.parent):
            continue
        return (f"a '{_LEAVES[n.type]}' at line {line_of(data, n)} leaves between the allocation and the free: on that "
                "path the buffer is freed elsewhere or not at all")
    return None


def _callee(data: bytes, call) -> str:
    """A call's function's last name (`f`, `ns::f`, `obj.f`, `p->f`: f)."""
    return re.split(r"::|\.|->", re.sub(r"\s+|<.*", "", text(data, call.child_by_field_name("function"))))[-1]


_RESETTERS: list = [None, None, {}]         # the last tree's root, its text, and its resetting functions


def resetters(data: bytes, root, table=None) -> dict[str, tuple[str, int]]:
    """The functions of the file that may reset the device: name -> (the call in them that
    does: cudaDeviceReset or a resetting function or macro, and its line), through the
    calls of the file's functions (overloads not told apart) and its macros' bodies."""
    if _RESETTERS[1] is data and _RESETTERS[0] == root:      # (== : a root asked for twice is two objects)
        return _RESETTERS[2]
    from translator.ir import macros
    bodies: dict[str, list] = {}
    for n in loops.walk(root):
        if n.type == "function_definition":
            d = n.child_by_field_name("declarator")
            while d is not None and d.type != "function_declarator":
                d = d.child_by_field_name("declarator")
            name = d.child_by_field_name("declarator") if d is not None else None
            if name is not None:
                bodies.setdefault(re.split(r"::", re.sub(r"\s+", "", text(data, name)))[-1], []).append(n)
    calls = {name: [(c, _callee(data, c)) for f in fs for c in loops.walk(f) if c.type == "call_expression"]
             for name, fs in bodies.items()}
    used = {name: [(m, node) for f in fs for m, node in (macros.uses(table, _Frag, data, f) if table else [])]
            for name, fs in bodies.items()}
    found: dict[str, tuple[str, int]] = {}
    changed = True
    while changed:
        changed = False
        for name in bodies:
            if name in found:
                continue
            hit = next(((callee, line_of(data, c)) for c, callee in calls[name]
                        if callee == "cudaDeviceReset" or callee in found), None)
            if hit is None:
                hit = next(((m, line_of(data, node)) for m, node in used[name]
                            if macro_resets(table, m, found)), None)
            if hit is not None:
                found[name] = hit
                changed = True
    _RESETTERS[:] = [root, data, found]
    return found


class _Frag:
    @staticmethod
    def text(data: bytes, node) -> str:
        return text(data, node)


def macro_resets(table, name: str, functions, seen: frozenset[str] = frozenset()) -> bool:
    """Some definition of the macro (its macros read through) calls cudaDeviceReset or a
    function of `functions`."""
    from translator.ir import macros
    if table is None or name in seen or len(seen) > 16:
        return False
    for definition in table.every.get(name, []):
        found = macros.tokens(definition.body)
        for token, after in zip(found, found[1:] + [""]):
            if token in table.names and token != name and macro_resets(table, token, functions, seen | {name}):
                return True
            if after == "(" and (token == "cudaDeviceReset" or token in functions):
                return True
    return False


def _reset_between(data: bytes, declaration, free_statement, values) -> str | None:
    """Why the device may be reset between the allocation and the free (a reset releases
    pinned memory): a cudaDeviceReset() call, a call of a function of the file that may
    reset it, a macro whose body does; or None."""
    root = values.parsed.main.root if values is not None else declaration
    while values is None and root.parent is not None:
        root = root.parent
    table = values.table if values is not None else None
    found = resetters(data, root, table)
    lo, hi = declaration.end_byte, free_statement.start_byte
    for n in loops.walk(declaration.parent):
        if not lo <= n.start_byte < hi:
            continue
        if n.type == "call_expression":
            callee = _callee(data, n)
            if callee == "cudaDeviceReset":
                return (f"cudaDeviceReset() at line {line_of(data, n)} comes before the free: it would release "
                        "pinned memory the host still holds")
            if callee in found:
                chain, name = [], callee
                while name in found and len(chain) < 8:
                    how, line = found[name]
                    chain.append(f"{how}{'()' if how == 'cudaDeviceReset' or how in found else ' (a macro)'} "
                                 f"(line {line})")
                    name = how if how != name else ""
                return (f"{callee}() at line {line_of(data, n)} calls {', which calls '.join(chain)}, which may "
                        "reset the device, and comes before the free: a reset would release pinned memory the host "
                        "still holds")
        elif table is not None and n.type in ("identifier", "type_identifier") and text(data, n) in table.names \
                and macro_resets(table, text(data, n), found):
            return (f"the macro {text(data, n)} at line {line_of(data, n)} may reset the device (its body calls "
                    "cudaDeviceReset or a function that does), and comes before the free: a reset would release "
                    "pinned memory the host still holds")
    return None


def _null_path(data: bytes, node, name: str, stop) -> bool:
    """The jump is taken only where the allocation failed: in the branch of an
    `if (!p)` or `if (p == NULL)` (nullptr, 0), where there is nothing to free."""
    n = node
    while n.parent is not None and n.parent != stop:
        parent = n.parent
        if parent.type == "if_statement" and parent.child_by_field_name("consequence") == n:
            condition = re.sub(r"\s+", "", text(data, parent.child_by_field_name("condition")))
            nulls = [f"(!{name})"] + [f"({name}=={z})" for z in ("NULL", "nullptr", "0")] + \
                    [f"({z}=={name})" for z in ("NULL", "nullptr", "0")]
            if condition in nulls:
                return True
        n = parent
    return False


def _inside(node, kinds, stop) -> bool:
    n = node.parent
    while n is not None and n != stop:
        if n.type in kinds:
            return True
        n = n.parent
    return False
