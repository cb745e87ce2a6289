"""What the runtime pass knows about a host loop: its body's statements, the
acquire/release pairs in it (an allocation and its free, a handle's creation and its
destruction), and the facts that make moving a pair out of the loop legal.

A pair is hoisted (acquired once before the loop, released once after it) when every
one of these is proved, and refused with the first that is not:

* the loop is a `for`/`while`/`do` statement of a host function, directly in a block
  (inserting before it keeps it where it was), and runs at least once (a `do` loop, or a
  `for` loop whose first and last values are known: hoisted, a loop that runs zero times
  would allocate where the original does not), or is a `for (T i = start; i OP bound; ...)`
  loop (T a built-in arithmetic type or a name of an integer typedef: `size_t`, `std::uint32_t`,
  `uint`) whose `start` and `bound` are loop-invariant (as the
  size below): the pair then moves under `if (start OP bound)`, the condition of its first
  iteration, which has the same value just before the loop and just after it
  (first_iteration); a loop known to run zero times is left alone;
* the acquisition is a statement of the loop's body itself (not nested in an `if`), as
  `f(&p, ...)`, or one error-check macro or function around that call, `CHECK(f(&p, ...))`;
* the release is a statement of the body after it, of the same form, and nothing but
  other releases follows it: every iteration that acquires releases;
* no `break`, `continue`, `return`, `goto` or `throw` in the body (outside nested loops
  and switches for the first two, outside lambdas for all): none skips the release;
* its other arguments (the size, the flags, a plan's dimensions) are loop-invariant:
  literals, `sizeof`, arithmetic and casts of constants, and of locals declared outside
  the loop whose address is never taken, that have no other name in the function (bound
  to a reference that is not const, `int& m = n;`, or captured by reference by a lambda,
  `[&n]`, `[&]`) and that nothing in the loop writes, the macros it uses expanded
  (translator.ir.writes accounts for every write; a global may be written by any call);
* a release that synchronises the device (`cudaFree`, `cudaFreeHost`, `cublasDestroy`,
  `cufftDestroy`) keeps what its wait ordered (host reads, other streams):
  translator.passes.runtime.ordering proves it;
* the pointer or handle does not escape the iteration: it is declared in the body
  before the acquisition (a declaration no earlier loop of the same block has moved out
  under the same name: the two would clash; or outside the loop, and named nowhere else
  in the function before the loop), not used before the acquisition, and every use between is an
  argument of a launch or of the CUDA runtime or libraries' calls (which keep nothing),
  a launch's stream, or an element access `p[i]`; never assigned, stored, returned,
  passed to a function of the program, or taken by address again.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

import tree_sitter as ts

from translator.ir.ancestry import ancestry
from translator.ir.nodes import call_of, descendants, hits
from translator.ir.types import INTEGERS
from translator.ir.writes import captured_by_reference

LOOPS = ("for_statement", "while_statement", "do_statement")
_JUMPS = {"break_statement": "break", "continue_statement": "continue", "return_statement": "return",
          "goto_statement": "goto", "throw_expression": "throw", "co_return_statement": "co_return"}
# Calls that read their arguments and keep none of them: the runtime's and the libraries'
# C APIs (a handle or a pointer passed to them is used, not stored).
_LIBRARY = re.compile(r"(cuda|cublas|cufft|curand|cusparse|cusolver|cudnn)[A-Z]\w*\Z")
# The constants of the CUDA headers (enumerators, macros): no program writes them.
_API_CONSTANT = re.compile(r"(cuda|CUDA|cufft|CUFFT|cublas|CUBLAS|curand|CURAND)[A-Za-z0-9_]*\Z")
# Arithmetic that reads its operands (in a loop-invariant expression).
_INVARIANT_KINDS = frozenset({"number_literal", "identifier", "sizeof_expression", "binary_expression",
                              "parenthesized_expression", "cast_expression", "field_expression",
                              "qualified_identifier", "true", "false", "type_descriptor", "char_literal"})


def text(data: bytes, node: ts.Node | None) -> str:
    return "" if node is None else data[node.start_byte:node.end_byte].decode("utf-8", "replace")


_FRESH: list = [None, {}]      # the last `words` asked about, and each name's first suffix not known taken


def fresh(words, name: str) -> str:
    """`name`, or `name_2`, `name_3`...: the first that is not a word of the file. The
    suffixes found taken in the last set of words asked about are not tried again (the
    sets only grow: each rewrite adds its names), so that a function of many loops, each
    naming its graph, does not try every earlier loop's name again."""
    if _FRESH[0] is not words:
        _FRESH[:] = [words, {}]
    k = _FRESH[1].get(name, 1)
    candidate = name if k == 1 else f"{name}_{k}"
    while candidate.encode() in words:
        k += 1
        candidate = f"{name}_{k}"
    _FRESH[1][name] = k
    return candidate


