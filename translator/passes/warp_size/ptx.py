"""W240-W246: inline PTX in device code, rewritten as the HIP builtin that computes it, else reported.

What it does:
    Finds every GNU `asm` statement (`asm`, `__asm__`, `volatile`, a template split over
    several string literals) in device code: a `__global__` or `__device__` function
    (spelled out, or through a macro of the file), or a `__device__` lambda; and, where
    the asm is recognisably PTX, in a function whose specifiers hold a macro defined
    elsewhere (`CUTE_HOST_DEVICE`) and in `#define` bodies. HIP-Clang accepts inline
    GCN/CDNA assembly only, so PTX there does not compile for AMD. A statement `asm(...)`
    of one PTX instruction whose HIP builtin computes the same value becomes an
    assignment of its output (W241):
        mov.{u32,s32,b32} %laneid           out = __lane_id()
        mov.{u32,s32,b32} %clock            out = clock()
        mov.{u64,s64,b64} %clock64          out = clock64()
        ld.global.nc[.hint].T d, [a]        out = __ldg(a), or __ldg(reinterpret_cast<const T *>(a))
                                            where a's pointee type is not T or is not known
        bfe.u32 d, a, b, c                  out = __bitextract_u32(a, b, c)   b, c literals: c <= 31, b + c <= 32
        bfi.b32 f, a, b, c, d               out = __bitinsert_u32(b, a, c, d)  c, d literals: c <= 31, d <= 30
        prmt.b32 d, a, b, c                 out = __byte_perm(a, b, c)   c a literal, no sign-replicate bit
        shf.{l,r}.{wrap,clamp}.b32 d, a, b, c   out = __funnelshift_{l,r}[c](a, b, c)
        shfl[.sync].{up,down,bfly,idx}.b32 d, a, b, c[, m]
                                            out = __shfl_{up,down,xor,}[_sync]([m, ]a, b, width), c a
                                            literal in the encoding CUDA's __shfl*_sync use; the width
                                            (32 lanes, as in the PTX, or fewer) is written out
    Every other PTX site gets one warning naming the instruction(s) and the HIP
    equivalent where one exists: W242 (bfe/bfi whose offset or width is not provably in
    the range where HIP's builtin agrees with PTX), W243 (prmt with a mode or a selector
    `__byte_perm` does not honour), W244 (`%smid`: `__smid()` packs CU and SE ids), W245
    (`%globaltimer`: `wall_clock64()` counts at another rate), W246 (ballot, activemask,
    lane masks: 64-bit in HIP), W240 (the rest: several instructions, predicates,
    clobbers, unknown instructions, `mma`/`wmma`).
Legal when:
    The target is HIP (`--target cuda` keeps PTX: no edit, no diagnostic); the `asm` is a
    whole expression statement in a parsed, error-free function; its template is plain
    string literals holding one instruction with no predicate guard; it has one output
    (`=` constraint of the instruction's register class) and no clobber but "cc"; each
    operand is `%N` or an integer literal; and the operands whose range the HIP builtin
    treats differently are literals inside the range where both agree.
Not handled:
    `asm` in `#define` bodies (reported, never rewritten); host code (left alone, x86
    assembly and all: a plain host function is never compiled for the device); GCN
    assembly (`s_`, `v_`, `ds_` ... opcodes); an empty template (a compiler barrier,
    valid for AMD); any `asm` under an `#if` that tests a HIP macro
    (`__HIP_PLATFORM_AMD__`, `__HIPCC__` ...): the code chooses per platform already.
    Named operands (`%[x]`), vector loads, 64-bit bit fields: reported.
Example:
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));   ->  lane = __lane_id();
    asm("bfe.u32 %0, %1, 8, 4;" : "=r"(f) : "r"(w));       ->  f = __bitextract_u32(w, 8, 4);
Safety:
    semantic: each builtin computes the instruction's value for every input the
    conditions above admit (the builtins' definitions in the HIP headers against the PTX
    ISA's: tests/test_warp_size_ptx.py), but the compiler may now move or merge what an
    `asm volatile` pinned in place.
"""

from __future__ import annotations

import tree_sitter as ts

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.frontend import Fragment
from translator.ir.ancestry import ancestry
from translator.ir.inline_asm import (asm_nodes, device_macros, device_state, instructions, is_gcn, looks_ptx,
                                      operands, pointee_of, template_text, under_hip_guard)
