"""One rules file's text to rules, with lark: the grammar is `grammars/cu2hip-rules.lark`.

`parse_text` checks what a single statement can get wrong (syntax, the id's format,
parameters); what needs the whole run (ids unique and numbered, two rules on one name)
is `translator.rules.load`'s. Rules without an id come out with `id == ""`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from translator.rules.model import CallRewrite, HeaderMap, Location, Param, Part, Rename, RulesError, Spread, Text

GRAMMAR = "cu2hip-rules.lark"
_ID = re.compile(r"[A-Z]\d{3}\Z")
# How an error message names what the parser wanted, for the grammar's regex terminals.
_DESCRIBED = {"NAME": "a name", "QNAME": "a name", "RULE_ID": "an id", "STRING": "a string",
              "CHAR": "a character", "NUMBER": "a number", "OP": "an operator", "_NL": "end of line",
              "$END": "end of file"}
_EXPRESSION_START = {"NAME", "NUMBER", "STRING", "CHAR", "OP", "LPAR", "LSQB", "LBRACE"}
_STATEMENT_START = {"RENAME", "HEADER", "CALL"}


def grammar_text() -> str:
    """The grammar, from the package (`translator/grammars` is a link to the top-level
    `grammars/` in a checkout, a copy in a wheel), else from the checkout's `grammars/`
    (a checkout whose links were made plain files)."""
    try:
        return (resources.files("translator") / "grammars" / GRAMMAR).read_text(encoding="utf-8")
    except OSError:
        return (Path(__file__).resolve().parents[2] / "grammars" / GRAMMAR).read_text(encoding="utf-8")


@cache
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)


def parse_text(text: str, path: str) -> list[Rename | HeaderMap | CallRewrite]:
    """The rules of one file, in order (RulesError for the first mistake)."""
    if not text.endswith("\n"):
        text += "\n"
    nul = text.find("\0")
    if nul >= 0:
        # In a string it would reach the output, which a second run then takes for a
        # binary file and leaves untranslated (found by the rules campaign).
        line_start = text.rfind("\n", 0, nul) + 1
        raise RulesError(path, text.count("\n", 0, nul) + 1, nul - line_start + 1,
                         "a NUL byte: a rules file is text, and a rule that wrote one would make its output a binary "
                         "file")
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise RulesError(path, exc.line, exc.column, _syntax_message(exc)) from None
    return [_statement(node, text, path) for node in tree.children]


def _syntax_message(exc: UnexpectedInput) -> str:
    if isinstance(exc, UnexpectedCharacters):
        if exc.char in "\"'":
            return f"missing terminating {exc.char} character"
        found, expected = f"character '{exc.char}'", exc.allowed
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        found = _DESCRIBED[token.type] if token.type in ("_NL", "$END") else f"'{token.value}'"
        expected = exc.expected
    else:
        return "syntax error"
    if _STATEMENT_START <= set(expected):
        return f"unexpected {found}; expected a statement: 'rename', 'header' or 'call'"
    names = set(expected)
    words = []
    if _EXPRESSION_START <= names:
        names -= _EXPRESSION_START
        words.append("an argument")
    words += sorted({_describe(name) for name in names})
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"unexpected {found}; expected {listed}"


def _describe(terminal: str) -> str:
    if terminal in _DESCRIBED:
        return _DESCRIBED[terminal]
    pattern = parser().get_terminal(terminal).pattern
    return f"'{pattern.value}'" if isinstance(pattern, PatternStr) else terminal.lower()


def _unquote(token: Token) -> str:
    return re.sub(r"\\(.)", r"\1", token.value[1:-1])


def _at(path: str, item: Token | Tree) -> Location:
    if isinstance(item, Token):
        return Location(path, item.line, item.column)
    return Location(path, item.meta.line, item.meta.column)


def _statement(node: Tree, text: str, path: str) -> Rename | HeaderMap | CallRewrite:
    rule_id, reason, body = "", None, None
    for child in node.children:
        if child.data == "rule_id":
            token = child.children[0]
            if not _ID.match(token.value):
                raise _at(path, token).error(f"bad id '{token.value}': want a capital letter and three digits "
                                             "(U120)")
            rule_id = token.value
        elif child.data == "reason":
            reason = _unquote(child.children[0])
        else:
            body = child
    common = dict(id=rule_id, reason=reason, location=_at(path, node),
                  text=text[body.meta.start_pos:body.meta.end_pos])
    first, second = body.children[0], body.children[-1]
    if body.data == "rename":
        return Rename(first.value, second.value, **common)
    if body.data == "header":
        for token in (first, second):
            if not _unquote(token):
                raise _at(path, token).error("empty header name")
        return HeaderMap(_unquote(first), _unquote(second), **common)
    return _call(body, text, path, common)


def _call(body: Tree, text: str, path: str, common: dict) -> CallRewrite:
    name = body.children[0]
    params = [c for c in body.children if isinstance(c, Tree) and c.data == "param"]
    function = next(c for c in body.children[1:] if isinstance(c, Token))
    arguments = [c for c in body.children if isinstance(c, Tree) and c.data in ("expr", "spread")]
    declared: dict[str, bool] = {}       # name -> variadic
    for i, param in enumerate(params):
        token = param.children[0]
        if token.value in declared:
            raise _at(path, token).error(f"parameter '{token.value}' declared twice")
        variadic = len(param.children) == 2
        if variadic and i != len(params) - 1:
            raise _at(path, token).error(f"variadic parameter '{token.value}...' must be the last")
        declared[token.value] = variadic
    template = tuple(_argument(arg, text, path, declared) for arg in arguments)
    rewrite = CallRewrite(name.value, tuple(declared), any(declared.values()), function.value, template, **common)
    if function.value == name.value and _may_match_itself(rewrite):
        raise _at(path, function).error(f"the right side calls '{name.value}' with arguments this rule matches: "
                                        "it would rewrite its own output")
    return rewrite


def _argument(arg: Tree, text: str, path: str, declared: dict[str, bool]) -> tuple[Part, ...]:
    if arg.data == "spread":
        _check_spread(arg.children[0], path, declared)
        return (Spread(arg.children[0].value),)
    start, end = arg.meta.start_pos, arg.meta.end_pos
    parts: list[Part] = []
    at = start
    for token in arg.children:
        if not isinstance(token, Token) or token.type != "NAME":
            continue
        before, after = text[start:token.start_pos].rstrip(), text[token.end_pos:end].lstrip()
        if after.startswith("..."):
            _check_spread(token, path, declared)
            raise _at(path, token).error(f"'{token.value}...' must be a whole argument on the right")
        if token.value not in declared or before.endswith((".", "->", "::")):
            continue      # a literal name, or a member's
        if declared[token.value]:
            raise _at(path, token).error(f"parameter '{token.value}' is variadic: write '{token.value}...' "
                                         "as a whole argument")
        if token.start_pos > at:
            parts.append(Text(text[at:token.start_pos]))
        bare = (not before or before.endswith(("(", ",", "[", "{"))) and \
            (not after or after.startswith((")", ",", "]", "}")))
        parts.append(Param(token.value, bare))
        at = token.end_pos
    if end > at:
        parts.append(Text(text[at:end]))
    return tuple(parts)


def _check_spread(token: Token, path: str, declared: dict[str, bool]) -> None:
    if token.value not in declared:
        raise _at(path, token).error(f"parameter '{token.value}' is used on the right but not declared")
    if not declared[token.value]:
        raise _at(path, token).error(f"parameter '{token.value}' is not variadic: write '{token.value}'")


def _may_match_itself(rule: CallRewrite) -> bool:
    """Could the call the template builds match the rule again (rounds that never end)?"""
    if any(isinstance(a[0], Spread) for a in rule.arguments):
        return True       # a spread needs a variadic rule, and a long enough tail matches it
    return rule.matches(len(rule.arguments))
