"""The inline-PTX rewrites (translator/passes/warp_size/ptx.py) compute what the PTX did.

For each bit-manipulation idiom, every literal operand in a grid is put in an `asm`
statement and translated; where the pass rewrites it, the emitted call is evaluated with
a model of the HIP builtin (transcribed from the HIP 5.2 headers,
amd_detail/amd_device_functions.h) on the call's own arguments, in the order the pass
wrote them, and compared with a model of the PTX instruction (the PTX ISA's definition)
on sampled inputs. A rewrite whose builtin would differ anywhere fails; so does one whose
arguments are in the wrong order. Where the pass does not rewrite, the site is reported.
"""

from __future__ import annotations

import random
import re

import pytest

from translator.ir import inline_asm
from translator.passes import Options
from translator.pipeline import translate

M32 = 0xFFFFFFFF
HIP = Options(only="warp-size")


# ---------------------------------------------------------------- PTX ISA models

def ptx_bfe_u32(a: int, b: int, c: int) -> int:
    pos, length = b & 0xFF, c & 0xFF
    return sum(((a >> (pos + i)) & 1) << i for i in range(32) if i < length and pos + i <= 31)


def ptx_bfi_b32(a: int, b: int, c: int, d: int) -> int:
    pos, length = c & 0xFF, d & 0xFF
    f = b
    for i in range(length):
        if pos + i <= 31:
            f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
    return f & M32


def ptx_prmt(a: int, b: int, c: int) -> int:
    data = (b << 32) | a
    out = 0
    for i in range(4):
        sel = (c >> (4 * i)) & 0xF
        byte = (data >> (8 * (sel & 7))) & 0xFF
        if sel & 8:
            byte = 0xFF if byte & 0x80 else 0
        out |= byte << (8 * i)
    return out


def ptx_shf(direction: str, mode: str, a: int, b: int, c: int) -> int:
    n = c & 0x1F if mode == "wrap" else min(c, 32)
    wide = (b << 32) | a
    return ((wide << n) >> 32) & M32 if direction == "l" else (wide >> n) & M32


# ---------------------------------------------------------------- HIP header models
# None where the header's C++ is undefined (a negative shift, a signed overflow).

def _alignbit(x: int, y: int, s: int) -> int:
    return (((x << 32) | y) >> (s & 31)) & M32


def _int32_overflows(value: int) -> bool:
    return not -(1 << 31) <= value < (1 << 31)


def hip_bitextract_u32(src0: int, src1: int, src2: int) -> int | None:
    offset, width = src1 & 31, src2 & 31
    if width == 0:
        return 0
    if 32 - offset - width < 0:
        return None
    return ((src0 << (32 - offset - width)) & M32) >> (32 - width)


def hip_bitinsert_u32(src0: int, src1: int, src2: int, src3: int) -> int | None:
    offset, width = src2 & 31, src3 & 31
    shifted = 1 << width                       # `1 << width`: int
    if _int32_overflows(shifted) or _int32_overflows(shifted - 1):
        return None
    mask = (shifted - 1) & M32
    return ((src0 & ~(mask << offset)) | ((src1 & mask) << offset)) & M32


def hip_byte_perm(x: int, y: int, s: int) -> int:
    data = (y << 32) | x
    key0, key1 = s & 0xFF, (s >> 8) & 0xFF

    def byte(i: int) -> int:
        return (data >> (8 * i)) & 0xFF
    return (byte(key0 & 7) | byte((key0 & 0x70) >> 4) << 8 | byte(key1 & 7) << 16
            | byte((key1 & 0x70) >> 4) << 24)


def hip_funnelshift(name: str, lo: int, hi: int, shift: int) -> int:
    if name == "__funnelshift_l":
        s = shift & 31
        return hi if s == 0 else _alignbit(hi, lo, 32 - s)
    if name == "__funnelshift_lc":
        s = min(shift, 32)
        return hi if s == 0 else _alignbit(hi, lo, 32 - s)
    if name == "__funnelshift_r":
        return _alignbit(hi, lo, shift)
    assert name == "__funnelshift_rc"
    return hi if shift >= 32 else _alignbit(hi, lo, shift)


HIP_MODELS = {"__bitextract_u32": hip_bitextract_u32, "__bitinsert_u32": hip_bitinsert_u32,
              "__byte_perm": hip_byte_perm}


# ---------------------------------------------------------------- the harness

def _translate_lines(lines: list[str]) -> tuple[list[str], list]:
    """Each asm line, in one device function over `a`, `b`, `s`, and its translation line."""
    body = "".join(f"  {line}\n" for line in lines)
    source = ("__device__ unsigned f(unsigned a, unsigned b, unsigned s) {\n  unsigned r;\n"
              f"{body}  return r;\n}}\n").encode()
    result = translate("grid.cu", source, HIP)
    out = result.output.decode().splitlines()
    start = out.index("  unsigned r;") + 1
    return out[start:start + len(lines)], result.diagnostics


_CALL = re.compile(r"r = (\w+)\((.*)\);\Z")


def _evaluate(translated: str, env: dict[str, int]):
    match = _CALL.match(translated.strip())
    assert match, translated
    name, args = match.group(1), [a.strip() for a in match.group(2).split(",")]
    values = [env[a] if a in env else int(a, 0) for a in args]
    if name.startswith("__funnelshift"):
        return hip_funnelshift(name, *values)
    return HIP_MODELS[name](*values)