def line_of(data: bytes, node: ts.Node) -> int:
    """The 1-based line the node starts on (for messages)."""
    return data.count(b"\n", 0, node.start_byte) + 1


def walk(node: ts.Node) -> list[ts.Node]:
    """The node and all its descendants (named or not), in document order."""
    return descendants(node, named=False)


def names_pattern(names) -> re.Pattern:
    """A pattern of the names, for calls_named."""
    return re.compile(rb"(?:%s)\b" % b"|".join(re.escape(n.encode()) for n in sorted(names, key=len, reverse=True)))


def calls_named(parsed, pattern: re.Pattern):
    """The call expressions of the file's tree whose callee is a name `pattern` finds
    (bare or qualified), in document order: a hit in a comment, a string or a macro's
    body has no node of its range and drops out; no tree walk."""
    frag = parsed.main
    for _, node in hits(parsed, frag, pattern, 0, len(parsed.data)):
        if node.type == "identifier" and (call := call_of(node, frag)) is not None:
            yield call


@dataclass
class Call:
    """An acquisition or a release: the statement, the call, its callee and arguments."""
    statement: ts.Node
    call: ts.Node
    name: str
    arguments: list[ts.Node]


def call_of_statement(data: bytes, statement: ts.Node, names) -> Call | None:
    """The call of one of `names` that the expression statement is, bare or as the one
    argument of an error-check macro or function (`CHECK(cudaMalloc(&p, n))`)."""
    if statement.type != "expression_statement" or statement.named_child_count != 1:
        return None
    call = statement.named_children[0]
    for _ in range(2):
        if call.type != "call_expression":
            return None
        callee = text(data, call.child_by_field_name("function"))
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        if callee in names:
            return Call(statement, call, callee, args)
        if len(args) != 1:
            return None
        call = args[0]
    return None


def host_function(data: bytes, node: ts.Node, frag=None) -> ts.Node | None:
    """The host function definition around `node` (None inside a kernel or device function).
    With the node's fragment, found from the fragment's Ancestry: a node thousands of
    blocks deep costs no walk of `.parent` (each of which costs the depth)."""
    if frag is not None:
        parent = ancestry(frag).parent(node)
        n = ancestry(frag).function_of(parent) if parent is not None else None
    else:
        n = node.parent
        while n is not None and n.type != "function_definition":
            n = n.parent
    if n is None:
        return None
    body = n.child_by_field_name("body")
    head = data[n.start_byte:body.start_byte if body is not None else n.end_byte]
    return None if re.search(rb"\b__(global|device)__\b", head) else n


def loop_body(loop: ts.Node) -> ts.Node | None:
    body = loop.child_by_field_name("body")
    return body if body is not None and body.type == "compound_statement" else None


def statements(body: ts.Node) -> list[ts.Node]:
    return [c for c in body.named_children if c.type != "comment"]


