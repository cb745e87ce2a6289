"""H029-H033: code nvcc accepts that hipcc's C++17 or HIP's overloads reject.

What it does:
    - `register` as a storage class (H029): C++17 removed it and hipcc compiles C++17,
      where nvcc accepts it. The keyword is dropped in C++ sources and in headers (an
      object-like macro defined as `register` is defined as nothing); it has meant
      nothing to a C++ compiler since C++11.
    - `__ffsll(x)` where `x` is an integer type other than `long long` and
      `unsigned long long` (H030): HIP declares `__ffsll(long long)` and
      `__ffsll(unsigned long long)` (amd_device_functions.h, ROCm 5.2 to 7), so a `long`,
      `unsigned long`, `int64_t`, `uint64_t`, `size_t` or `int` argument is ambiguous. The
      argument is cast to the overload of its own signedness (`long long` or
      `unsigned long long`): the same value, the same bits. `__popcll`, `__clzll` and
      `__brevll` have one declaration each in HIP (`unsigned long long`, `long long`,
      `unsigned long long`), so any integer converts to it as in CUDA: nothing to do.
      Where the argument's type is unknown, H031 says what to write.
    - `x = {}` and `x = {0}` where `x` is a `half2`, `__half2` or bfloat16 pair (H032):
      HIP's `__half2` has three assignment operators a braced list can reach (its own,
      a move, `__half2_raw`), so the assignment is ambiguous. It becomes `x = T{}` (or
      `T{0}`, or `T{a, b}` for two `__half` values) with T the variable's type as HIP
      names it (the mapping tables' counterpart at the target, else as written). H033
      where the type is unknown in a file that uses these types, or where the list holds
      other values.
Legal when:
    - H029: the file is C++ (not a `.c` file) and the declaration is not a GNU explicit
      register variable (`register int v asm("v1")`, where the keyword is required and
      hipcc accepts it). In a header, dropping it is also right for C (the keyword only
      forbids taking the address), and a header cu2hip translates is one C++ may include.
    - H030: the argument's type is known from the file's declarations
      (translator.ir.types): the cast changes no value, it only picks the overload.
    - H032: the assigned expression's type is known and is one of the pair types, and
      the list is `{}` or `{0}`: each is zero in both halves under CUDA's choice
      (`__half2_raw{}`/`{0}`) and HIP's `__half2{}`/`__half2{0}` (the vector
      constructor splats 0); or two expressions of type `__half`, which nvcc's device
      compilation takes as the pair of the two (its PTX stores both unchanged; the host
      compiler calls it ambiguous) and HIP's `__half2{a, b}` constructs from the two. For
      a bfloat16 pair only `{}` (value initialisation: zero). Measured with nvcc 13
      (PTX of `h = {}`, `{0}`, `{lo, hi}` in a kernel) and hipcc 5.2 (`__half2{}`,
      `__half2{0}` run on the host: zero bits).
Not handled:
    `register` in a `.c` file (C keeps it); a GNU explicit register variable, which
    tree-sitter does not parse (no edit near a parse error). `__ffs` on a 64-bit
    argument, ambiguous too (HIP has `__ffs(int)` and `__ffs(unsigned int)`): a cast to
    32 bits would truncate a mask the warp-size pass widens to 64 bits and counts with
    `__ffsll`. A braced list of other values (`h = {1, 2}`: which operator CUDA picked
    depends on the values' types): H033 with the fix to write.
Example:
    register float s = a[i];   ->  float s = a[i];
    __ffsll(bits[d])           ->  __ffsll((unsigned long long)bits[d])     (uint64_t* bits)
    half2 acc; acc = {};       ->  half2 acc; acc = half2{};
Safety:
    safe: no value changes; each edit only removes a keyword C++17 forbids or names the
    overload or type the CUDA code meant.
"""

from __future__ import annotations

import re
from pathlib import Path

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.frontend import node_at
from translator.ir.types import Types
from translator.mapping import version_at_least
from translator.passes import Context