from translator.ir.nodes import parent_of
from translator.passes import Context
from translator.passes.warp_size import ptx_rewrites as rw

_HEADER = "hip/hip_runtime.h"

INLINE_PTX = rule(
    "W240", "inline-ptx", WARNING, "inline PTX cannot compile for AMD", """
HIP-Clang accepts inline GCN/CDNA assembly only: PTX in an `asm` statement of device code
fails for every AMD target (`asm("mov.u32 %0, %%laneid;" : "=r"(l))` gives "invalid
instruction" for gfx90a), and HIPIFY leaves asm as it is. cu2hip rewrites the common
one-instruction idioms (W241); this site is not one of them: several instructions,
a predicate, a clobber, named operands, an instruction with no HIP builtin, or `mma`/`wmma`
(HIP has none: rocWMMA or `__builtin_amdgcn_mfma_*`). The message names each instruction
and its HIP equivalent where one exists: write the statement in HIP C++ with it, or
keep the PTX for NVIDIA under `#if !defined(__HIP_PLATFORM_AMD__)` with a HIP branch.""",
    topic="warp-size",
    example="__device__ void f() { asm volatile(\"bar.sync 0;\"); }\n",
    translation="#include <hip/hip_runtime.h>\n__device__ void f() { asm volatile(\"bar.sync 0;\"); }\n")
REWRITTEN = rule(
    "W241", "inline-ptx-rewritten", NOTE, "an inline-PTX idiom is rewritten as the HIP builtin that computes it", """
A statement `asm(...)` of one PTX instruction whose value a HIP builtin computes for
every input the operands can have becomes an assignment of the output: `%laneid` is
`__lane_id()` (0..63 on a 64-lane wavefront), `%clock`/`%clock64` are `clock()`/`clock64()`,
`ld.global.nc` is `__ldg()`, `bfe.u32`/`bfi.b32` are `__bitextract_u32`/`__bitinsert_u32`
(operands in HIP's order: bfi's base word comes first), `prmt` is `__byte_perm`, `shf`
is `__funnelshift_l/r` (`_lc`/`_rc` for `.clamp`), and `shfl` is `__shfl*`
with the PTX's width written out. The pass checks the ranges where the builtins differ
from PTX (W242, W243) and rewrites only where both agree.""",
    edits=True, safe=False, topic="warp-size",
    example="__device__ unsigned lane() {\n  unsigned l;\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));\n"
            "  return l;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__device__ unsigned lane() {\n  unsigned l;\n  l = __lane_id();\n"
                "  return l;\n}\n")
BIT_FIELD = rule(
    "W242", "ptx-bit-field-range", WARNING,
    "a PTX bit-field instruction is outside the range where HIP's builtin agrees", """
PTX `bfe.u32 d, a, b, c` takes the position and length modulo 256: a length of 32 gives
the whole word, and bits past bit 31 read as zero. HIP's `__bitextract_u32(src, offset,
width)` masks both with 31, so a width of 32 gives 0, and `offset + width > 32` shifts
by a negative amount. Likewise `bfi.b32 f, a, b, c, d` inserts nothing when the position
is 32 or more, and the whole of `a` for a length of 32, while `__bitinsert_u32(b, a, c,
d)` masks both with 31 and computes its mask as `(1 << width) - 1` in int, which
overflows for a width of 31. The rewrite is made only where the offset and width are
literals inside the common range; here one is not: write the builtin where you know the
range, or the shifts and masks yourself.""",
    topic="warp-size",
    example="__device__ unsigned f(unsigned w, unsigned n) {\n  unsigned r;\n"
            "  asm(\"bfe.u32 %0, %1, 0, %2;\" : \"=r\"(r) : \"r\"(w), \"r\"(n));\n  return r;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__device__ unsigned f(unsigned w, unsigned n) {\n  unsigned r;\n"
                "  asm(\"bfe.u32 %0, %1, 0, %2;\" : \"=r\"(r) : \"r\"(w), \"r\"(n));\n  return r;\n}\n")
