"""H027, H028 and the data type selection: hipify-clang's AST matchers that rename no API.

hipify-clang (src/HipifyAction.cpp) runs, besides its token rewriter, AST matchers:
`cudaLaunchKernel` (launch_syntax, H003), `cudaHostFuncCall` and
`cudaOverloadedHostFuncCall` (calls: H004, H005, H008, overloads; its rocSPARSE and
MIOpen argument rewrites are H017 in renames), `cubNamespacePrefix`,
`cubFunctionTemplateDecl` and `cubUsingNamespaceDecl` (renames: every `cub::` and
`using namespace cub;` becomes hipcub's, template parameters' types and typedefs
included), and three more, which this module covers:

What it does:
    `half2Member` (H027): `v.x` and `v.y` of a `half2` are `__half` in CUDA (nvcc's
    undocumented members) and `unsigned short` in HIP (the bits, read as an integer),
    so the member is read as `reinterpret_cast<half&>(v.x)`, as hipify-clang writes it.
    hipify-clang does this where the base's type is spelled `half2`; cu2hip does it
    where the base is a variable or parameter declared `half2` or `__half2` in the
    file (the nearest declaration in scope): `v.x`, `a[i].x` (`a` an array or pointer),
    `(*p).x` and, beyond hipify-clang, `p->x` and a `const` base (`const half&`).
    `cudaDeviceFuncCall` (H028): hipify-clang's matcher of calls of `__device__`
    functions renames nothing and changes no argument (it calls its lookup with
    replacement off): it reports the calls whose name its token rewriter never sees,
    that is names formed by `##` in a macro (`__f##op##_rd`). cu2hip pastes each such
    name as the macro's uses in the file spell it and reports it where its HIP name is
    not what the renamed parts paste to (no HIP equivalent, `cudaError##x` with `_t`),
    for every CUDA name the tables know, not only device functions.
    `dataTypeSelection` (H001): with `--use-hip-data-types`, hipify-clang gives the
    variables and parameters declared `cudaDataType_t`/`cudaDataType` (plain, not const,
    pointer, reference or array) the type `hipDataType`, which its tables give every use
    anyway unless `--roc` maps them to rocBLAS's `rocblas_datatype`: so with `--roc`
    and `--use-hip-data-types`, those declarations get `hipDataType` and the other uses
    (casts, typedefs, fields, the `CUDA_R_*` values) rocBLAS's names, as hipify-clang
    does.
Legal when:
    H027: the member's base is declared in the file with one of those types and the
    member expression parses; an expression already `reinterpret_cast<...&>(...)` is
    left alone. H028: a diagnostic. Data types: a table rename.
Not handled:
    H027: bases whose type cu2hip cannot see from a declaration (struct members,
    `auto`, template parameters, function results). H028: macros used only in other
    files (each file's uses are pasted) and arguments that are not one token.
Example:
    half2 v; float lo = __half2float(v.x);
      ->  half2 v; float lo = __half2float(reinterpret_cast<half&>(v.x));
Safety:
    H027 relies on the declaration cu2hip finds being the base's type (semantic) and on
    HIP's `__half2` holding `x` and `y` as the halves' bits, as hipify-clang does.
"""

from __future__ import annotations

import dataclasses
import re

import tree_sitter as ts

from translator.catalog import ERROR, NOTE, rule
from translator.edits import Edit
from translator.frontend import Fragment, directives, node_at
from translator.ir.lines import in_directive
from translator.mapping import version_at_least
from translator.passes import Context
from translator.passes.hipify import renames

HALF2_MEMBER = rule(
    "H027", "half2-member", NOTE, "`.x`/`.y` of a `half2` is read as `half` through `reinterpret_cast`", """
nvcc lets `v.x` and `v.y` of a `half2` read its halves as `__half`; CUDA does not
document these members. HIP's `__half2` declares `x` and `y` as `unsigned short`, the
bits of each half, so the same code compiles and reads an integer: the value is wrong,
silently. As hipify-clang does, the member is wrapped in `reinterpret_cast<half&>()`
(`const half&` for a const base, `__half&` for a `__half2`), which reads and writes
the half again. cu2hip finds the base's type from its declaration in the file.
It is one of hipify-clang's undocumented features: `--no-undocumented-features` turns it
off, as `--ignore H027` does.""",
    edits=True, safe=False, undocumented=True,
    example="__device__ float lo(half2 v) { return __half2float(v.x); }\n",
    translation="#include <hip/hip_runtime.h>\n"
                "__device__ float lo(half2 v) { return __half2float(reinterpret_cast<half&>(v.x)); }\n")
