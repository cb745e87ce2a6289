"""Inline assembly: what a GNU `asm` statement of a file is, independent of any rule.

- asm_nodes: the `asm` expressions of a file (its parses under each configuration and
  its macro bodies, `#define`s the front end could not parse included);
- the template: template_text() reads its string literals, instructions() splits it
  into Instruction statements (comments dropped, `%%` read as `%`, operands split at
  top-level commas); is_gcn() and looks_ptx() say which assembly language it is in;
- the operands: operands() gives each constraint and value expression (Operand);
- where it is: device_state() (device code, host code, or not known: a macro from
  elsewhere in the function's specifiers), from device_macros(); under_hip_guard() (an
  `#if` around it tests a HIP macro: the code chooses per platform already);
- pointee_of(): the type a pointer operand points to, from the declarations of the
  function around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from translator.frontend import Fragment, ParsedFile, object_macros, unparsed_define_bodies
from translator.ir.ancestry import ancestry
from translator.ir.nodes import descendants, owned_hits, parent_of

# The asm keyword (a hit of the file's scan), and as a whole word (in a `#define` body).
_ASM = re.compile(rb"__asm__|__asm|asm(?![\w$])")
_ASM_WORD = re.compile(rb"(?<![\w$])(?:__asm__|__asm|asm)(?![\w$])")
# GCN/CDNA opcodes: scalar, vector, LDS, buffer, global, flat, scratch, image, export.
_GCN = re.compile(r"(?:s|v|ds|buffer|global|flat|scratch|image|exp|tbuffer|smem)_\w+\Z")
# A condition of `#if`/`#ifdef` that tests a HIP macro.
_HIP_GUARD = re.compile(rb"__HIP|HIP_PLATFORM|__HIPCC__")
_DEVICE_WORDS = (b"__device__", b"__global__")
# A word spelled like a macro (`CUTE_HOST_DEVICE`): capitals with an underscore.
_MACRO_LIKE = re.compile(rb"(?<![\w$])[A-Z][A-Z0-9]*_[A-Z0-9_]*(?![\w$])")
# The heads of PTX opcodes (`ld` of `ld.global.nc.f32`) and PTX's special registers.
_PTX_HEADS = frozenset("""
mov ld st ldu bfe bfi prmt shf shfl vote activemask mma wmma wgmma bar barrier membar fence atom red cvt
cvta setp selp add sub mul mad fma min max and or xor not shl shr popc clz brev bfind cp ldmatrix stmatrix
tex tld4 suld sust nanosleep match redux elect mapa getctarank multimem isspacep dp4a dp2a lop3 sad abs neg
rcp sqrt rsqrt sin cos lg2 ex2 tanh div rem copysign testp slct prefetch prefetchu discard createpolicy
applypriority griddepcontrol setmaxnreg mbarrier bra call ret exit trap
""".split())
_PTX_REGISTER = re.compile(r"%(?:laneid|warpid|nwarpid|smid|nsmid|gridid|clock|clock64|clock_hi|globaltimer\w*"
                           r"|lanemask_\w+|tid|ntid|ctaid|nctaid|pm\d|envreg\d+|dynamic_smem_size|total_smem_size)"
                           r"(?:\.[xyz])?")


# --------------------------------------------------------------------------- the statements

def asm_nodes(parsed: ParsedFile):
    """(fragment, gnu_asm_expression) for each asm of the file's parses, in order."""
    if not parsed.words.intersection((b"asm", b"__asm__", b"__asm")):
        return
    seen = set()
    macros = list(parsed.macros) + unparsed_define_bodies(
        parsed, lambda start, end: _ASM_WORD.search(parsed.cleaned, start, end) is not None)
    for frag in [parsed.main, *parsed.configurations, *macros]:
        for _, node in owned_hits(parsed, frag, _ASM):
            asm = parent_of(frag, node)
            if asm is None or asm.type != "gnu_asm_expression":
                continue
            span = frag.span(asm)
            if span not in seen:
                seen.add(span)
                yield frag, asm


# --------------------------------------------------------------------------- templates

@dataclass(frozen=True)
class Instruction:
    """One statement of an asm template: an instruction, or a declaration (opcode `.reg` ...)
    or a brace (opcode `{` or `}`)."""

    text: str                    # as the assembler reads it (`%%` already one `%`)
    guard: str | None            # `@p` / `@!p`
    opcode: str                  # `ld.global.nc.f32`
    operands: tuple[str, ...]    # top-level comma-separated operands, stripped