DROP_REGISTER = rule(
    "H029", "drop-register", NOTE, "`register` is dropped: C++17 has no such storage class", """
C++17 removed the `register` storage class; hipcc compiles C++17 and rejects it ("ISO
C++17 does not allow 'register' storage class specifier"), where nvcc accepts it. It has
meant nothing since C++11, so dropping it changes nothing. A `.c` file keeps it (C has
it); a header drops it (valid C as well: the keyword only forbids taking the address).
A GNU explicit register variable (`register int v asm("v1")`) keeps it: the keyword is
required there, and hipcc accepts it.""",
    edits=True, safe=True,
    example="__global__ void k(const float* a, float* o) { register float s = a[threadIdx.x]; o[0] = s; }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__global__ void k(const float* a, float* o) { float s = a[threadIdx.x]; o[0] = s; }\n",
    options=("--ignore", "L"))
FFSLL_CAST = rule(
    "H030", "ffsll-argument-cast", NOTE, "an `__ffsll` argument is cast to the overload of its signedness", """
HIP declares `__ffsll(long long)` and `__ffsll(unsigned long long)`, so an argument of any
other integer type (`long`, `unsigned long`, `int64_t`, `uint64_t`, `size_t`, `int`) is
ambiguous, where CUDA's single `__ffsll(long long)` converts it. The argument is cast to
`long long` when its type is signed and to `unsigned long long` when it is unsigned: the
same value and bits, so the same result. `__popcll`, `__clzll` and `__brevll` have one
declaration each in HIP: nothing to do for them.""",
    edits=True, safe=True,
    example="__device__ int first(const unsigned long* bits, int d) { return __ffsll(bits[d]); }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__device__ int first(const unsigned long* bits, int d) { return __ffsll((unsigned long long)bits[d]); }\n")
FFSLL_UNKNOWN = rule(
    "H031", "ffsll-argument-unknown", WARNING, "an `__ffsll` argument of unknown type may be ambiguous in HIP", """
HIP declares `__ffsll(long long)` and `__ffsll(unsigned long long)`; an argument of another
integer type is ambiguous and does not compile. The file does not say the argument's type
(a template parameter, `auto`, a call, a macro), so the call is left as it is: cast the
argument to `long long` (or `unsigned long long`) if it is neither.""",
    example="template <typename T> __device__ int first(T v) { return __ffsll(v); }\n",
    translation="#include <hip/hip_runtime.h>\ntemplate <typename T> __device__ int first(T v) { return __ffsll(v); }\n")
HALF2_BRACES = rule(
    "H032", "half2-brace-assignment", NOTE, "a braced list assigned to a half2 names its type", """
HIP's `__half2` has three assignment operators a braced list can reach (copy, move and
`__half2_raw`), so `h = {}` and `h = {0}` are ambiguous under hipcc, where nvcc picks
one. Both mean zero in both halves; `h = __half2{}` (the variable's type as HIP names
it) says the same and compiles. For a bfloat16 pair, `{}` only.""",
    edits=True, safe=True,
    example="#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n__global__ void k(half2* o) { half2 acc; acc = {}; o[threadIdx.x] = acc; }\n",
    translation="#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n"
                "__global__ void k(half2* o) { half2 acc; acc = half2{}; o[threadIdx.x] = acc; }\n",
    options=("--ignore", "L"))
HALF2_BRACES_UNKNOWN = rule(
    "H033", "half2-brace-assignment-unknown", WARNING, "a braced list assigned to what may be a half2", """
A braced list assigned to a `__half2` is ambiguous under hipcc. Either the assigned
variable's type is unknown (a template parameter, `auto`, a name the file does not
declare) in a file that uses half2 or bfloat16 pairs, or the list holds values other than
`{}`/`{0}`, for which CUDA's choice of operator depends on the values' types. Nothing is
changed: write `h = __half2{...}` with the constructor meant (`__half2(a, b)` from two
`__half`s) if it is one.""",
    example="#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
            "template <typename V> __device__ void clear(V& v) { v = {}; }\n"
            "__device__ void clear2(half2& h) { clear(h); }\n",
    translation="#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n"
                "template <typename V> __device__ void clear(V& v) { v = {}; }\n"
                "__device__ void clear2(half2& h) { clear(h); }\n")

RULES = (DROP_REGISTER, FFSLL_CAST, FFSLL_UNKNOWN, HALF2_BRACES, HALF2_BRACES_UNKNOWN)