def jump_in(body: ts.Node) -> ts.Node | None:
    """A statement of the body that leaves an iteration early (break and continue of
    nested loops and switches stay inside them), the first in source order. A walk with
    its own stack: a body nested thousands of blocks deep is no RecursionError."""
    stack = [(c, False, False) for c in reversed(body.children)]
    while stack:
        node, in_loop, in_switch = stack.pop()
        kind = node.type
        if kind == "lambda_expression":
            continue
        if kind == "break_statement" and (in_loop or in_switch):
            continue
        if kind == "continue_statement" and in_loop:
            continue
        if kind in _JUMPS:
            return node
        in_loop, in_switch = in_loop or kind in LOOPS, in_switch or kind == "switch_statement"
        stack.extend((c, in_loop, in_switch) for c in reversed(node.children))
    return None


def trip_proof(values, data: bytes, loop: ts.Node) -> str:
    """How the loop is known to run once at least (after runs_once said it does)."""
    if loop.type == "do_statement":
        return "a do loop runs at least once"
    init, cond = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
    start = init.child_by_field_name("right") if init.type == "assignment_expression" else \
        init.children_by_field_name("declarator")[0].child_by_field_name("value")
    first, last = values.evaluate(start), values.evaluate(cond.child_by_field_name("right"))
    op = text(data, cond.child_by_field_name("operator"))
    return f"the loop runs at least once ({first.values[0]} {op} {last.values[0]})"


def runs_once(values, data: bytes, loop: ts.Node) -> str | None:
    """None when the loop provably runs at least once, else the missing fact."""
    if loop.type == "do_statement":
        return None
    if loop.type != "for_statement":
        return "a while loop's trip count is not known: it may run zero times"
    init, cond = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
    if init is None or cond is None or cond.type != "binary_expression":
        return "the for loop has no counter condition: it may run zero times"
    var = start = None
    if init.type == "declaration":
        ds = init.children_by_field_name("declarator")
        if len(ds) == 1 and ds[0].type == "init_declarator":
            var, start = ds[0].child_by_field_name("declarator"), ds[0].child_by_field_name("value")
    elif init.type == "assignment_expression" and text(data, init.child_by_field_name("operator")) == "=":
        var, start = init.child_by_field_name("left"), init.child_by_field_name("right")
    op, left, right = (text(data, cond.child_by_field_name("operator")), cond.child_by_field_name("left"),
                       cond.child_by_field_name("right"))
    if var is None or start is None or text(data, left) != text(data, var) or op not in ("<", "<=", "!="):
        return f"the loop's condition '{text(data, cond)}' is not a bound of its counter: it may run zero times"
    first, last = values.evaluate(start), values.evaluate(right)
    if not first.known or not last.known:
        why = first.reason if not first.known else last.reason
        return f"the loop's bounds are not known ({why}): it may run zero times"
    a, b = min(first.values), max(last.values)
    runs = a < b if op in ("<", "!=") else a <= b
    if len(first.values) == 1 == len(last.values) and not (a < b if op == "<" else a != b if op == "!=" else a <= b):
        return f"the loop '{text(data, cond)}' never runs ({a} {op} {b} is false)"
    if not runs or len(first.values) > 1 or len(last.values) > 1:
        return f"the loop '{text(data, cond)}' may run zero times"
    return None


_GUARD_OPERATORS = ("<", "<=", "!=", ">", ">=")
# A counter's type written as a typedef of an integer: every name of ir.types' table (std::-qualified
# fixed-width types included) and CUDA's `uint`.
_INTEGER_TYPEDEFS = frozenset(INTEGERS) | {"uint"}
_SIMPLE = ("identifier", "number_literal", "field_expression", "parenthesized_expression", "qualified_identifier")