def template_text(data: bytes, code: ts.Node, frag: Fragment) -> str | None:
    """The assembler template of `assembly_code` (plain string literals, concatenated and
    unescaped), or None when it is anything else (a raw string, a macro in between)."""
    parts = code.named_children if code.type == "concatenated_string" else [code]
    out = []
    for part in parts:
        if part.type != "string_literal":
            return None
        raw = frag.text(data, part)
        if not raw.startswith('"') or not raw.endswith('"'):
            return None         # a prefixed literal (u8"...", L"...")
        try:
            out.append(raw[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape"))
        except (UnicodeDecodeError, UnicodeEncodeError):
            return None
    return "".join(out)


def _strip_comments(text: str) -> str:
    """The text with its `/* */` and `//` comments as blanks."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _split_operands(text: str) -> tuple[str, ...]:
    """An instruction's operands: the text split at commas outside brackets, braces and
    parentheses, each stripped (none for an empty text)."""
    out, depth, current = [], 0, []
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    tail = "".join(current).strip()
    if tail or out:
        out.append(tail)
    return tuple(out)


def instructions(template: str, has_operands: bool) -> list[Instruction] | None:
    """The template's statements in order, or None when it holds something that is not an
    instruction list (a label, an unbalanced brace). Declarations (`.reg .pred p;`) and
    braces are kept as statements whose opcode starts with `.` or is `{`/`}`."""
    text = _strip_comments(template)
    if has_operands:
        text = text.replace("%%", "\x00")
    out = []
    for chunk in re.split(r"[;\n]", text):
        piece = chunk.strip()
        while piece[:1] in ("{", "}") and piece:         # a scope's braces open or close a statement
            out.append(Instruction(piece[0], None, piece[0], ()))
            piece = piece[1:].strip()
        closing = 0
        while piece.endswith("}") and piece.count("}") > piece.count("{"):
            piece, closing = piece[:-1].strip(), closing + 1
        if piece:
            guard = None
            match = re.match(r"@(!?\w+)\s+", piece)
            if match:
                guard, piece = match.group(1), piece[match.end():]
            match = re.match(r"([A-Za-z_.][\w.:]*)\s*(.*)\Z", piece, re.S)
            if match is None:
                return None
            shown = piece.replace("\x00", "%")
            out.append(Instruction(shown, guard, match.group(1),
                                   tuple(o.replace("\x00", "%") for o in _split_operands(match.group(2)))))
        out.extend(Instruction("}", None, "}", ()) for _ in range(closing))
    return out


def is_gcn(insts: list[Instruction]) -> bool:
    """GCN/CDNA assembly (what HIP-Clang accepts): every instruction has a GCN opcode."""
    ops = [i.opcode for i in insts if i.opcode not in ("{", "}")]
    return bool(ops) and all(_GCN.match(op) for op in ops)


# --------------------------------------------------------------------------- operands

@dataclass(frozen=True)
class Operand:
    """One operand of an asm statement: its constraint (blanks removed, `=r`) and value."""

    constraint: str
    node: ts.Node                # the value expression
    text: str


def operands(data: bytes, frag: Fragment, asm: ts.Node, field: str) -> list[Operand] | None:
    """The operands of an asm statement's `field` ("output_operands" or "input_operands")
    in order, [] when it has none, None when one is named (`[x] "r"(v)`) or not a plain
    constraint string."""
    lst = asm.child_by_field_name(field)
    if lst is None:
        return []
    out = []
    for op in lst.named_children:
        if op.type == "comment":
            continue
        constraint = op.child_by_field_name("constraint")
        value = op.child_by_field_name("value")
        if constraint is None or value is None or op.child_by_field_name("symbol") is not None \
                or constraint.type != "string_literal":
            return None
        out.append(Operand(frag.text(data, constraint)[1:-1].replace(" ", ""), value, frag.text(data, value)))
    return out


# --------------------------------------------------------------------------- where it is

def device_macros(data: bytes) -> set[bytes]:
    """The object-like macros of the file whose body says `__device__` or `__global__`."""
    return {name for name, body in object_macros(data) if any(w in body for w in _DEVICE_WORDS)}


def device_state(parsed: ParsedFile, frag: Fragment, node: ts.Node, macros: set[bytes]) -> bool | None:
    """True in device code (a `__global__` or `__device__` function or lambda, or one whose
    specifiers hold one of `macros`, the file's device_macros()), False in host code, None
    when its specifiers hold a macro-like word from elsewhere (`CUTE_HOST_DEVICE`) or no
    function is found around it."""
    data = parsed.data
    tree = ancestry(frag)
    up = tree.parent(node)
    while up is not None and up.type != "function_definition":
        if up.type == "lambda_expression":
            body = up.child_by_field_name("body")
            head = data[frag.span(up)[0]:frag.span(body)[0]] if body is not None else b""
            if b"__device__" in head:
                return True
        up = tree.parent(up)
    if up is None:
        return None
    body = up.child_by_field_name("body")
    # The head starts before the node where the front end blanked a qualifier macro
    # (`#define DEV __device__`): back over the blanks of the parsed text.
    start = frag.span(up)[0]
    while start > 0 and parsed.cleaned[start - 1:start] in (b" ", b"\t", b"\n", b"\r"):
        start -= 1
    head = data[start:frag.span(body)[0] if body is not None else frag.span(up)[1]]
    words = set(re.findall(rb"[A-Za-z_]\w*", head))
    if any(w in words for w in _DEVICE_WORDS) or words & macros:
        return True
    declarator = up.child_by_field_name("declarator")
    specifiers = data[start:frag.span(declarator)[0]] if declarator is not None else head
    return None if _MACRO_LIKE.search(specifiers) else False


def looks_ptx(insts: list[Instruction]) -> bool:
    """Recognisably PTX: a PTX opcode with its `.type` suffixes, or a PTX special register."""
    return any(("." in i.opcode and i.opcode.split(".")[0] in _PTX_HEADS)
               or any(_PTX_REGISTER.fullmatch(o) for o in i.operands) for i in insts)


def under_hip_guard(parsed: ParsedFile, frag: Fragment, node: ts.Node) -> bool:
    """Whether an `#if`, `#ifdef` or `#elif` around the node tests a HIP macro
    (`__HIP_PLATFORM_AMD__`, `__HIPCC__` ...)."""
    tree = ancestry(frag)
    up = tree.parent(node)
    while up is not None:
        if up.type in ("preproc_if", "preproc_ifdef", "preproc_elif"):
            cond = up.child_by_field_name("condition") or up.child_by_field_name("name")
            if cond is not None and _HIP_GUARD.search(parsed.data[slice(*frag.span(cond))]):
                return True
        up = tree.parent(up)
    return False


def pointee_of(parsed: ParsedFile, frag: Fragment, function: ts.Node | None, cache: dict):
    """pointee(node): (the pointee's type, as a normalized name) of a pointer expression,
    from its declaration in the function (parameter or local), or None. A function's
    declarations are read at the first question about it (kept in `cache`)."""
    data = parsed.data

    def declarations() -> dict[str, tuple[str, int] | None]:
        if function is None:
            return {}
        key = (id(frag), function.start_byte, function.end_byte)
        if key not in cache:
            cache[key] = {}
            _declarations(frag, data, function, cache[key])
        return cache[key]

    def pointee(node: ts.Node):
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node.type == "identifier":
            found = declarations().get(frag.text(data, node))
            return (found[0],) if found and found[1] == 1 else None
        if node.type == "cast_expression":
            t = node.child_by_field_name("type")
            text = frag.text(data, t) if t is not None else ""
            return (_normal(text[:-1]),) if text.count("*") == 1 and text.endswith("*") else None
        if node.type == "binary_expression" and frag.text(data, node.child(1)) in ("+", "-"):
            left = pointee(node.child_by_field_name("left"))
            if left is not None:
                return left
            return pointee(node.child_by_field_name("right")) if frag.text(data, node.child(1)) == "+" else None
        if node.type == "pointer_expression" and frag.text(data, node)[:1] == "&":
            arg = node.child_by_field_name("argument")
            if arg is not None and arg.type == "subscript_expression":
                array = arg.child_by_field_name("argument")
                if array is not None and array.type == "identifier":
                    found = declarations().get(frag.text(data, array))
                    return (found[0],) if found and found[1] == 1 else None
        return None
    return pointee


def _declarations(frag: Fragment, data: bytes, function: ts.Node, declared: dict) -> None:
    """Each name the function declares (parameters and locals): (its base type, the
    number of pointer or array levels), or None where two declarations differ."""
    for n in descendants(function):
        if n.type not in ("parameter_declaration", "declaration"):
            continue
        type_node = n.child_by_field_name("type")
        if type_node is None:
            continue
        base = _normal(frag.text(data, type_node))
        for d in n.children_by_field_name("declarator"):
            depth, decl = 0, d
            while decl is not None and decl.type != "identifier":
                if decl.type in ("pointer_declarator", "array_declarator"):
                    depth += 1
                elif decl.type not in ("init_declarator", "parenthesized_declarator"):
                    break
                decl = decl.child_by_field_name("declarator")
            if decl is not None and decl.type == "identifier":
                name = frag.text(data, decl)
                seen = (base, depth) if b"volatile" not in data[slice(*frag.span(n))] else None
                # A name declared twice (shadowed in a block) is known only when both agree.
                declared[name] = seen if declared.get(name, seen) == seen else None


def _normal(type_text: str) -> str:
    """A type's name as pointee_of() compares it: qualifiers and `std::` dropped, the
    spellings of one integer type made one (`unsigned` is `unsigned int`)."""
    words = [w for w in re.findall(r"[A-Za-z_]\w*", type_text)
             if w not in ("const", "__restrict__", "__restrict", "restrict", "std")]
    text = " ".join(words)
    return {"unsigned": "unsigned int", "signed": "int", "signed int": "int", "long int": "long",
            "long long int": "long long", "unsigned long int": "unsigned long",
            "unsigned long long int": "unsigned long long", "short int": "short",
            "unsigned short int": "unsigned short"}.get(text, text)
