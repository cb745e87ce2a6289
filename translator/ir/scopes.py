"""Whether a name is a local: the scopes between a use and the file's namespace scope.

A kernel is a function of namespace scope; a variable, parameter, template parameter or
member of the same name declared in a scope around a use hides it there (`__global__ void
entropy(float *e) { float entropy = 0; ... }`, `void f(float *__restrict__ lb_keogh)`).
The passes that count a kernel's uses (translator.ir.host_values.launch_facts: the launch
bounds, rebalancing and the launch universe read it) ask `Scopes.local(node)` before
taking an identifier for the kernel.

What hides: a declaration of the name in an enclosing block (before the use, or the
declaration the name is the declarator of), in a `for`'s, `if`'s, `while`'s or
`switch`'s initializer or condition, a range-`for`'s variable, a parameter of the
enclosing function, lambda or declarator, a template parameter, a field of the enclosing
class. A function declaration in a block (`void k(float *);`) declares the kernel again
and hides nothing, unless it is the most vexing parse of an object
(host_values.object_declaration: `dim3 b(T);`). A name whose scopes are deeper than the
walk goes is not a local (the kernel's use is then refused, not missed).
"""

from __future__ import annotations

import bisect

import tree_sitter as ts

_DEPTH = 400                  # ancestors a lookup walks before it answers "not a local"
_FILE_SCOPES = frozenset({"translation_unit", "declaration_list"})     # a namespace's body
_BLOCKS = frozenset({"compound_statement", "field_declaration_list"})
_HEADERS = frozenset({"for_statement", "if_statement", "while_statement", "switch_statement", "condition_clause"})
_DECLARATIONS = frozenset({"declaration", "field_declaration", "parameter_declaration",
                           "optional_parameter_declaration", "variadic_parameter_declaration"})
_WRAPPERS = frozenset({"init_declarator", "pointer_declarator", "reference_declarator", "array_declarator",
                       "parenthesized_declarator", "function_declarator", "attributed_declarator"})


class Scopes:
    """The local names of one parse: `data` its bytes, `parent` its parent function
    (translator.ir.ancestry's, so that walks up cost no tree-sitter searches)."""

    def __init__(self, data: bytes, parent):
        self.data = data
        self.parent = parent
        self._blocks: dict[int, dict[bytes, list[int]]] = {}

    def local(self, name: ts.Node) -> bool:
        """Whether the identifier `name` is, or names, a local (see the module's docstring)."""
        word = self.data[name.start_byte:name.end_byte]
        child, node = name, self.parent(name)
        for _ in range(_DEPTH):
            if node is None or node.type in _FILE_SCOPES:
                return False
            if self._declares(node, child, word, name.start_byte):
                return True
            child, node = node, self.parent(node)
        return False

    def _declares(self, scope: ts.Node, child: ts.Node, word: bytes, at: int) -> bool:
        kind = scope.type
        if kind in _BLOCKS:
            starts = self._block(scope).get(word)
            return bool(starts) and (kind == "field_declaration_list" or bisect.bisect_right(starts, at) > 0)
        if kind in _DECLARATIONS:
            return self._variable(scope, word)          # the use is in this declaration: its own name
        if kind == "for_range_loop":
            return child != scope.child_by_field_name("right") and \
                self._names(scope.child_by_field_name("declarator")) == (word, True)
        if kind in _HEADERS:
            return any(c.start_byte < at and c != child and self._in(c, word) for c in scope.named_children)
        if kind in ("function_definition", "lambda_expression", "function_declarator"):
            declarator = scope if kind == "function_declarator" else scope.child_by_field_name("declarator")
            while declarator is not None and declarator.type not in ("function_declarator", "lambda_declarator",
                                                                     "abstract_function_declarator"):
                declarator = declarator.child_by_field_name("declarator")
            params = declarator.child_by_field_name("parameters") if declarator is not None else None
            return params is not None and any(self._variable(p, word) for p in params.named_children
                                              if p.type in _DECLARATIONS)
        if kind == "template_declaration":
            params = scope.child_by_field_name("parameters")
            return params is not None and any(word in self.data[p.start_byte:p.end_byte].replace(b"...", b" ").split()
                                              for p in params.named_children)
        return False

    def _in(self, node: ts.Node, word: bytes) -> bool:
        """Whether a header's part (a declaration, a condition) declares `word`."""
        if node.type in _DECLARATIONS:
            return self._variable(node, word)
        if node.type == "condition_clause":
            return any(self._in(c, word) for c in node.named_children)
        return False

    def _variable(self, declaration: ts.Node, word: bytes) -> bool:
        return any(self._names(d) == (word, True) for d in declaration.children_by_field_name("declarator"))

    def _block(self, scope: ts.Node) -> dict[bytes, list[int]]:
        """The variables a block's declarations introduce, each with where (in order); read
        once per block, not once per use."""
        held = self._blocks.get(scope.id)
        if held is None:
            held = self._blocks[scope.id] = {}
            for c in scope.named_children:
                if c.type in ("declaration", "field_declaration"):
                    for d in c.children_by_field_name("declarator"):
                        name, variable = self._names(d)
                        if name and variable:
                            held.setdefault(name, []).append(c.start_byte)
        return held

    def _names(self, declarator: ts.Node | None) -> tuple[bytes, bool]:
        """The name a declarator declares, and whether it is a variable (not a function:
        the innermost declarator around the name, parentheses aside, is no function
        declarator, or is the most vexing parse of an object)."""
        from translator.ir.host_values import object_declaration
        node, innermost = declarator, None
        for _ in range(_DEPTH):
            if node is None:
                return b"", False
            if node.type in ("identifier", "field_identifier"):
                variable = innermost is None or innermost.type != "function_declarator" or \
                    object_declaration(self.data, innermost, node)
                return self.data[node.start_byte:node.end_byte], variable
            if node.type not in _WRAPPERS:
                return b"", False
            if node.type not in ("parenthesized_declarator", "init_declarator"):
                innermost = node
            inner = node.child_by_field_name("declarator")
            if inner is None:
                inner = next((c for c in node.named_children if c.type != "comment"), None)
            node = inner
        return b"", False