PASTED_NAME = rule(
    "H028", "pasted-cuda-name", ERROR, "a macro pastes a CUDA name with `##` that its renamed parts do not give", """
A name formed with `##` in a macro body (`#define ROUND(op, a, b) __f##op##_rd(a, b)`)
is in no token of the file, so no rename can reach it: the parts of the paste are
renamed, each where it is written, and the macro's uses paste what they give. Where
the CUDA name the macro forms has no HIP equivalent, or HIP's name for it is not what
the renamed parts paste to, the output calls a name HIP does not declare. hipify-clang
reports such calls of device functions (its `cudaDeviceFuncCall` matcher); cu2hip
pastes each use of the macro in the file and reports every CUDA name formed so.
Rewrite the macro to take the whole name.""",
    example="#define ROUND(op, a, b) __f##op##_rd(a, b)\n"
            "__device__ float f(float a, float b) { return ROUND(add, a, b); }\n",
    translation="#include <hip/hip_runtime.h>\n#define ROUND(op, a, b) __f##op##_rd(a, b)\n"
                "__device__ float f(float a, float b) { return ROUND(add, a, b); }\n",
    unconverted=True)

# ------------------------------------------------------------------ half2 members

HALF2_TYPES = {"half2": "half", "__half2": "__half"}
_MEMBER = re.compile(rb"(?:\.|->)[ \t]*([xy])(?![\w$])")
_SCOPES = frozenset({"compound_statement", "translation_unit", "declaration_list"})


def rewrite_half2_members(ctx: Context) -> None:
    words = ctx.parsed.words
    if b"half2" not in words and b"__half2" not in words:
        return
    text = ctx.parsed.cleaned
    done: set[tuple[int, int]] = set()
    for frag in ctx.parsed.fragments:
        declared = _half2_names(frag, ctx.source.data, text)
        if not declared:
            continue
        for lo, hi in frag.ranges(len(text)):
            for match in _MEMBER.finditer(text, lo, hi):
                field = node_at(frag.root, match.start(1) - frag.delta, match.end(1) - frag.delta)
                member = field.parent if field is not None and field.type == "field_identifier" else None
                if member is None or member.type != "field_expression" or not frag.clean(member):
                    continue
                span = frag.span(member)
                if span in done or _already_cast(frag, ctx.source.data, member):
                    continue
                half = _half_type(frag, ctx.source.data, member, declared)
                if half is None:
                    continue
                done.add(span)
                written = frag.text(ctx.source.data, member)
                ctx.fix(HALF2_MEMBER, (Edit(span[0], span[0], f"reinterpret_cast<{half}&>(".encode()),
                                       Edit(span[1], span[1], b")")),
                        f"'{written}': HIP's half2 holds x and y as unsigned short; read as {half}")


def _already_cast(frag: Fragment, data: bytes, member: ts.Node) -> bool:
    """Is the member the operand of a `reinterpret_cast<...&>()` (a second round, or by hand)?"""
    args = member.parent
    if args is None or args.type != "argument_list" or len(args.named_children) != 1:
        return False
    call = args.parent
    function = call.child_by_field_name("function") if call is not None else None
    if function is None or function.type != "template_function":
        return False
    written = frag.text(data, function).replace(" ", "")
    return written.startswith("reinterpret_cast<") and written.endswith("&>")


_HALF2 = re.compile(rb"(?<![\w$])(?:__)?half2(?![\w$])")
_VARIABLES = frozenset({"declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop"})