def _samples(seed: int, n: int = 64) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    edge = [0, 1, 0x80000000, M32, 0x12345678, 0x80808080]
    out = [(x, y, rng.randrange(64)) for x in edge for y in edge]
    return out + [(rng.getrandbits(32), rng.getrandbits(32), rng.randrange(64)) for _ in range(n)]


def _check(lines: list[str], ptx_model, literals: list[tuple], seed: int) -> tuple[int, int]:
    translated, diagnostics = _translate_lines(lines)
    reported = {d.line for d in diagnostics}
    rewritten = 0
    for i, (line, out, lits) in enumerate(zip(lines, translated, literals)):
        if out.strip() == line.strip():
            assert 3 + i in reported, f"not rewritten and not reported: {line}"
            continue
        rewritten += 1
        for a, b, s in _samples(seed + i, 16):
            env = {"a": a, "b": b, "s": s}
            hip = _evaluate(out, env)
            assert hip is not None, f"{line} -> {out}: undefined in HIP for {env}"
            assert hip == ptx_model(env, *lits), f"{line} -> {out} differs for {env}"
    return rewritten, len(lines)


# ---------------------------------------------------------------- the tests

def test_bfe_rewritten_exactly_where_hip_agrees():
    grid = [(p, w) for p in range(0, 36) for w in range(0, 36)]
    lines = [f'asm("bfe.u32 %0, %1, {p}, {w};" : "=r"(r) : "r"(a));' for p, w in grid]
    rewritten, _ = _check(lines, lambda env, p, w: ptx_bfe_u32(env["a"], p, w), grid, 1)
    # Every offset and width with offset + width <= 32 and width <= 31 is rewritten.
    assert rewritten == sum(1 for p, w in grid if w <= 31 and p + w <= 32)


def test_bfe_operands_from_the_operand_list():
    lines = ['asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "n"(24), "r"(8));']
    _check(lines, lambda env: ptx_bfe_u32(env["a"], 24, 8), [()], 2)
    translated, _ = _translate_lines(lines)
    assert translated == ["  r = __bitextract_u32(a, 24, 8);"]


def test_bfi_rewritten_exactly_where_hip_agrees():
    grid = [(p, w) for p in range(0, 36) for w in range(0, 36)]
    lines = [f'asm("bfi.b32 %0, %1, %2, {p}, {w};" : "=r"(r) : "r"(a), "r"(b));' for p, w in grid]
    rewritten, _ = _check(lines, lambda env, p, w: ptx_bfi_b32(env["a"], env["b"], p, w), grid, 3)
    assert rewritten == sum(1 for p, w in grid if p <= 31 and w <= 30)


def test_prmt_rewritten_only_without_sign_bits():
    selectors = [0x3210, 0x5140, 0x7654, 0x0123, 0x4444, 0x8210, 0x3218, 0xFFFF, 0x1111, 0x7777]
    lines = [f'asm("prmt.b32 %0, %1, %2, {hex(c)};" : "=r"(r) : "r"(a), "r"(b));' for c in selectors]
    rewritten, _ = _check(lines, lambda env, c: ptx_prmt(env["a"], env["b"], c), [(c,) for c in selectors], 4)
    assert rewritten == sum(1 for c in selectors if not c & 0x8888)


@pytest.mark.parametrize("direction", ["l", "r"])
@pytest.mark.parametrize("mode", ["wrap", "clamp"])
def test_shf_any_shift(direction, mode):
    # A register shift over 0..63 (sampled) and literal shifts 0..40.
    lines = [f'asm("shf.{direction}.{mode}.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));']
    literals = list(range(0, 41))
    lines += [f'asm("shf.{direction}.{mode}.b32 %0, %1, %2, {n};" : "=r"(r) : "r"(a), "r"(b));' for n in literals]
    rewritten, total = _check(
        lines, lambda env, *n: ptx_shf(direction, mode, env["a"], env["b"], n[0] if n else env["s"]),
        [()] + [(n,) for n in literals], 5)
    assert rewritten == total


def test_instruction_parsing():
    got = inline_asm.instructions(
        "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0; // test\n\t@p mov.u32 %0, %%laneid;\n}", True)
    assert [(i.opcode, i.guard, i.operands) for i in got] == [
        ("{", None, ()), (".reg", None, (".pred p",)), ("setp.ne.u32", None, ("p", "%1", "0")),
        ("mov.u32", "p", ("%0", "%laneid")), ("}", None, ())]
    mma = inline_asm.instructions("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1}, {%2}, {%3}, {%0, %1};",
                                  True)
    assert [(i.opcode, i.operands) for i in mma] == [
        ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", ("{%0, %1}", "{%2}", "{%3}", "{%0, %1}"))]
    assert inline_asm.instructions("ld.global.nc.f32 %0, [%1+4];", True)[0].operands == ("%0", "[%1+4]")
    assert inline_asm.instructions("", False) == []


def test_cuda_target_keeps_ptx():
    source = b'__device__ unsigned f() { unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }\n'
    result = translate("f.cu", source, Options(target="cuda"))
    assert result.output == source
    assert [d for d in result.diagnostics if d.code.startswith("W24")] == []