def builtin_counter(kind: ts.Node, type_name: str) -> bool:
    """Whether a loop counter's type (its node, and its text with single spaces) is a
    built-in arithmetic type or a typedef of an integer (`_INTEGER_TYPEDEFS`): what R001 and
    R003's first-iteration guard and R012's capture (translator.passes.runtime.graphs) accept."""
    return kind.type in ("primitive_type", "sized_type_specifier") or type_name in _INTEGER_TYPEDEFS


def first_iteration(values, data: bytes, loop: ts.Node) -> tuple[str | None, str | None]:
    """(the condition of the loop's first iteration, None) or (None, why it is not known
    before the loop). A `for (T i = start; i OP bound; ...)` loop, one counter declared
    in its initializer, runs its first iteration when `start OP bound` holds with `start`
    converted to T: `start` and `bound` loop-invariant (their names are not written in
    the loop, have no other name, are not globals; no call, no memory read), so that the
    condition has the same value just before the loop and just after it."""
    if loop.type != "for_statement":
        return None, "it is not a for loop whose first iteration's condition can be written before it"
    init, cond = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
    if init is None or init.type != "declaration" or cond is None or cond.type != "binary_expression":
        return None, "its counter is not declared in its initializer and compared in its condition"
    ds = init.children_by_field_name("declarator")
    if len(ds) != 1 or ds[0].type != "init_declarator":
        return None, "its initializer does not declare one counter with a value"
    var, start = ds[0].child_by_field_name("declarator"), ds[0].child_by_field_name("value")
    kind = init.child_by_field_name("type")
    op, left, right = (text(data, cond.child_by_field_name("operator")), cond.child_by_field_name("left"),
                       cond.child_by_field_name("right"))
    if var is None or var.type != "identifier" or start is None or kind is None or \
            text(data, left) != text(data, var) or op not in _GUARD_OPERATORS:
        return None, f"its condition '{text(data, cond)}' is not a bound of its counter"
    type_name = " ".join(text(data, kind).split())
    if any(c.type in ("type_qualifier", "storage_class_specifier") for c in init.children):
        return None, f"its counter's declaration '{text(data, init)}' has qualifiers"
    if not (builtin_counter(kind, type_name) or type_name == "auto" and start.type == "number_literal"):
        return None, f"its counter's type '{type_name}' is not a built-in arithmetic type"
    for part, what in ((start, "first value"), (right, "bound")):
        why = invariant(values, data, loop, part)
        if why is not None:
            return None, f"its {what} '{text(data, part)}' is not loop-invariant ({why})"
    first = text(data, start)
    if not (type_name == "auto" or type_name == "int" and start.type == "number_literal"
            and re.fullmatch(r"\d{1,9}", first)):
        first = f"({type_name}){first if start.type in _SIMPLE else '(' + first + ')'}"
    bound = text(data, right)
    if right.type not in _SIMPLE:
        bound = f"({bound})"
    return f"{first} {op} {bound}", None


DECLARING = ("declaration", "parameter_declaration", "for_range_loop", "condition_clause")


def declared_names(data: bytes, n: ts.Node):
    """The names one node of `DECLARING` declares."""
    for d in n.children_by_field_name("declarator"):
        while d is not None and d.type not in ("identifier",):
            d = d.child_by_field_name("declarator")
        if d is not None:
            yield text(data, d)


def declared_in(data: bytes, scope: ts.Node, name: str) -> ts.Node | None:
    """A declarator of `name` inside `scope` (a declaration, a parameter, a for's init)."""
    for n in walk(scope):
        if n.type in DECLARING and name in declared_names(data, n):
            return n
    return None


_FILE_NAMES: list = [None, None, frozenset()]      # the last file's root, its text, and the names it declares


def declared_in_file(data: bytes, root: ts.Node, name: str) -> bool:
    """Does any declaration of the file (its tree's `root`) declare `name`? The names are
    gathered once per tree (a question per API constant of every loop walked the whole
    file: the square of its size)."""
    if _FILE_NAMES[0] is not root or _FILE_NAMES[1] is not data:
        _FILE_NAMES[:] = [root, data, frozenset(x for n in walk(root) if n.type in DECLARING
                                                for x in declared_names(data, n))]
    return name in _FILE_NAMES[2]