BYTE_PERM = rule(
    "W243", "ptx-prmt-mode", WARNING, "a PTX `prmt` uses a mode or selector bit HIP's `__byte_perm` lacks", """
HIP's `__byte_perm(x, y, s)` reads each selector nibble's low three bits: it has no
sign-replicate bit (bit 3 of a nibble, which PTX's default mode honours) and none of the
`.f4e`, `.b4e`, `.rc8`, `.ecl`, `.ecr`, `.rc16` modes. `prmt` is rewritten only in the
default mode with a literal selector whose sign bits are clear; write the byte moves
yourself for the others.""",
    topic="warp-size",
    example="__device__ unsigned f(unsigned a, unsigned b) {\n  unsigned r;\n"
            "  asm(\"prmt.b32.f4e %0, %1, %2, 1;\" : \"=r\"(r) : \"r\"(a), \"r\"(b));\n  return r;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__device__ unsigned f(unsigned a, unsigned b) {\n  unsigned r;\n"
                "  asm(\"prmt.b32.f4e %0, %1, %2, 1;\" : \"=r\"(r) : \"r\"(a), \"r\"(b));\n  return r;\n}\n")
SM_ID = rule(
    "W244", "ptx-smid", WARNING, "PTX `%smid` has no exact HIP equivalent", """
HIP's `__smid()` reads the hardware id register: the compute unit in bits 3:0 and the
shader engine in bits 5:4, so its values are not a dense 0..CUs-1 range, and the HIP
headers warn that the results vary over time (a wave may move). Code that indexes a
per-SM array with `%smid`, or sizes one by the SM count, needs rethinking; where an id
only spreads work, `__smid()` does.""",
    topic="warp-size",
    example="__device__ unsigned f() {\n  unsigned s;\n  asm(\"mov.u32 %0, %%smid;\" : \"=r\"(s));\n  return s;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__device__ unsigned f() {\n  unsigned s;\n"
                "  asm(\"mov.u32 %0, %%smid;\" : \"=r\"(s));\n  return s;\n}\n")
TIMER = rule(
    "W245", "ptx-globaltimer", WARNING, "PTX `%globaltimer` counts nanoseconds; HIP's `wall_clock64()` does not", """
`%globaltimer` is a 64-bit nanosecond timer. HIP's `wall_clock64()` (`s_memrealtime`)
counts at a constant rate that the device reports in kHz as
`hipDeviceAttributeWallClockRate`: nanoseconds are `wall_clock64() * 1000000 / rate`.
Not rewritten, since the units differ.""",
    topic="warp-size",
    example="__device__ unsigned long long f() {\n  unsigned long long t;\n"
            "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n  return t;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__device__ unsigned long long f() {\n  unsigned long long t;\n"
                "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n  return t;\n}\n")
LANE_MASK = rule(
    "W246", "ptx-lane-mask-64", WARNING, "a PTX lane mask is 32 bits; HIP's is 64", """
`vote.ballot`, `activemask` and the `%lanemask_*` registers give 32-bit masks; HIP's
`__ballot`, `__activemask()` and `__lanemask_*()` return 64 bits (one per lane of a
64-lane wavefront). Stored into the 32-bit output of the PTX, lanes 32-63 are lost: write
the builtin with a 64-bit variable (`unsigned long long`), and check the code that
counts or scans the mask (`__popc` becomes `__popcll`).""",
    topic="warp-size",
    example="__device__ unsigned f() {\n  unsigned m;\n"
            "  asm volatile(\"activemask.b32 %0;\" : \"=r\"(m));\n  return m;\n}\n",
    translation="#include <hip/hip_runtime.h>\n__device__ unsigned f() {\n  unsigned m;\n"
                "  asm volatile(\"activemask.b32 %0;\" : \"=r\"(m));\n  return m;\n}\n")

RULES = (INLINE_PTX, REWRITTEN, BIT_FIELD, BYTE_PERM, SM_ID, TIMER, LANE_MASK)

# The rule that reports each kind of reason of the rewrite table.
_RULE_OF = {rw.INLINE_PTX: INLINE_PTX, rw.BIT_FIELD: BIT_FIELD, rw.BYTE_PERM: BYTE_PERM, rw.SM_ID: SM_ID,
            rw.TIMER: TIMER, rw.LANE_MASK: LANE_MASK}


# --------------------------------------------------------------------------- the pass