_REGISTER = re.compile(rb"(?<![\w$])register(?![\w$])")
_FFSLL = re.compile(rb"(?<![\w$])__ffsll\s*\(")
_BRACES = re.compile(rb"(?<![=!<>])=\s*\{")
_DECLARATIONS = frozenset({"declaration", "parameter_declaration", "optional_parameter_declaration",
                           "field_declaration"})
# The pair types: CUDA's spellings and HIP's; a bfloat16 pair takes `{}` only.
_BF16_PAIRS = frozenset({"nv_bfloat162", "__nv_bfloat162", "__hip_bfloat162"})
_PAIRS = frozenset({"half2", "__half2"}) | _BF16_PAIRS
_TYPEDEFS = {"nv_bfloat162": "__nv_bfloat162"}      # cuda_bf16.h's typedef, which HIP has not
_PAIR_WORDS = frozenset(name.encode() for name in _PAIRS)


def _candidates(ctx: Context, pattern: re.Pattern):
    """(fragment, node) for each match of `pattern` that a parse of the file owns, the node
    the smallest one spanning the match's first word."""
    text = ctx.parsed.cleaned
    seen: set[int] = set()
    for frag in ctx.parsed.fragments:
        for lo, hi in frag.ranges(len(text)):
            for match in pattern.finditer(text, lo, hi):
                if match.start() in seen:
                    continue
                word = re.match(rb"[\w$]+|=", match.group()).group()
                node = node_at(frag.root, match.start() - frag.delta, match.start() + len(word) - frag.delta)
                if node is not None:
                    seen.add(match.start())
                    yield frag, node


def drop_register(ctx: Context) -> None:
    if b"register" not in ctx.parsed.words or Path(ctx.source.path).suffix.lower() == ".c":
        return
    data = ctx.source.data
    for frag, node in _candidates(ctx, _REGISTER):
        if node.type == "preproc_arg" and node.parent is not None and node.parent.type == "preproc_def" \
                and frag.text(data, node).strip() == "register":
            start, end = frag.span(node)        # `#define REG register`: REG stands for nothing
            while start > 0 and data[start - 1:start] in (b" ", b"\t"):
                start -= 1
            ctx.fix(DROP_REGISTER, Edit(start, end, b""), "a macro for 'register', which C++17 has not (hipcc "
                    "rejects it): defined as nothing, what 'register' has meant since C++11")
            continue
        spec = node.parent if node.type == "register" else node
        if spec is None or spec.type != "storage_class_specifier" or frag.text(data, spec) != "register":
            continue
        declaration = spec.parent
        if declaration is None or declaration.type not in _DECLARATIONS or not frag.clean(declaration):
            continue
        if any(d.type == "gnu_asm_expression" or any(c.type == "gnu_asm_expression" for c in d.children)
               for d in declaration.children_by_field_name("declarator")):
            continue        # an explicit register variable: the keyword is required, and hipcc accepts it
        start, end = frag.span(spec)
        while end < len(data) and data[end:end + 1] in (b" ", b"\t"):
            end += 1
        ctx.fix(DROP_REGISTER, Edit(start, end, b""),
                "C++17 has no 'register' storage class (hipcc rejects it); it has meant nothing since C++11")


def cast_ffsll_arguments(ctx: Context) -> None:
    if b"__ffsll" not in ctx.parsed.words:
        return
    data = ctx.source.data
    types: dict[int, Types] = {}
    for frag, node in _candidates(ctx, _FFSLL):
        call = node.parent
        if node.type != "identifier" or call is None or call.type != "call_expression" \
                or call.child_by_field_name("function") != node:
            continue
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        if len(args) != 1 or not frag.clean(call):
            continue
        arg = args[0]
        known = types.setdefault(id(frag), Types(frag, data)).expression_type(arg)
        integer = known.integer if known is not None else None
        written = frag.text(data, arg)
        if integer is not None and integer.rank == 5:
            continue        # long long or unsigned long long: an exact match
        if integer is None:
            if ctx.round == 0 and not (known is not None and known.levels == 0 and known.base in ("float", "double")):
                start, end = frag.span(call)
                what = f"of type '{known.base}{'*' * known.levels}'" if known is not None else "of a type the file " \
                    "does not say"
                ctx.report(FFSLL_UNKNOWN, start, f"'__ffsll({written})': the argument is {what}; HIP has "
                           "__ffsll(long long) and __ffsll(unsigned long long) only, so another integer type is "
                           f"ambiguous: write '__ffsll((long long)({written}))' if it is neither", end=end,
                           subject="__ffsll")
            continue
        target = "long long" if integer.signed else "unsigned long long"
        start, end = frag.span(arg)
        simple = arg.type in ("identifier", "subscript_expression", "field_expression", "call_expression",
                              "parenthesized_expression", "number_literal")
        edits = (Edit(start, start, f"({target})".encode()),) if simple else \
            (Edit(start, start, f"({target})(".encode()), Edit(end, end, b")"))
        ctx.fix(FFSLL_CAST, edits, f"'{written}' is {integer.spelling}: HIP's __ffsll overloads "
                f"long long and unsigned long long, so it is ambiguous; cast to {target} (the same value)")


