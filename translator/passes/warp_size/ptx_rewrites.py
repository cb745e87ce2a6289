"""The PTX -> HIP rewrite table of the inline-PTX rules (ptx.py): one PTX instruction in,
the HIP builtin that computes its value out, or the reason it is not rewritten.

- rewrite(site, pointee): the new expression of an `asm` statement of one instruction
  (a Site: the instruction and its output and input operands), with why it is right,
  or Refused with the kind of reason and a message;
- suggestion(inst) and describe(insts): for any instruction, the kind that says most
  about it and its HIP equivalent where one exists (the text of a report);
- REWRITABLE: the opcode heads rewrite() may rewrite.

A kind (INLINE_PTX, BIT_FIELD, BYTE_PERM, SM_ID, TIMER, LANE_MASK) names the reason a
site is reported; ptx.py reports each under its rule of the same name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from translator.ir.inline_asm import Instruction, Operand

# The kinds of reason, each the name of the rule that reports it.
INLINE_PTX = "inline-ptx"
BIT_FIELD = "ptx-bit-field-range"
BYTE_PERM = "ptx-prmt-mode"
SM_ID = "ptx-smid"
TIMER = "ptx-globaltimer"
LANE_MASK = "ptx-lane-mask-64"

# --------------------------------------------------------------------------- operands

_INT = re.compile(r"(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\Z")


def _int(text: str) -> int | None:
    """The value of a C integer literal (decimal, octal or hex, with a suffix, maybe in
    parentheses), or None."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if not _INT.match(text):
        return None
    digits = text.rstrip("uUlL")
    return int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if len(digits) > 1 and \
        digits[0] == "0" else int(digits)


class Refused(Exception):
    """The site cannot be rewritten: `kind` says why, `message` in detail."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class Site:
    """An `asm` statement of one instruction: the instruction and the statement's outputs
    and inputs (`%N` numbers the outputs, then the inputs)."""

    inst: Instruction
    outs: list[Operand]
    ins: list[Operand]

    def ref(self, text: str) -> Operand | int | None:
        """`%N` as its operand, an integer literal as its value, else None."""
        match = re.fullmatch(r"%(\d+)", text)
        if match:
            n = int(match.group(1))
            ops = self.outs + self.ins
            return ops[n] if n < len(ops) else None
        return _int(text)

    def value(self, text: str, classes: str = "rn") -> str:
        """The C++ text of an input operand: its expression, or the literal."""
        found = self.ref(text)
        if isinstance(found, int):
            return text
        if found is None or found in self.outs or found.constraint not in tuple(classes) + ("i",):
            raise Refused(INLINE_PTX, f"operand `{text}` is not an input of class {classes!r}")
        return _argument(found)

    def literal(self, text: str) -> int | None:
        """The operand's value when it is a literal (in the template or as the operand's expression)."""
        found = self.ref(text)
        if isinstance(found, int) or found is None:
            return found
        return _int(found.text)


def _argument(op: Operand) -> str:
    """An input operand's expression as a call argument (a comma expression parenthesized)."""
    return f"({op.text})" if op.node.type == "comma_expression" else op.text


def _lvalue(op: Operand) -> str:
    """An output operand's expression as the left side of an assignment (parenthesized
    unless it is a name, member, subscript or dereference)."""
    if op.node.type in ("identifier", "field_expression", "subscript_expression", "qualified_identifier",
                        "parenthesized_expression") or (op.node.type == "pointer_expression"
                                                       and op.text.lstrip().startswith("*")):
        return op.text
    return f"({op.text})"


# --------------------------------------------------------------------------- the idioms