def _half2_names(frag: Fragment, data: bytes, text: bytes) -> set[str]:
    """The names the fragment declares with a half2 type (a first filter: which of
    their uses a declaration of that type is in scope for is asked of each)."""
    names = set()
    for lo, hi in frag.ranges(len(text)):
        for match in _HALF2.finditer(text, lo, hi):
            node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
            decl = node.parent if node is not None else None
            if decl is None or decl.type not in _VARIABLES or decl.child_by_field_name("type") != node:
                continue
            for declarator in decl.children_by_field_name("declarator"):
                while declarator is not None and declarator.type != "identifier":
                    inner = declarator.child_by_field_name("declarator")
                    if inner is None and declarator.type == "reference_declarator":
                        inner = next(iter(declarator.named_children), None)
                    declarator = inner
                if declarator is not None:
                    names.add(frag.text(data, declarator))
    return names


def _half_type(frag: Fragment, data: bytes, member: ts.Node, declared: set[str]) -> str | None:
    """The type to read the member as (`half`, `const half`, `__half`...), when the base
    is a variable of a half2 type; else None."""
    base = member.child_by_field_name("argument")
    operator = member.child_by_field_name("operator")
    levels = 1 if operator is not None and operator.type == "->" else 0
    while base is not None:
        if base.type == "parenthesized_expression" and base.named_child_count == 1:
            base = base.named_children[0]
        elif base.type == "subscript_expression":
            levels += 1
            base = base.child_by_field_name("argument")
        elif base.type == "pointer_expression" and base.child_by_field_name("operator").type == "*":
            levels += 1
            base = base.child_by_field_name("argument")
        else:
            break
    if base is None or base.type != "identifier" or frag.text(data, base) not in declared:
        return None
    found = _declaration(frag, data, base, frag.text(data, base))
    if found is None:
        return None
    type_name, const, depth = found
    if type_name not in HALF2_TYPES or depth != levels:
        return None
    return ("const " if const else "") + HALF2_TYPES[type_name]


def _declaration(frag: Fragment, data: bytes, use: ts.Node, name: str) -> tuple[str, bool, int] | None:
    """(type as written, const, pointer and array levels) of the nearest declaration of
    `name` in scope at `use`: the blocks around it (their declarations before it), the
    parameters of the functions and lambdas around it, a `for` statement's own."""
    child, scope = use, use.parent
    while scope is not None:
        kind = scope.type
        found = None
        if kind in _SCOPES:
            for item in scope.named_children:
                if item.start_byte >= use.start_byte:
                    break
                if item.type == "declaration":
                    found = _declares(frag, data, item, name) or found
        elif kind in ("function_definition", "lambda_expression") and child.type == "compound_statement":
            found = _parameter(frag, data, scope, name)
        elif kind == "for_statement":
            first = scope.child_by_field_name("initializer")
            if first is not None and first.type == "declaration" and first != child:
                found = _declares(frag, data, first, name)
        elif kind == "for_range_loop" and child == scope.child_by_field_name("body"):
            found = _declares(frag, data, scope, name)
        if found is not None:
            return found
        child, scope = scope, scope.parent
    return None


def _parameter(frag: Fragment, data: bytes, function: ts.Node, name: str) -> tuple[str, bool, int] | None:
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("function_declarator", "lambda_declarator"):
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    for param in params.named_children if params is not None else ():
        if param.type in ("parameter_declaration", "optional_parameter_declaration"):
            found = _declares(frag, data, param, name)
            if found is not None:
                return found
    return None


def _declares(frag: Fragment, data: bytes, decl: ts.Node, name: str) -> tuple[str, bool, int] | None:
    """Does the declaration (or parameter, or range-for header) declare `name`? Then
    (its type as written, const, its declarator's pointer and array levels)."""
    type_node = decl.child_by_field_name("type")
    if type_node is None:
        return None
    const = any(c.type == "type_qualifier" and frag.text(data, c) == "const" for c in decl.children)
    for declarator in decl.children_by_field_name("declarator"):
        depth = 0
        while declarator is not None and declarator.type != "identifier":
            if declarator.type in ("pointer_declarator", "array_declarator"):
                depth += 1
            elif declarator.type not in ("init_declarator", "reference_declarator"):
                break
            inner = declarator.child_by_field_name("declarator")
            if inner is None and declarator.type == "reference_declarator":
                inner = next(iter(declarator.named_children), None)
            declarator = inner
        if declarator is not None and declarator.type == "identifier" and frag.text(data, declarator) == name:
            return frag.text(data, type_node), const, depth
    return None