class Index:
    """A subtree's identifiers, declarations, calls and `&` expressions by name, each list
    in document order: the questions asked of a whole function for every loop of it (is
    this name declared, its address taken, bound to another name; is a stream captured)
    cost a look-up, not a walk of the function (N loops of one function cost N walks of
    it: the square of its size)."""

    __slots__ = ("identifiers", "declaring", "addresses", "calls", "lambdas", "memo")

    def __init__(self, data: bytes, node: ts.Node) -> None:
        identifiers: dict[str, list[ts.Node]] = {}
        declaring: dict[str, list[ts.Node]] = {}
        addresses: dict[str, list[ts.Node]] = {}
        calls: dict[str, list[tuple[int, ts.Node]]] = {}
        lambdas = 0
        for position, n in enumerate(walk(node)):
            kind = n.type
            if kind == "identifier":
                identifiers.setdefault(text(data, n), []).append(n)
            elif kind in DECLARING:
                for name in dict.fromkeys(declared_names(data, n)):
                    declaring.setdefault(name, []).append(n)
            elif kind == "call_expression":
                calls.setdefault(text(data, n.child_by_field_name("function")), []).append((position, n))
            elif kind == "pointer_expression" and text(data, n.child_by_field_name("operator")) == "&":
                addresses.setdefault(text(data, n.child_by_field_name("argument")), []).append(n)
            elif kind == "lambda_expression":
                lambdas += 1
        self.identifiers, self.declaring, self.addresses, self.calls = identifiers, declaring, addresses, calls
        self.lambdas = lambdas      # how many lambda expressions the subtree holds
        self.memo: dict = {}       # other answers about the subtree, by their callers' keys

    def declared(self, name: str) -> ts.Node | None:
        """declared_in(data, node, name): the first declaration of `name` in the subtree."""
        found = self.declaring.get(name)
        return found[0] if found else None

    def first_call(self, names) -> ts.Node | None:
        """The first call (in document order) whose callee is written as one of `names`."""
        found = [self.calls[name][0] for name in names if name in self.calls]
        return min(found, key=lambda item: item[0])[1] if found else None


_INDEXES: list = [None, {}]     # the text the indexes are of, and {node: its Index}


def index(data: bytes, node: ts.Node) -> Index:
    """The Index of `node`'s subtree, made once per node of the last text asked about."""
    if _INDEXES[0] is not data:
        _INDEXES[:] = [data, {}]
    table = _INDEXES[1]
    found = table.get(node)
    if found is None:
        found = table[node] = Index(data, node)
    return found