_SPECIAL_U32 = {"%laneid": "__lane_id()", "%clock": "clock()"}
_SPECIAL_U64 = {"%clock64": "clock64()"}
_LOAD_TYPES = {
    "f32": ("float", "f", {"float"}),
    "f64": ("double", "d", {"double"}),
    "u32": ("unsigned int", "r", {"unsigned int", "uint32_t"}),
    "s32": ("int", "r", {"int", "int32_t"}),
    "b32": ("unsigned int", "r", {"unsigned int", "uint32_t", "int", "int32_t"}),
    "u64": ("unsigned long long", "l", {"unsigned long long", "uint64_t", "unsigned long", "size_t"}),
    "s64": ("long long", "l", {"long long", "int64_t", "long"}),
    "b64": ("unsigned long long", "l", {"unsigned long long", "uint64_t", "unsigned long", "size_t", "long long",
                                        "int64_t", "long"}),
    "u16": ("unsigned short", "rh", {"unsigned short", "uint16_t"}),
    "s16": ("short", "rh", {"short", "int16_t"}),
    "b16": ("unsigned short", "rh", {"unsigned short", "uint16_t", "short", "int16_t"}),
    "u8": ("unsigned char", "rh", {"unsigned char", "uint8_t"}),
    "s8": ("signed char", "rh", {"signed char", "int8_t"}),
    "b8": ("unsigned char", "rh", {"unsigned char", "uint8_t", "signed char", "int8_t"}),
}
_CACHE_HINT = re.compile(r"(?:ca|cg|cs|L1::no_allocate|L1::evict_\w+|L2::\w+)\Z")
REWRITABLE = frozenset({"mov", "ld", "bfe", "bfi", "prmt", "shf", "shfl", "activemask"})
_LOSES_LANES = "its 32-bit output would lose lanes 32-63: keep the builtin's 64 bits"
_SHFL_KINDS = {"up": "__shfl_up", "down": "__shfl_down", "bfly": "__shfl_xor", "idx": "__shfl"}


def _output(site: Site, classes: str) -> Operand:
    """The site's one output, written (`=`) in one of the register `classes`, or Refused."""
    if len(site.outs) != 1:
        raise Refused(INLINE_PTX, "it does not have exactly one output")
    out = site.outs[0]
    if not out.constraint.startswith("=") or out.constraint.lstrip("=&") not in tuple(classes):
        raise Refused(INLINE_PTX, f"its output's constraint \"{out.constraint}\" is not \"={classes[0]}\"")
    return out


def _arity(site: Site, n: int) -> None:
    """Refused unless the instruction has `n` operands."""
    if len(site.inst.operands) != n:
        raise Refused(INLINE_PTX, f"`{site.inst.opcode}` with {len(site.inst.operands)} operands")


def _dest(site: Site, classes: str) -> Operand:
    """The site's output (_output), which must be the instruction's destination (operand 0)."""
    out = _output(site, classes)
    if site.ref(site.inst.operands[0]) is not out:
        raise Refused(INLINE_PTX, "its destination is not its output operand")
    return out


def rewrite(site: Site, pointee) -> tuple[str, str]:
    """(the statement's new expression, why) for the site's one instruction, or Refused.
    `pointee(node)` gives a pointer expression's pointee type, or None when unknown."""
    inst = site.inst
    parts = inst.opcode.split(".")
    head = parts[0]
    if head == "activemask":
        raise Refused(LANE_MASK, _LOSES_LANES)
    if head == "ld" and parts[1:3] == ["global", "nc"]:
        return _ldg(site, parts, pointee)
    idiom = _IDIOMS.get(head)
    if idiom is not None:
        return idiom(site, parts)
    raise Refused(INLINE_PTX, f"only `ld.global.nc` is a HIP builtin (`__ldg`): write `{inst.opcode}` as a C++ "
                  "load" if head == "ld" else "")


def _mov(site: Site, parts: list[str]) -> tuple[str, str]:
    """`mov` of a special register: `%laneid`, `%clock` (32-bit) and `%clock64` (64-bit)
    are builtins; `%smid`, `%globaltimer` and `%lanemask_*` have no exact equivalent."""
    inst = site.inst
    _arity(site, 2)
    reg = inst.operands[1]
    kind = parts[-1] if len(parts) == 2 else ""
    if reg == "%smid":
        raise Refused(SM_ID, "`__smid()` packs the CU id (bits 3:0) and shader engine id (bits 5:4), not a "
                      "dense SM index, and its value varies over time")
    if reg == "%globaltimer" or reg.startswith("%globaltimer_"):
        raise Refused(TIMER, "write `wall_clock64()` scaled by hipDeviceAttributeWallClockRate (kHz) where "
                      "nanoseconds are meant")
    if reg.startswith("%lanemask_"):
        raise Refused(LANE_MASK, _LOSES_LANES)
    if reg in _SPECIAL_U32 and kind in ("u32", "s32", "b32"):
        out = _dest(site, "r")
        return f"{_lvalue(out)} = {_SPECIAL_U32[reg]}", f"`{reg}` is `{_SPECIAL_U32[reg]}` in HIP"
    if reg in _SPECIAL_U64 and kind in ("u64", "s64", "b64"):
        out = _dest(site, "l")
        return f"{_lvalue(out)} = {_SPECIAL_U64[reg]}", f"`{reg}` is `{_SPECIAL_U64[reg]}` in HIP"
    if re.fullmatch(r"%[a-z_]\w*(?:\.\w+)?", reg):
        raise Refused(INLINE_PTX, f"HIP has no builtin for `{reg}`")
    raise Refused(INLINE_PTX, "it is a plain move: write it as an assignment")


