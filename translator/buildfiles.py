"""The front end of build files: which files are CMake or Make, and their tokens with
exact byte spans (the build-file passes edit those spans, never a reprinted file).

CMake (`CMakeLists.txt`, `*.cmake`) is read as cmake-language(7) defines it: command
invocations `name(args)`, whose arguments are bracket (`[=[...]=]`), quoted (`"..."`,
with `\\` escapes) or unquoted (`${VAR}`, `$<genex>`, escapes), nested parentheses
counted; line comments `# ...` and bracket comments `#[[...]]`.

Make (`Makefile`, `makefile`, `GNUmakefile`, `*.mk`) is read line by line as GNU make
reads it: logical lines (a backslash before the newline continues one), comments,
variable assignments (`=`, `:=`, `::=`, `?=`, `+=`, `!=`, with `override`/`export`,
target-specific ones after `target:`), rule lines, recipe lines (a tab first, or the
character `.RECIPEPREFIX` names, after a rule), `define ... endef` bodies, conditionals and includes.

`words` splits a span into shell-like words (whitespace and, for CMake lists, `;`
separate; `$(...)`, `${...}`, `$<...>` and quotes stay whole): the flags and names the
passes translate.

Why a tokenizer of our own and not PyPI's tree-sitter grammars (tree-sitter-cmake
0.7.2, tree-sitter-make 1.1.1, both checked): what the passes translate are words inside
arguments, variable values and recipes; tree-sitter-make keeps recipes and values as
opaque shell text and tree-sitter-cmake stops at the argument, so both would still need
this word splitter, and the two grammars that remain (CMake's three argument forms and
comments, Make's logical lines) are a page each, specified exactly by their manuals,
with no native wheels to add.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# What a build file is, by its name: translator.source's (the workspace reads it without this module).
from translator.source import BUILD_KINDS, CMAKE, MAKE, build_kind  # noqa: F401 (the API)


class BuildSyntaxError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(offset, message)
        self.offset, self.message = offset, message


@dataclass(frozen=True)
class Word:
    start: int
    end: int
    text: bytes

    @property
    def unquoted(self) -> bytes:
        """The text without surrounding quotes of a whole-quoted word."""
        t = self.text
        return t[1:-1] if len(t) >= 2 and t[:1] in (b'"', b"'") and t[-1:] == t[:1] else t


# ---------------------------------------------------------------------------------------
# CMake

@dataclass(frozen=True)
class Arg:
    start: int          # the whole argument, quotes or brackets included
    end: int
    kind: str           # "unquoted", "quoted", "bracket"
    inner: tuple[int, int]   # its content (inside the quotes or brackets)
    text: bytes         # the content


@dataclass(frozen=True)
class Command:
    name: bytes         # as written
    start: int          # the name's first byte
    name_end: int
    open: int           # offset of "("
    end: int            # offset after ")"
    args: tuple[Arg, ...]

    @property
    def lower(self) -> str:
        return self.name.decode("ascii", "replace").lower()


@dataclass
class CMakeFile:
    commands: list[Command] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)


_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_BOM = b"\xef\xbb\xbf"
_BRACKET_OPEN = re.compile(rb"\[(=*)\[")


def parse_cmake(data: bytes) -> CMakeFile:
    """The commands and comments of a CMake file; BuildSyntaxError where it cannot be read."""
    out = CMakeFile()
    i, n = len(_BOM) if data.startswith(_BOM) else 0, len(data)    # CMake reads past a UTF-8 BOM
    while i < n:
        c = data[i:i + 1]
        if c in b" \t\r\n":
            i += 1
        elif c == b"#":
            i = _cmake_comment(data, i, out)
        else:
            m = _IDENT.match(data, i)
            if m is None:
                raise BuildSyntaxError(i, f"expected a command name, found {data[i:i + 1].decode('latin-1')!r}")
            j = m.end()
            while j < n and data[j:j + 1] in b" \t":
                j += 1
            if data[j:j + 1] != b"(":
                raise BuildSyntaxError(j, f"expected '(' after {m.group().decode()}")
            args, end = _cmake_args(data, j + 1, out)
            out.commands.append(Command(m.group(), i, m.end(), j, end, tuple(args)))
            i = end
    return out


def _cmake_comment(data: bytes, i: int, out: CMakeFile) -> int:
    m = _BRACKET_OPEN.match(data, i + 1)
    if m:
        close = b"]" + m.group(1) + b"]"
        end = data.find(close, m.end())
        if end < 0:
            raise BuildSyntaxError(i, "bracket comment is not closed")
        out.comments.append((i, end + len(close)))
        return end + len(close)
    end = data.find(b"\n", i)
    end = len(data) if end < 0 else end
    out.comments.append((i, end))
    return end


def _cmake_args(data: bytes, i: int, out: CMakeFile) -> tuple[list[Arg], int]:
    """The arguments from just after "(" to the matching ")"; returns them and the offset
    after ")". Nested parentheses are arguments' syntax, not arguments."""
    args: list[Arg] = []
    depth, n, opened = 0, len(data), i - 1
    while i < n:
        c = data[i:i + 1]
        if c in b" \t\r\n;":
            i += 1
        elif c == b"(":
            depth += 1
            i += 1
        elif c == b")":
            if depth == 0:
                return args, i + 1
            depth -= 1
            i += 1
        elif c == b"#":
            i = _cmake_comment(data, i, out)
        elif c == b'"':
            j = i + 1
            while j < n and data[j:j + 1] != b'"':
                j += 2 if data[j:j + 1] == b"\\" else 1
            if j >= n:
                raise BuildSyntaxError(i, "quoted argument is not closed")
            args.append(Arg(i, j + 1, "quoted", (i + 1, j), data[i + 1:j]))
            i = j + 1
        elif c == b"[" and (m := _BRACKET_OPEN.match(data, i)):
            close = b"]" + m.group(1) + b"]"
            end = data.find(close, m.end())
            if end < 0:
                raise BuildSyntaxError(i, "bracket argument is not closed")
            args.append(Arg(i, end + len(close), "bracket", (m.end(), end), data[m.end():end]))
            i = end + len(close)
        else:
            j, nest = i, 0
            while j < n:
                d = data[j:j + 1]
                if d == b"\\":
                    j += 2
                    continue
                if d in b"<{" and data[j - 1:j] == b"$":
                    nest += 1
                elif d in b">}" and nest:
                    nest -= 1
                elif (d in b" \t\r\n()#" and not nest) or d == b'"' or (d == b";" and not nest):
                    break
                j += 1
            j = min(j, n)
            args.append(Arg(i, j, "unquoted", (i, j), data[i:j]))
            i = j
    raise BuildSyntaxError(opened, "'(' is not closed")