# ------------------------------------------------------------------ names pasted with ##

_PP_TOKEN = re.compile(rb"""[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                       rb"""|/\*.*?\*/|//[^\n]*|\\\r?\n|\s+|##|\.\.\.|.""", re.S)
_WORD = re.compile(r"[A-Za-z_]\w*\Z")


def report_pasted_names(ctx: Context) -> None:
    text = ctx.parsed.cleaned
    if b"##" not in text:
        return
    root = ctx.parsed.main.root
    for hash_at, end in directives(text, b"define"):
        token = node_at(root, hash_at, end)
        directive = token.parent if token is not None else None
        if directive is None or directive.type not in ("preproc_def", "preproc_function_def"):
            continue
        value, name_node = directive.child_by_field_name("value"), directive.child_by_field_name("name")
        if value is None or name_node is None or b"##" not in text[value.start_byte:value.end_byte]:
            continue
        chains = _paste_chains(text[value.start_byte:value.end_byte])
        macro = text[name_node.start_byte:name_node.end_byte].decode("utf-8", "replace")
        params = directive.child_by_field_name("parameters")
        named = [text[p.start_byte:p.end_byte].decode("utf-8", "replace")
                 for p in (params.named_children if params is not None else ()) if p.type == "identifier"]
        names = named + (["__VA_ARGS__"] if params is not None and b"..." in text[params.start_byte:params.end_byte]
                         else [])
        fixed = [c for c in chains if not any(part in names for _, part in c)]
        for chain in fixed:       # the same name at every use: reported at the definition
            _check_paste(ctx, macro, [part for _, part in chain], value.start_byte + chain[0][0], False)
        if len(fixed) == len(chains):
            continue
        for use, arguments in _macro_uses(ctx, macro.encode(), directive.end_byte):
            values = dict(zip(named, arguments))
            values["__VA_ARGS__"] = ", ".join(arguments[len(named):])
            for chain in chains:
                if chain not in fixed:
                    parts = [values.get(part, "") if part in names else part for _, part in chain]
                    _check_paste(ctx, macro, parts, use, True)


def _paste_chains(body: bytes) -> list[list[tuple[int, str]]]:
    """The `a ## b ## c` sequences of a macro body: (offset in the body, token) of each
    operand, in order."""
    tokens = [(m.start(), m.group()) for m in _PP_TOKEN.finditer(body)
              if not m.group().isspace() and not m.group().startswith((b"/*", b"//", b"\\"))]
    chains, i = [], 0
    while i < len(tokens):
        if i + 2 < len(tokens) and tokens[i + 1][1] == b"##":
            chain = [tokens[i]]
            while i + 2 < len(tokens) and tokens[i + 1][1] == b"##":
                chain.append(tokens[i + 2])
                i += 2
            chains.append([(at, t.decode("utf-8", "replace")) for at, t in chain])
        i += 1
    return chains


def _macro_uses(ctx: Context, macro: bytes, after: int):
    """(offset, arguments as written, stripped) of each use `MACRO(...)` in the file's code."""
    text = ctx.parsed.cleaned
    for match in re.compile(rb"(?<![\w$])" + re.escape(macro) + rb"[ \t]*\(").finditer(text, after):
        start = match.start()
        if in_directive(text, start):
            continue
        node = node_at(ctx.parsed.main.root, start, start + len(macro))
        if node is None or node.type != "identifier":
            continue        # in a comment or a string
        arguments = _split_arguments(text, match.end())
        if arguments is not None:
            yield start, arguments


def _split_arguments(text: bytes, at: int) -> list[str] | None:
    """The arguments of a macro use whose `(` ends just before `at`, split at the
    top-level commas, each stripped; None when the `)` is not found."""
    out, depth, current = [], 0, bytearray()
    for match in _PP_TOKEN.finditer(text, at):
        token = match.group()
        if token in (b"(", b"[", b"{"):
            depth += 1
        elif token in (b")", b"]", b"}"):
            if depth == 0:
                out.append(current.decode("utf-8", "replace").strip())
                return out
            depth -= 1
        elif token == b"," and depth == 0:
            out.append(current.decode("utf-8", "replace").strip())
            current = bytearray()
            continue
        if not token.startswith((b"/*", b"//")):
            current += b" " if token.isspace() or token.startswith(b"\\") else token
    return None


def _check_paste(ctx: Context, macro: str, parts: list[str], at: int, at_use: bool) -> None:
    """Report the name `parts` paste where HIP's name for it is not what its renamed
    parts paste (at a use of the macro, or at the paste in its definition)."""
    pasted = "".join(parts)
    if not _WORD.match(pasted):
        return
    entry = ctx.tables.lookup(pasted)
    if entry is None:
        return
    counterpart = renames.counterpart(entry, ctx)[0]
    wanted = _written_as(ctx, pasted)
    given = "".join(_written_as(ctx, part) or part for part in parts)
    where = f"a use of macro '{macro}'" if at_use else f"macro '{macro}'"
    if wanted is None:
        message = f"{where} pastes '{pasted}' with ##, which has no HIP equivalent"
    elif wanted != counterpart:
        message = f"{where} pastes '{pasted}' with ##, whose counterpart '{counterpart}' is not translated for " \
                  "this target (its version, or experimental)"
    elif wanted != given:
        message = f"{where} pastes '{pasted}' with ##; its HIP name is '{wanted}', but the renamed parts " \
                  f"paste '{given}'"
    else:
        return
    end = at + len(macro) if at_use else at + len(parts[0])
    ctx.report(PASTED_NAME, at, message, end=end, subject=pasted)


def _written_as(ctx: Context, name: str) -> str | None:
    """What the rename pass writes for `name`: its counterpart, or the name itself where
    nothing is renamed (not a table name, not in the target, experimental...); None when
    the table says it has no counterpart."""
    entry = ctx.tables.lookup(name)
    if entry is None:
        return name
    target, added, _, removed, experimental, _ = renames.counterpart(entry, ctx)
    if target is None:
        return None
    version = ctx.options.rocm_version
    if (experimental is not None and not ctx.options.experimental) or \
            (removed is not None and version_at_least(version, removed)) or \
            (added is not None and not version_at_least(version, added)) or not _WORD.match(target):
        return name
    return target


# ------------------------------------------------------------------ --use-hip-data-types

DATA_TYPES = frozenset({"cudaDataType_t", "cudaDataType"})


def select_data_type(ctx: Context, use) -> bool:
    """With --use-hip-data-types and --roc, a variable or parameter declared with a
    CUDA data type gets `hipDataType` (hipify-clang's dataTypeSelection); True when
    done (the caller renames nothing more)."""
    o = ctx.options
    if not (o.use_hip_data_types and o.roc) or use.entry is None or use.fragment.in_macro:
        return False
    node = use.node
    decl = node.parent
    if decl is not None and decl.type == "enum_specifier":     # `enum cudaDataType_t x;`
        node, decl = decl, decl.parent
    if decl is None or decl.type not in _VARIABLES or decl.child_by_field_name("type") != node:
        return False
    if any(c.type == "type_qualifier" for c in decl.children):
        return False     # `const cudaDataType_t`: hipify-clang's type test spells the qualifier
    declarators = decl.children_by_field_name("declarator")
    plain = not declarators and decl.type != "declaration" or any(
        d.type == "identifier" or (d.type == "init_declarator" and
                                   d.child_by_field_name("declarator").type == "identifier") for d in declarators)
    if not plain:
        return False
    hip_side = dataclasses.replace(ctx, options=dataclasses.replace(o, roc=False))
    renames.rename(hip_side, use.api.span, use.entry, node=use.node)
    return True