def _ldg(site: Site, parts: list[str], pointee) -> tuple[str, str]:
    """`ld.global.nc[.hint].T d, [a]`: `__ldg(a)`, through a cast to `const T *` unless
    `pointee` knows a's pointee type to be T."""
    inst = site.inst
    _arity(site, 2)
    type_ = parts[-1]
    hints = parts[3:-1]
    if type_ not in _LOAD_TYPES or not all(_CACHE_HINT.match(h) for h in hints):
        raise Refused(INLINE_PTX, f"`{inst.opcode}` is not a scalar load of a plain type")
    ctype, classes, same = _LOAD_TYPES[type_]
    out = _dest(site, classes)
    match = re.fullmatch(r"\[\s*(%\d+)\s*\]", inst.operands[1])
    address = site.ref(match.group(1)) if match else None
    if not isinstance(address, Operand) or address in site.outs or address.constraint != "l":
        raise Refused(INLINE_PTX, "its address is not one 64-bit (\"l\") operand with no offset")
    found = pointee(address.node)
    if found is not None and found[0] in same:
        pointer = address.text
        why = f"the pointer is to {found[0]}"
    else:
        pointer = f"reinterpret_cast<const {ctype} *>({address.text})"
        why = "a cast gives the load's type"
    return f"{_lvalue(out)} = __ldg({pointer})", \
        f"`ld.global.nc.{type_}` is `__ldg()`, a plain load in HIP ({why})"


def _bfe(site: Site, parts: list[str]) -> tuple[str, str]:
    """`bfe.u32 d, a, b, c`: `__bitextract_u32(a, b, c)` for literals c <= 31, b + c <= 32."""
    inst = site.inst
    if inst.opcode != "bfe.u32":
        raise Refused(BIT_FIELD, f"HIP has `__bitextract_u32`/`__bitextract_u64` for unsigned fields; "
                      f"`{inst.opcode}` is written with shifts")
    _arity(site, 4)
    out = _dest(site, "r")
    src, offset, width = (site.value(o) for o in inst.operands[1:])
    b, c = site.literal(inst.operands[2]), site.literal(inst.operands[3])
    if b is None or c is None or c > 31 or b + c > 32:
        raise Refused(BIT_FIELD, f"`__bitextract_u32({src}, {offset}, {width})` equals it only for a width "
                      "below 32 and offset + width <= 32 (HIP masks both with 31)")
    return f"{_lvalue(out)} = __bitextract_u32({src}, {offset}, {width})", \
        "`bfe.u32` is `__bitextract_u32(src, offset, width)` for this offset and width"


def _bfi(site: Site, parts: list[str]) -> tuple[str, str]:
    """`bfi.b32 f, a, b, c, d`: `__bitinsert_u32(b, a, c, d)` for literals c <= 31, d <= 30."""
    inst = site.inst
    if inst.opcode != "bfi.b32":
        raise Refused(BIT_FIELD, f"HIP has `__bitinsert_u32`/`__bitinsert_u64`; `{inst.opcode}` is not b32")
    _arity(site, 5)
    out = _dest(site, "r")
    insert, base, offset, width = (site.value(o) for o in inst.operands[1:])
    c, d = site.literal(inst.operands[3]), site.literal(inst.operands[4])
    # HIP computes `(1 << width) - 1` in int: a width of 31 overflows (undefined).
    if c is None or d is None or c > 31 or d > 30:
        raise Refused(BIT_FIELD, f"`__bitinsert_u32({base}, {insert}, {offset}, {width})` equals it only for "
                      "an offset below 32 and a width below 31 (HIP masks both with 31, and computes "
                      "`(1 << width) - 1` in int)")
    return f"{_lvalue(out)} = __bitinsert_u32({base}, {insert}, {offset}, {width})", \
        "`bfi.b32 f, a, b, c, d` is `__bitinsert_u32(b, a, c, d)` (the base word first) for this offset and width"