# ---------------------------------------------------------------------------------------
# Make

@dataclass(frozen=True)
class MakeLine:
    kind: str           # "assign", "rule", "recipe", "directive", "define", "blank"
    start: int          # the logical line (continuations joined), its newline excluded
    end: int
    name: bytes = b""           # an assignment's variable
    value: tuple[int, int] = (0, 0)     # an assignment's value, or a recipe's command text
    op: bytes = b""


@dataclass
class MakeFile:
    lines: list[MakeLine] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)


_ASSIGN = re.compile(rb"[ \t]*(?:(?:override|export|private)[ \t]+)*([A-Za-z0-9_.\-]+)[ \t]*(::=|:::=|:=|\?=|\+=|!=|=)[ \t]*")
_DIRECTIVE = re.compile(rb"[ \t]*(ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|sinclude|vpath|unexport"
                        rb"|undefine)\b")
_DEFINE = re.compile(rb"[ \t]*(?:(?:override|export)[ \t]+)*define[ \t]+([A-Za-z0-9_.\-]+)")
_ENDEF = re.compile(rb"[ \t]*endef\b")


def _logical_lines(data: bytes):
    """(start, end) of each logical line: a newline after an odd run of backslashes continues it."""
    i, n = 0, len(data)
    while i < n:
        j = i
        while True:
            nl = data.find(b"\n", j)
            if nl < 0:
                yield i, n
                return
            k = nl - 1 if data[nl - 1:nl] != b"\r" else nl - 2
            slashes = 0
            while k >= i and data[k:k + 1] == b"\\":
                slashes += 1
                k -= 1
            if slashes % 2:
                j = nl + 1
                continue
            yield i, nl - 1 if data[nl - 1:nl] == b"\r" else nl
            i = nl + 1
            break


def _comment_start(data: bytes, start: int, end: int) -> int:
    """Where a make comment starts on a line (an unescaped #), or `end`."""
    i = start
    while i < end:
        c = data[i:i + 1]
        if c == b"\\":
            i += 2
            continue
        if c == b"#":
            return i
        i += 1
    return end