def invariant(values, data: bytes, loop: ts.Node, expr: ts.Node, taken_ok=None) -> str | None:
    """None when `expr` has the same value at every iteration of `loop`, else why not.
    `taken_ok(node)`: an `&name` that keeps nothing (a runtime call's output argument
    before the loop), where the caller knows one."""
    callees = values.callees
    function: ts.Node | None | bool = False         # (not looked up yet)
    for n in walk(expr):
        if n.type == "call_expression":
            if _constructs_dim3(data, values, n):
                continue        # `dim3(x, y)`: a value made of its arguments, which the walk goes on to
            return f"'{text(data, n)}' is a call: its value may change per iteration"
        if n.parent is not None and n.parent.type in ("call_expression", "argument_list") and \
                _constructs_dim3(data, values, n.parent if n.parent.type == "call_expression" else n.parent.parent) \
                and (n.type == "argument_list" or n == n.parent.child_by_field_name("function")):
            continue
        if n.is_named and n.type not in _INVARIANT_KINDS and n.parent is not None \
                and n.parent.type not in ("sizeof_expression", "type_descriptor", "cast_expression") \
                and not n.type.endswith("type") and n.type not in ("field_identifier",):
            return f"'{text(data, n)}' is not a plain expression of names and numbers"
        if n.type == "pointer_expression" or n.type == "subscript_expression" or \
                n.type == "field_expression" and text(data, n.child_by_field_name("operator")) == "->":
            return f"'{text(data, n)}' reads memory, which the loop may change"
        if n.type != "identifier" or (n.parent is not None and n.parent.type == "field_expression"
                                      and n.parent.child_by_field_name("field") == n):
            continue
        name = text(data, n)
        in_loop = index(data, loop)
        if in_loop.declared(name) is not None:
            return f"'{name}' is declared in the loop: its value changes per iteration"
        if function is False:       # (the fragment's Ancestry: no walk of `.parent`, which costs the depth)
            function = host_function(data, loop, values.parsed.main if values.parsed.data is data else None)
        if function is None or index(data, function).declared(name) is None:
            if _API_CONSTANT.match(name) and not declared_in_file(data, values.root, name):
                continue        # an enumerator or macro of the runtime's or a library's headers
            if not values.evaluate(n).known:
                return f"'{name}' is not a local of the function: a call in the loop may write it"
            continue
        taken = next((u for u in index(data, function).addresses.get(name, ())
                      if not (taken_ok is not None and taken_ok(u))), None)
        if taken is not None:
            line = line_of(data, taken)
            return f"'{name}' has its address taken (line {line}): a call in the loop may write it through that"
        for use in in_loop.identifiers.get(name, ()):
            why = _write(data, use, callees)
            if why is not None:
                line = line_of(data, use)
                return f"'{name}' is written in the loop (line {line}: {why})"
        why = other_name(data, function, name, callees) or macro_write(values, data, loop, name)
        if why is not None:
            return why
    return None


def _constructs_dim3(data: bytes, values, call: ts.Node | None) -> bool:
    """`call` is `dim3(...)` (the runtime's type, which the file does not declare): it makes a
    value of its arguments and reads nothing else."""
    if call is None or call.type != "call_expression":
        return False
    function = call.child_by_field_name("function")
    return function is not None and function.type == "identifier" and text(data, function) == "dim3" and \
        not declared_in_file(data, values.root, "dim3")


_ASSIGNING_TOKENS = frozenset({"=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&"})


def other_name(data: bytes, function: ts.Node, name: str, callees) -> str | None:
    """Why the local `name` may be written under another name anywhere in `function`: it is
    bound to a reference that is not const (`int& m = n;`, a range-for's `auto&`), or a
    lambda captures it by reference (`[&n]`, or `[&]` with `n` in its body), or None.
    Answered once per function, name and callees (asked for every loop of the function)."""
    memo = index(data, function).memo
    key = ("other_name", name)
    known = memo.get(key)
    if known is not None and known[0] is callees:
        return known[1]
    why = _other_name(data, function, name, callees)
    memo[key] = (callees, why)
    return why


def _other_name(data: bytes, function: ts.Node, name: str, callees) -> str | None:
    found = index(data, function)
    for use in found.identifiers.get(name, ()):
        parent = use.parent
        if parent is not None and parent.type == "lambda_capture_specifier":
            if captured_by_reference(data, use, _parent) is not None:
                return f"a lambda captures '{name}' by reference (line {line_of(data, use)}): calling it may write it"
            continue
        # (no lambda around the use: no walk up, which costs the depth)
        captured = captured_by_reference(data, use, _parent, function) if found.lambdas else None
        if captured is not None and not _declared_names_within(data, captured[1], name):
            return (f"a lambda (line {line_of(data, captured[1])}) captures everything by reference and uses "
                    f"'{name}': calling it may write it")
        why = write_of_alias(data, use, callees)
        if why is not None:
            return f"'{name}' has another name (line {line_of(data, use)}: {why}): a write through it changes '{name}'"
    return None