def _prmt(site: Site, parts: list[str]) -> tuple[str, str]:
    """`prmt.b32 d, a, b, c` in the default mode: `__byte_perm(a, b, c)` for a literal c
    with no sign-replicate bit."""
    inst = site.inst
    if inst.opcode != "prmt.b32":
        raise Refused(BYTE_PERM, f"`{inst.opcode}`: HIP's `__byte_perm` has the default mode only")
    _arity(site, 4)
    out = _dest(site, "r")
    a, b, s = (site.value(o) for o in inst.operands[1:])
    selector = site.literal(inst.operands[3])
    if selector is None or selector & 0x8888:
        raise Refused(BYTE_PERM, f"`__byte_perm({a}, {b}, {s})` ignores each selector nibble's sign-replicate "
                      "bit: equal only for a literal selector with those bits clear")
    return f"{_lvalue(out)} = __byte_perm({a}, {b}, {s})", \
        "`prmt.b32` is `__byte_perm(a, b, selector)` for a selector with no sign-replicate bit"


def _shf(site: Site, parts: list[str]) -> tuple[str, str]:
    """`shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: `__funnelshift_{l,r}[c](a, b, c)`."""
    inst = site.inst
    if len(parts) != 4 or parts[1] not in ("l", "r") or parts[2] not in ("wrap", "clamp") or parts[3] != "b32":
        raise Refused(INLINE_PTX, f"`{inst.opcode}` is not `shf.{{l,r}}.{{wrap,clamp}}.b32`")
    _arity(site, 4)
    out = _dest(site, "r")
    lo, hi, shift = (site.value(o) for o in inst.operands[1:])
    name = f"__funnelshift_{parts[1]}" + ("c" if parts[2] == "clamp" else "")
    return f"{_lvalue(out)} = {name}({lo}, {hi}, {shift})", \
        f"`{inst.opcode} d, lo, hi, shift` is `{name}(lo, hi, shift)`"


def _shfl(site: Site, parts: list[str]) -> tuple[str, str]:
    """`shfl[.sync].{up,down,bfly,idx}.b32 d, a, b, c[, m]`: `__shfl_{up,down,xor,}[_sync]`
    with the width that c encodes as CUDA's `__shfl*_sync` write it."""
    inst = site.inst
    synced = len(parts) > 1 and parts[1] == "sync"
    rest = parts[2:] if synced else parts[1:]
    if len(rest) != 2 or rest[0] not in _SHFL_KINDS or rest[1] != "b32":
        raise Refused(INLINE_PTX, f"`{inst.opcode}` is not `shfl[.sync].{{up,down,bfly,idx}}.b32`")
    _arity(site, 5 if synced else 4)
    if "|" in inst.operands[0]:
        raise Refused(INLINE_PTX, "it writes a predicate")
    kind = rest[0]
    out = _dest(site, "rf")
    source = site.ref(inst.operands[1])
    if not isinstance(source, Operand) or source.constraint != out.constraint.lstrip("=&"):
        raise Refused(INLINE_PTX, "its source and destination are not of one register class")
    value = site.value(inst.operands[1], "rf")
    lane = site.value(inst.operands[2])
    c = site.literal(inst.operands[3])
    width = next((w for w in (1, 2, 4, 8, 16, 32)
                  if c == ((32 - w) << 8 | (0 if kind == "up" else 0x1f))), None)
    if width is None:
        raise Refused(INLINE_PTX, f"its clamp/segment operand `{inst.operands[3]}` is not a literal in the "
                      f"encoding CUDA's `{_SHFL_KINDS[kind]}_sync` uses: write `{_SHFL_KINDS[kind]}*` with "
                      "its width")
    if synced:
        mask = site.value(inst.operands[4])
        call = f"{_SHFL_KINDS[kind]}_sync({mask}, {value}, {lane}, {width})"
    else:
        call = f"{_SHFL_KINDS[kind]}({value}, {lane}, {width})"
    return f"{_lvalue(out)} = {call}", \
        f"`{inst.opcode}` over {width}-lane segments is `{call.split('(')[0]}` with width {width}"