def parse_make(data: bytes) -> MakeFile:
    out = MakeFile()
    in_rule = False
    define = None
    prefix = b"\t"         # what starts a recipe line: `.RECIPEPREFIX = >` changes it
    for start, end in _logical_lines(data):
        if start == 0 and data.startswith(_BOM):
            start = len(_BOM)
        if define is not None:
            if _ENDEF.match(data, start):
                out.lines.append(MakeLine("directive", start, end))
                define = None
            else:
                out.lines.append(MakeLine("define", start, end, define, (start, end)))
            continue
        if data[start:start + 1] == prefix and in_rule:
            # A recipe: the shell's text; its '#' starts a shell comment only at a word's start.
            out.lines.append(MakeLine("recipe", start, end, value=(start + 1, end)))
            continue
        stop = _comment_start(data, start, end)
        if stop < end:
            out.comments.append((stop, end))
        text_end = stop
        while text_end > start and data[text_end - 1:text_end] in b" \t":
            text_end -= 1
        if text_end <= start or not data[start:text_end].strip():
            out.lines.append(MakeLine("blank", start, end))
            continue
        if m := _DEFINE.match(data, start, text_end):
            define = m.group(1)
            out.lines.append(MakeLine("directive", start, end, m.group(1)))
            continue
        if _DIRECTIVE.match(data, start, text_end):
            out.lines.append(MakeLine("directive", start, end))
            continue
        m = _ASSIGN.match(data, start, text_end)
        if m and b":" not in data[start:m.start(2)].replace(b"::=", b""):
            out.lines.append(MakeLine("assign", start, end, m.group(1), (m.end(), text_end), m.group(2)))
            if m.group(1) == b".RECIPEPREFIX" and m.group(2) != b"+=":
                # GNU make: the value's first character, or a tab where it is empty.
                prefix = data[m.end():m.end() + 1] if text_end > m.end() else b"\t"
            continue
        colon = _rule_colon(data, start, text_end)
        if colon is not None:
            in_rule = True
            rest = colon + 1 + (data[colon + 1:colon + 2] == b":")
            target_var = _ASSIGN.match(data, rest, text_end)
            if target_var:   # `target: VAR += value`, a target-specific variable
                out.lines.append(MakeLine("assign", start, end, target_var.group(1), (target_var.end(), text_end),
                                          target_var.group(2)))
            else:
                semi = data.find(b";", rest, text_end)
                out.lines.append(MakeLine("rule", start, end, value=(semi + 1, text_end) if semi >= 0 else (0, 0)))
            continue
        in_rule = in_rule and data[start:start + 1] == prefix
        out.lines.append(MakeLine("directive", start, end))
    return out


def _rule_colon(data: bytes, start: int, end: int) -> int | None:
    """The offset of a rule line's separating ':' (outside $(...)), or None."""
    depth, i = 0, start
    while i < end:
        c = data[i:i + 1]
        if c == b"$" and data[i + 1:i + 2] in (b"(", b"{"):
            depth += 1
            i += 2
            continue
        if c in b")}" and depth:
            depth -= 1
        elif c == b":" and not depth and data[i + 1:i + 2] != b"=":
            return i
        i += 1
    return None


# ---------------------------------------------------------------------------------------
# Words

def words(data: bytes, start: int, end: int, *, semicolons: bool = False,
          skip: dict[int, int] | None = None) -> list[Word]:
    """The words of data[start:end]: separated by whitespace (a backslash-newline is
    whitespace), and by ';' too with `semicolons` (a CMake list); `$(...)`, `${...}`,
    `$<...>` and quoted strings are part of the word they are in. `skip` maps the
    offset of a `$<` to the end of its generator expression: it is stepped over in one
    move (part of its word), and a word that is one of them alone is left out (the words
    of each level of nested genexes, read in work linear in the whole)."""
    out: list[Word] = []
    skip = skip or {}
    i = start
    while i < end:
        c = data[i:i + 1]
        if c in b" \t\r\n" or (semicolons and c == b";"):
            i += 1
            continue
        if c == b"\\" and data[i + 1:i + 2] in (b"\n", b"\r"):
            i += 2
            continue
        j, stack = i, []
        while j < end:
            d = data[j:j + 1]
            if d == b"\\" and j + 1 < end:
                if data[j + 1:j + 2] in (b"\n", b"\r") and not stack:
                    break
                j += 2
                continue
            if d == b"$" and j in skip:
                j = skip[j]
                continue
            if d == b"$" and data[j + 1:j + 2] in (b"(", b"{", b"<"):
                stack.append({b"(": b")", b"{": b"}", b"<": b">"}[data[j + 1:j + 2]])
                j += 2
                continue
            if stack and d == stack[-1]:
                stack.pop()
            elif stack and d in b"({<" and d == {b")": b"(", b"}": b"{", b">": b"<"}[stack[-1]]:
                stack.append(stack[-1])
            elif not stack and d in (b'"', b"'"):
                close = data.find(d, j + 1, end)
                j = end if close < 0 else close + 1
                continue
            elif not stack and (d in b" \t\r\n" or (semicolons and d == b";")):
                break
            j += 1
        if skip.get(i) != j:
            out.append(Word(i, j, data[i:j]))
        i = j
    return out


@dataclass(frozen=True)
class Genex:
    start: int          # the "$<"
    content: int        # after the first ':' of its own level (`end` where it has none)
    end: int            # after its ">"
    parent: int         # the index of the genex it is in, or -1


def genexes(data: bytes, start: int, end: int) -> list[Genex]:
    """The generator expressions `$<...>` of data[start:end], in the order they start,
    nested ones included, each with its parent: one scan, no recursion on the depth. An
    unclosed one ends at `end`."""
    out: list[list[int]] = []
    open_: list[int] = []
    i = start
    while i < end:
        c = data[i:i + 1]
        if c == b"$" and data[i + 1:i + 2] == b"<":
            out.append([i, -1, end, open_[-1] if open_ else -1])
            open_.append(len(out) - 1)
            i += 2
            continue
        if open_:
            if c == b">":
                out[open_.pop()][2] = i + 1
            elif c == b":" and out[open_[-1]][1] < 0:
                out[open_[-1]][1] = i + 1
        i += 1
    return [Genex(s, c if c >= 0 else e, e, p) for s, c, e, p in out]
