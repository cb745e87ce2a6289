"""The compile context of a project's files: the include folders, macro definitions and
language standard their compiles need, so that `cu2hip report` compiles a real
project's kernels as its build does (a `helper_cuda.h` found through `-I common`).

From the command line (`-I DIR`, `-D NAME[=VALUE]`, `--std c++17`) and from a
compilation database (`-p DIR`: DIR/compile_commands.json, as clang tools read it). A
file the database lists gets its own entry's folders, definitions and standard after the
command line's; a file it does not list (a header, a source the build does not compile)
gets the command line's and every folder the database names.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from translator.inputs import MAX_FILE_BYTES, read_regular


class ContextError(Exception):
    pass


def cuda_toolkit(folder: str) -> bool:
    """Is `folder` the CUDA toolkit's include folder (it holds cuda_runtime.h)? hipcc must
    not search it: CUDA's own headers would take the place of HIP's."""
    return os.path.isfile(os.path.join(folder, "cuda_runtime.h"))


@dataclass(frozen=True)
class FileContext:
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str | None = None

    def flags(self) -> list[str]:
        return [f"-I{d}" for d in self.include_dirs] + [f"-D{d}" for d in self.defines]


@dataclass
class CompileContext:
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str | None = None
    entries: dict[str, FileContext] = field(default_factory=dict)     # by the file's absolute real path

    def for_file(self, path) -> FileContext:
        own = self.entries.get(os.path.realpath(path))
        if own is None:
            folders = [d for e in self.entries.values() for d in e.include_dirs]
            return FileContext(_unique(self.include_dirs + tuple(folders)), self.defines, self.std)
        return FileContext(_unique(self.include_dirs + own.include_dirs), _unique(self.defines + own.defines),
                           self.std or own.std)


def _unique(items) -> tuple:
    return tuple(dict.fromkeys(items))


def load(include_dirs=(), defines=(), std: str | None = None, database: str | None = None) -> CompileContext:
    """The context of a run; ContextError names what is wrong with the database."""
    if any("\0" in text for text in (*include_dirs, *defines, std or "")):
        raise ContextError("-I, -D or --std: a NUL character (no folder or definition holds one)")
    context = CompileContext(tuple(os.path.abspath(d) for d in include_dirs), tuple(defines), std)
    if database is None:
        return context
    path = Path(database)
    if path.is_dir():
        path = path / "compile_commands.json"
    try:
        data = read_regular(path)
    except OSError as exc:
        raise ContextError(f"-p: cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ContextError(f"-p: {path} is larger than {MAX_FILE_BYTES} bytes")
    try:
        entries = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ContextError(f"{path}: not a compilation database: {exc}") from None
    if not isinstance(entries, list):
        raise ContextError(f"{path}: not a compilation database: want a JSON array of entries")
    for n, entry in enumerate(entries):
        if not (isinstance(entry, dict) and isinstance(entry.get("file"), str)
                and isinstance(entry.get("directory"), str)
                and (isinstance(entry.get("arguments"), list) or isinstance(entry.get("command"), str))):
            raise ContextError(f"{path}: entry {n}: want \"directory\", \"file\" and \"arguments\" or \"command\"")
        if "arguments" in entry:
            args = entry["arguments"]
            if not all(isinstance(a, str) for a in args):
                raise ContextError(f"{path}: entry {n}: \"arguments\" must be strings")
        else:
            try:
                args = shlex.split(entry["command"])
            except ValueError as exc:
                raise ContextError(f"{path}: entry {n}: \"command\": {exc}") from None
        if any("\0" in text for text in (entry["file"], entry["directory"], *args)):
            # No path or flag holds one (os calls raise ValueError on it).
            raise ContextError(f"{path}: entry {n}: a NUL character in \"file\", \"directory\" or a flag")
        folder = entry["directory"]
        source = os.path.realpath(os.path.join(folder, entry["file"]))
        context.entries[source] = parse_arguments(args, folder)
    return context


_WITH_VALUE = {"-I": "I", "-isystem": "I", "-iquote": "I", "--include-path": "I", "--system-include": "I", "-D": "D",
               "--define-macro": "D", "-std": "S", "--std": "S"}


def _expanded(args: list[str], folder: str, depth: int = 0) -> list[str]:
    """The arguments with their response files read in place (`@FILE`, nvcc's
    `--options-file FILE` / `-optf FILE`, which CMake writes the include folders to),
    relative to `folder`; a file that cannot be read stays out."""
    out, i = [], 0
    while i < len(args):
        arg, name = args[i], None
        if arg in ("--options-file", "-optf") and i + 1 < len(args):
            name, i = args[i + 1], i + 1
        elif arg.startswith("--options-file="):
            name = arg.split("=", 1)[1]
        elif arg.startswith("@") and len(arg) > 1:
            name = arg[1:]
        else:
            out.append(arg)
        i += 1
        if name is None or depth > 4:
            continue
        try:
            text = read_regular(Path(folder, name))[:MAX_FILE_BYTES].decode("utf-8", "replace")
            out += _expanded(shlex.split(text), folder, depth + 1)
        except (OSError, ValueError):
            continue
    return out


def parse_arguments(args: list[str], folder: str) -> FileContext:
    """The include folders, definitions and standard of one compile command (clang's,
    gcc's or nvcc's spellings, response files read), folders made absolute from the
    entry's `directory`."""
    args = _expanded(args, folder)
    dirs, defines, std = [], [], None
    i = 0
    while i < len(args):
        arg = args[i]
        kind, value = None, None
        if arg in _WITH_VALUE and i + 1 < len(args):
            kind, value = _WITH_VALUE[arg], args[i + 1]
            i += 1
        elif "=" in arg and arg.split("=", 1)[0] in ("-std", "--std", "--include-path", "--define-macro", "-isystem",
                                                     "-I"):
            name, value = arg.split("=", 1)
            kind = _WITH_VALUE[name]
        elif arg.startswith("-I") or arg.startswith("-D"):
            kind, value = arg[1], arg[2:]
        elif arg.startswith("-isystem"):
            kind, value = "I", arg[len("-isystem"):].lstrip("=")
        i += 1
        if kind == "I" and value:
            dirs.append(os.path.normpath(os.path.join(folder, value)))
        elif kind == "D" and value:
            defines.append(value)
        elif kind == "S" and value:
            std = value
    return FileContext(tuple(dirs), tuple(defines), std)