def run(ctx: Context) -> None:
    """Each `asm` of the file's device code that is PTX: rewritten (W241) or reported."""
    if ctx.options.target != "hip":
        return                  # PTX is native on NVIDIA
    macros = None
    declared: dict = {}         # per function, for pointee_of
    for frag, asm in asm_nodes(ctx.parsed):
        if macros is None:
            macros = device_macros(ctx.parsed.data)
        _site(ctx, frag, asm, macros, declared)


def _site(ctx: Context, frag: Fragment, asm: ts.Node, macros: set[bytes], declared: dict) -> None:
    """One `asm` statement: nothing where it is not PTX in device code (or is under a HIP
    guard), else its rewrite (W241) or the report of why there is none. `macros` are the
    file's device macros; `declared` caches each function's declarations."""
    data = ctx.parsed.data
    start, end = frag.span(asm)
    code = asm.child_by_field_name("assembly_code")
    has_operands = any(asm.child_by_field_name(f) is not None
                       for f in ("output_operands", "input_operands", "clobbers"))
    template = template_text(data, code, frag) if code is not None else None
    insts = instructions(template, has_operands) if template is not None else None
    if insts is not None and (not insts or is_gcn(insts)):
        return                  # an empty template (a compiler barrier) or GCN already
    # Inline assembly of a macro, or of a function not known to be device or host code,
    # is reported when it is recognisably PTX (a host function may hold x86 assembly).
    device = None if frag.in_macro else device_state(ctx.parsed, frag, asm, macros)
    if device is False or (device is None and (insts is None or not looks_ptx(insts))):
        return
    if not frag.in_macro and under_hip_guard(ctx.parsed, frag, asm):
        return
    if insts is None:
        what = "is not plain string literals" if template is None else "is not a list of instructions"
        ctx.report(INLINE_PTX, start, f"inline assembly whose text {what} cannot be checked; PTX cannot compile for "
                   "AMD (HIP-Clang takes GCN/CDNA assembly only): write it in HIP C++", end=end)
        return
    described = rw.describe(insts)
    real = [i for i in insts if i.opcode not in ("{", "}") and not i.opcode.startswith(".")]
    kind = next((k for k in (rw.suggestion(i)[0] for i in real) if k != rw.INLINE_PTX), rw.INLINE_PTX)
    rule_ = _RULE_OF[kind]
    why = ""
    if frag.in_macro:
        why = "it is in a macro"
    elif len(real) != 1 or len(insts) != 1:
        why = "it holds several instructions" if len(real) > 1 else "it holds declarations or braces"
    elif real[0].guard is not None:
        why = f"its instruction is predicated (`@{real[0].guard}`)"
    elif real[0].opcode.split(".")[0] not in rw.REWRITABLE:
        why = ""
    elif not frag.clean(asm):
        why = "the parser cannot read the code around it"
    else:
        parent = parent_of(frag, asm)
        clobbers = asm.child_by_field_name("clobbers")
        clobbered = [frag.text(data, c)[1:-1] for c in clobbers.named_children if c.type == "string_literal"] \
            if clobbers is not None else []
        outs = operands(data, frag, asm, "output_operands")
        ins = operands(data, frag, asm, "input_operands")
        if parent is None or parent.type != "expression_statement":
            why = "it is not a statement of its own"
        elif asm.child_by_field_name("goto_labels") is not None or b"goto" in data[start:frag.span(code)[0]]:
            why = "it is an `asm goto`"
        elif [c for c in clobbered if c != "cc"]:
            why = f"its clobber \"{[c for c in clobbered if c != 'cc'][0]}\" would be lost"
        elif outs is None or ins is None:
            why = "it has named operands"
        else:
            site = rw.Site(real[0], outs, ins)
            function = ancestry(frag).function_of(asm)
            try:
                new, reason = rw.rewrite(site, pointee_of(ctx.parsed, frag, function, declared))
            except rw.Refused as refused:
                rule_, why = _RULE_OF[refused.kind], refused.message
            else:
                ctx.fix(REWRITTEN, Edit(start, end, new.encode()), f"inline PTX: {reason}")
                ctx.request_header(_HEADER, REWRITTEN, "the HIP builtins of a rewritten inline-PTX idiom")
                return
    message = f"inline PTX cannot compile for AMD (HIP-Clang takes GCN/CDNA assembly only): {described}"
    if why:
        message += f"; not rewritten: {why}"
    ctx.report(rule_, start, message, end=end)