def _parent(node: ts.Node) -> ts.Node | None:
    return node.parent


def _declared_names_within(data: bytes, scope: ts.Node, name: str) -> bool:
    body = scope.child_by_field_name("body")
    return body is not None and declared_in(data, body, name) is not None


def write_of_alias(data: bytes, use: ts.Node, callees) -> str | None:
    """The write accounting's reason when `use` binds its variable to a reference that is
    not const, else None."""
    why = _write(data, use, callees)
    return why if why is not None and "bound to a reference" in why else None


def macro_write(values, data: bytes, loop: ts.Node, name: str) -> str | None:
    """Why a macro used in `loop` may write `name` (its body, expanded, names it and holds an
    assignment, `++`, `--` or `&`; or the macro has several definitions), or None."""
    from translator.facts import Unknown
    from translator.ir import macros
    table = values.table
    if not table.names:
        return None
    frag = values.parsed.main
    for macro, node in macros.uses(table, frag, data, loop):
        definition = table.get(macro)
        if isinstance(definition, Unknown):
            return f"the macro {macro} (line {line_of(data, node)}) may write '{name}': {definition.reason}"
        # The body's own tokens, its macros expanded (a function-like macro's arguments are
        # the tree's, whose writes are accounted for above); unexpandable (redefinable on
        # the compile line, `#`/`##`): its body as written.
        expansion = table.expand(definition.body)
        params = set(definition.params or ())
        found = [t for t in macros.tokens(definition.body if isinstance(expansion, Unknown) else expansion.value)
                 if t not in params]
        if name in found and _ASSIGNING_TOKENS.intersection(found):
            return (f"'{name}' is written in the loop by the macro {macro} (line {line_of(data, node)}), which expands "
                    f"to '{' '.join(found)}'")
    return None


def _write(data: bytes, use: ts.Node, callees) -> str | None:
    from translator.ir.writes import write_of
    parent = use.parent
    if parent is not None and parent.type == "argument_list" and parent.parent is not None \
            and any(c.type == "kernel_call_syntax" for c in parent.parent.children):
        return None         # a kernel's arguments are passed by value
    return write_of(data, use, lambda n: n.parent, callees)


def escape(data: bytes, body: ts.Node, acquire: Call, release: Call, name: str, kernels) -> str | None:
    """None when every use of `name` in the body, between the acquisition and the
    release, is one that keeps nothing (see the module's docstring), else the use."""
    for use in walk(body):
        if use.type != "identifier" or text(data, use) != name:
            continue
        if acquire.call.start_byte <= use.start_byte < acquire.call.end_byte:
            continue
        if release.call.start_byte <= use.start_byte < release.call.end_byte:
            continue
        line = line_of(data, use)
        parent = use.parent
        if parent is not None and parent.type in ("pointer_declarator", "declaration") or \
                parent is not None and parent.type == "init_declarator" and parent.child_by_field_name("declarator") == use:
            continue        # its declaration (hoist checks which)
        if use.start_byte < acquire.statement.start_byte:
            return f"'{name}' is used before it is acquired (line {line})"
        if use.start_byte > release.statement.end_byte:
            return f"'{name}' is used after it is released (line {line})"
        if parent is not None and parent.type == "subscript_expression" and parent.child_by_field_name("argument") == use:
            holder = parent.parent
            if holder is not None and holder.type == "pointer_expression":
                return f"'&{text(data, parent)}' takes an address into it (line {line})"
            continue
        if parent is not None and parent.type == "binary_expression" and text(data, parent.child_by_field_name("operator")) in ("+", "-"):
            parent = parent.parent      # `p + k`: the expression is the use
        if parent is not None and parent.type == "kernel_call_syntax":
            continue
        if parent is not None and parent.type == "argument_list":
            call = parent.parent
            callee = text(data, call.child_by_field_name("function")) if call is not None else ""
            launch = call is not None and any(c.type == "kernel_call_syntax" for c in call.children)
            if launch or _LIBRARY.match(callee):
                continue
            return f"'{name}' is passed to {callee or 'a call'}, which may keep it (line {line})"
        if parent is not None and parent.type == "return_statement":
            return f"'{name}' is returned (line {line})"
        if parent is not None and parent.type in ("assignment_expression", "init_declarator"):
            return f"'{text(data, parent)}' stores or overwrites it (line {line})"
        return f"'{text(data, parent if parent is not None else use)}' uses it in a way that may keep it (line {line})"
    return None