# The idioms by opcode head (`ld.global.nc` is _ldg, the other loads are refused).
_IDIOMS = {"mov": _mov, "bfe": _bfe, "bfi": _bfi, "prmt": _prmt, "shf": _shf, "shfl": _shfl}


# --------------------------------------------------------------------------- suggestions

def suggestion(inst: Instruction) -> tuple[str, str]:
    """(the kind that says most about an instruction, the HIP equivalent or '')."""
    op = inst.opcode
    parts = op.split(".")
    head = parts[0]
    regs = " ".join(inst.operands)
    if "%laneid" in regs:
        return INLINE_PTX, "`__lane_id()`"
    if "%smid" in regs:
        return SM_ID, "`__smid()`"
    if "%globaltimer" in regs:
        return TIMER, "`wall_clock64()`"
    if "%clock64" in regs:
        return INLINE_PTX, "`clock64()`"
    lanemask = re.search(r"%(lanemask_(?:eq|lt|le|gt|ge))\b", regs)
    if lanemask:        # HIP 5.2 has __lanemask_lt, _gt and _eq
        composed = {"lanemask_le": "__lanemask_lt() | __lanemask_eq()",
                    "lanemask_ge": "__lanemask_gt() | __lanemask_eq()"}
        return LANE_MASK, f"`{composed.get(lanemask.group(1), f'__{lanemask.group(1)}()')}` (64-bit)"
    if head in ("vote", "activemask"):
        if head == "activemask" or "ballot" in parts:
            return LANE_MASK, ("`__ballot(1)`" if head == "activemask" else "`__ballot()`") + " (64-bit)"
        if "any" in parts:
            return INLINE_PTX, "`__any()`"
        if "all" in parts:
            return INLINE_PTX, "`__all()`"
        return INLINE_PTX, ""
    table = {
        "ld": "`__ldg()`" if parts[1:3] == ["global", "nc"] else "",
        "bfe": "`__bitextract_u32()`" if op == "bfe.u32" else "",
        "bfi": "`__bitinsert_u32()`" if op == "bfi.b32" else "",
        "prmt": "`__byte_perm()`", "shf": "`__funnelshift_l/r()`",
        "shfl": "`__shfl*` / `__shfl*_sync`", "mma": "none in HIP: use rocWMMA or `__builtin_amdgcn_mfma_*`",
        "wmma": "none in HIP: use rocWMMA or `__builtin_amdgcn_mfma_*`", "popc": "`__popc()`", "clz": "`__clz()`",
        "brev": "`__brev()`", "membar": {"gl": "`__threadfence()`", "cta": "`__threadfence_block()`",
                                         "sys": "`__threadfence_system()`"}.get(parts[-1], ""),
        "bar": "`__syncthreads()`" if regs.strip() == "0" else "",
        "barrier": "`__syncthreads()`" if regs.strip() == "0" else "",
    }
    return {"bfe": BIT_FIELD, "bfi": BIT_FIELD, "prmt": BYTE_PERM}.get(head, INLINE_PTX), table.get(head, "")


def describe(insts: list[Instruction]) -> str:
    """The instructions of a template as a report names them: each opcode (with the special
    register it reads) and its HIP equivalent, the first four of them."""
    named = []
    for inst in insts:
        if inst.opcode in ("{", "}") or inst.opcode.startswith("."):
            continue
        _, hip = suggestion(inst)
        special = next((o for o in inst.operands if re.fullmatch(r"%[a-z_]\w*(?:\.\w+)?", o)), None)
        text = inst.opcode + (f" {special}" if special else "")
        named.append(f"`{text}`" + ("" if not hip else f" ({hip})" if hip.startswith("none") else f" (HIP: {hip})"))
    unique = list(dict.fromkeys(named))
    return ", ".join(unique[:4]) + (f" and {len(unique) - 4} more" if len(unique) > 4 else "")
