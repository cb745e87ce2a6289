"""H019: names that look like CUDA APIs but that the mapping tables do not know.

What it does:
    Reports each use, in code, of an identifier shaped like a CUDA API (`cuda*`,
    `cu[A-Z]*`, `CU[a-z]*`, `CU_*`, `CUDA_*`, `CUDART_*`, `CUBLAS_*` and the other
    libraries' prefixes, `__nv_*`, `__*_sync`, `atomic*_block`, `atomic*_system`,
    `__CUDA*`) that no table lists, that neither the file nor the tree declares
    (`#define` and its parameters, a function, type, template parameter, variable,
    member or enumerator of the user's) and that no user rule names: in code, in `#if`
    conditions and in every `#define` body (those that name no known API are parsed
    here). One warning per use; no edit. It counts as an unconverted reference, as
    HIPIFY counts unknown names.
    Real CUDA APIs that HIP lacks and HIPIFY's tables omit get it too: the
    block-scoped atomics (`atomicAdd_block`, ...) and `atomicInc_system` /
    `atomicDec_system` (HIP has the `_system` forms of the other nine).
Legal when:
    Always (a diagnostic).
Not handled:
    A name the user declares only through a macro the parse cannot see into; a member
    access (`s.cudaThing`), which names the user's member, not an API.
Example:
    #if CUDA_VERSION >= 11000   ->   warning: 'CUDA_VERSION' looks like a CUDA API ...
Safety:
    no edit.
"""

from __future__ import annotations

from translator.catalog import WARNING, rule
from translator.cudanames import CUDA_SHAPED
from translator.frontend import Fragment, node_at, unparsed_define_bodies
from translator.ir import WARP_SYNC_BUILTINS
from translator.passes import Context
from translator.passes.hipify.guards import NAMES as GUARD_NAMES
from translator.rules import load_rules
from translator.scan import NAMESPACES, _in_broken_literal

UNKNOWN = rule(
    "H019", "unknown-cuda-api", WARNING, "a name that looks like a CUDA API is in no mapping table", """
The identifier has a CUDA API's shape but no table lists it, and neither the file nor
the tree declares it, so it is left as it is and will most likely not exist under HIP
(`CUDA_VERSION`, `__CUDA_ARCH__`, a block-scoped atomic such as `atomicAdd_block`, which
HIP lacks and HIPIFY's tables omit, an API newer than the tables, a misspelling). Uses in
`#if` conditions and `#define` bodies count. Replace it by hand (`atomicAdd`'s device
scope is a correct, wider replacement for `atomicAdd_block`'s), with a user rule, or
silence it with `// cu2hip: ignore[H019]`.""",
    example="#if CUDA_VERSION >= 11000\nint fast = 1;\n#endif\n", unconverted=True)

_NAME_NODES = frozenset({"identifier", "type_identifier", "namespace_identifier"})
# Declarators and declarations whose `declarator` field is the name they introduce.
_DECLARATORS = frozenset({"function_declarator", "init_declarator", "pointer_declarator", "array_declarator",
                          "declaration", "field_declaration", "type_definition", "parameter_declaration",
                          "optional_parameter_declaration", "for_range_loop"})
# Declarations whose `name` field introduces the name.
_NAMED = frozenset({"preproc_def", "preproc_function_def", "struct_specifier", "class_specifier",
                    "enum_specifier", "union_specifier", "enumerator", "namespace_definition", "alias_declaration",
                    "optional_type_parameter_declaration"})
# Nodes whose every name child is introduced there: a macro's parameters, a template's
# type parameters (`typename T`, `class... Ts`), a structured binding's names, the name
# of a reference (`int &r`, whose declarator tree-sitter gives no field name).
_NAME_LISTS = frozenset({"preproc_params", "type_parameter_declaration", "variadic_type_parameter_declaration",
                         "structured_binding_declarator", "reference_declarator"})


def report_unknown(ctx: Context) -> None:
    """H019 for each use of an unknown CUDA-shaped name."""
    text = ctx.parsed.cleaned
    if not any(CUDA_SHAPED.fullmatch(w) for w in ctx.parsed.words if w[:2] in (b"cu", b"CU", b"__", b"at", b"NV", b"nv")):
        return
    uses = []
    # Declared by the tree, or named by the user's rules (which say what becomes of them).
    declared = set(ctx.options.tree_names) | (load_rules(ctx.options.rules).words if ctx.options.rules else set())
    for frag in [*ctx.parsed.fragments, *_unparsed_bodies(ctx)]:
        for lo, hi in frag.ranges(len(text)):
            for match in CUDA_SHAPED.finditer(text, lo, hi):
                if match.start() and (text[match.start() - 1:match.start()].isalnum()
                                      or text[match.start() - 1] in b"_$"):
                    continue
                name = match.group()
                if _known(ctx, name):
                    continue
                node = node_at(frag.root, match.start() - frag.delta, match.end() - frag.delta)
                if node is None:
                    continue
                if node.type == "field_identifier":     # a member: declared here, or the user's member
                    if _declares(node):
                        declared.add(name)
                    continue
                if node.type not in _NAME_NODES:
                    continue
                if _declares(node):
                    declared.add(name)
                    continue
                if frag.error_sites and _in_broken_literal(text, node, match.start()):
                    continue
                uses.append((match.start(), match.end(), name))
    for start, end, name in sorted(set(uses)):
        if name not in declared:
            written = name.decode("ascii", "replace")
            ctx.report(UNKNOWN, start, f"'{written}' looks like a CUDA API but is in no mapping table; left as it "
                       "is", end=end, subject=written)


def _unparsed_bodies(ctx: Context) -> list[Fragment]:
    """A parse of each `#define` body that the front end left unparsed (it parses those
    naming a known API) and that holds an unknown CUDA-shaped name."""
    text = ctx.parsed.cleaned
    return unparsed_define_bodies(ctx.parsed, lambda lo, hi: any(
        not _known(ctx, m.group()) for m in CUDA_SHAPED.finditer(text, lo, hi)))


def _known(ctx: Context, name: bytes) -> bool:
    text = name.decode("ascii", "replace")
    return ctx.tables.lookup(text) is not None or text in WARP_SYNC_BUILTINS or text in NAMESPACES \
        or text in GUARD_NAMES      # CUDA headers' include guards: H041, H042


def _declares(node) -> bool:
    """Is the node the name a declaration introduces (a macro or its parameter, a
    function, type, template parameter, variable, member, enumerator)?"""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in _NAME_LISTS:
        return parent.type != "preproc_params" or node.type == "identifier"
    if parent.type in _NAMED:
        return parent.child_by_field_name("name") == node
    return parent.type in _DECLARATORS and parent.child_by_field_name("declarator") == node