def target_of(data: bytes, argument: ts.Node) -> str | None:
    """`p` of `&p` or `(void**)&p`."""
    while argument.type == "cast_expression":
        argument = argument.child_by_field_name("value")
    if argument.type == "parenthesized_expression" and argument.named_child_count == 1:
        return target_of(data, argument.named_children[0])
    if argument.type == "pointer_expression" and text(data, argument.child_by_field_name("operator")) == "&":
        inner = argument.child_by_field_name("argument")
        if inner is not None and inner.type == "identifier":
            return text(data, inner)
    return None


def _declares(data: bytes, scope: ts.Node, name: str) -> bool:
    """`scope` (a block, a for statement) declares `name` itself, not in a nested block.
    The names are gathered once per scope (a block of N loops is asked N times)."""
    memo = index(data, scope).memo
    names = memo.get("declares")
    if names is None:
        items = scope.named_children
        if scope.type == "for_statement":
            items = [scope.child_by_field_name("initializer")]
        names = memo["declares"] = frozenset(x for s in items if s is not None and s.type == "declaration"
                                             for n in walk(s) if n.type in DECLARING
                                             for x in declared_names(data, n))
    return name in names


def clash(data: bytes, loop: ts.Node, name: str, function: ts.Node) -> str | None:
    """Why a declaration of `name` moved from the loop's body to just before the loop would
    change what another `name` means, or None: the loop's block declares it too, it is a
    parameter of the function whose body is that block, or a use after the loop in that
    block names an outer `name` (not one a nested block or for statement declares)."""
    block = loop.parent
    if _declares(data, block, name):
        return f"the loop's block declares '{name}' too: moved out, the declaration would clash"
    if block == function.child_by_field_name("body"):
        declarator = function.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        if params is not None and declared_in(data, params, name) is not None:
            return f"'{name}' is a parameter of the function: moved out, the declaration would clash"
    starts, uses = _outer_uses(data, block, name)
    at = bisect_left(starts, loop.end_byte)
    if at < len(uses):
        line = line_of(data, uses[at])
        return f"'{name}' is named after the loop (line {line}): moved out, the declaration would change what it names"
    return None


def _outer_uses(data: bytes, block: ts.Node, name: str):
    """The uses of `name` in `block` that name what the block's scope names (no nested
    block or for statement declares it), and their starts: found once per block and name
    (a block of N loops is asked N times)."""
    memo = index(data, block).memo
    key = ("outer uses", name)
    found = memo.get(key)
    if found is None:
        uses = []
        for n in index(data, block).identifiers.get(name, ()):
            scope, shadowed = n.parent, False
            while scope is not None and scope != block:
                if scope.type in ("compound_statement", "for_statement") and _declares(data, scope, name):
                    shadowed = True
                    break
                scope = scope.parent
            if not shadowed:
                uses.append(n)
        found = memo[key] = ([n.start_byte for n in uses], uses)
    return found


# Releases that synchronise the device as a side effect (cudaFree and cudaFreeHost wait
# for the device; cublasDestroy calls cudaDeviceSynchronize, as cuBLAS documents; a cuFFT
# plan's destruction frees its work area).
SYNCHRONISING_RELEASES = frozenset({"cudaFree", "cudaFreeHost", "cublasDestroy", "cublasDestroy_v2", "cufftDestroy"})