def name_half2_braces(ctx: Context) -> None:
    if _PAIR_WORDS.isdisjoint(ctx.parsed.words):
        return
    data = ctx.source.data
    types: dict[int, Types] = {}
    for frag, node in _candidates(ctx, _BRACES):
        assignment = node.parent
        if assignment is None or assignment.type != "assignment_expression":
            continue
        operator = assignment.child_by_field_name("operator")
        right = assignment.child_by_field_name("right")
        left = assignment.child_by_field_name("left")
        if operator is None or frag.text(data, operator) != "=" or right is None or \
                right.type != "initializer_list" or left is None or not frag.clean(assignment):
            continue
        typing = types.setdefault(id(frag), Types(frag, data))
        known = typing.expression_type(left)
        if known is not None and known.levels == 0 and not typing.named(known):
            known = None    # a template parameter, a type of another file: it may be a pair
        if known is not None and (known.levels or known.base not in _PAIRS):
            continue        # not a pair: nothing ambiguous here
        items = [frag.text(data, c).replace(" ", "") for c in right.named_children if c.type != "comment"]
        bf16 = known is not None and known.base in _BF16_PAIRS
        halves = known is not None and not bf16 and len(items) == 2 and all(
            _is_half(typing.expression_type(c)) for c in right.named_children if c.type != "comment")
        start, end = frag.span(assignment)
        if known is None or not (halves or items == [] or (items == ["0"] and not bf16)):
            if ctx.round == 0:
                allowed = "{}" if bf16 else "{} or {0}"
                reason = f"'{frag.text(data, left)}' is of a type the file does not say" if known is None else \
                    f"'{frag.text(data, left)}' is a {known.base} and the list is not {allowed}"
                ctx.report(HALF2_BRACES_UNKNOWN, start, f"'{frag.text(data, assignment)}': {reason}; a braced list "
                           "assigned to a half2 or bfloat16 pair is ambiguous in HIP: write the type before the "
                           "braces (__half2{...}) if it is one", end=end, subject=frag.text(data, left))
            continue
        hip = _hip_name(ctx, known.base)
        brace = frag.span(right)[0]
        ctx.fix(HALF2_BRACES, Edit(brace, brace, hip.encode()),
                f"'{frag.text(data, left)}' is a {known.base}: HIP's assignment operators make "
                f"'= {frag.text(data, right)}' ambiguous; {hip}{frag.text(data, right)} is the same " +
                ("pair (the two __half, as nvcc's device code takes them)" if halves else "zero"))


def _hip_name(ctx: Context, cuda: str) -> str:
    """The type's name in the output: its HIP counterpart where the tables give one the
    target has (what the rename makes of the variable's type), else as written."""
    cuda = _TYPEDEFS.get(cuda, cuda)
    entry = ctx.tables.lookup(cuda)
    if entry is None or not entry.hip or (entry.hip_added is not None and
                                          not version_at_least(ctx.options.rocm_version, entry.hip_added)):
        return cuda
    return entry.hip


def _is_half(t) -> bool:
    return t is not None and t.levels == 0 and t.base in ("__half", "half")


def run(ctx: Context) -> None:
    drop_register(ctx)
    cast_ffsll_arguments(ctx)
    name_half2_braces(ctx)

