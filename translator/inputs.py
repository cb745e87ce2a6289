"""What is read and written, and the diagnostics of reading and writing (I0xx).

`check_input` decides whether a file's bytes can be translated at all; the commands
report what they cannot read or write with the rules declared here.
"""

from __future__ import annotations

from translator import diagnostics as dg
from translator.catalog import ERROR, WARNING, rule
from translator.source import SourceFile, first_invalid_utf8, looks_binary

MAX_FILE_BYTES = 32 * 1024 * 1024

UNREADABLE = rule(
    "I001", "unreadable", ERROR, "the input cannot be read", """
The path does not exist, or the file or folder cannot be read (permissions, a dangling
symbolic link). Nothing is written for it.""")
BINARY = rule(
    "I002", "binary-file", ERROR, "the file is binary (a NUL byte): not translated", """
A NUL byte in the first 8 KiB marks a binary file, as git and grep decide. It is not
translated; with `-o` it is copied as it is.""", example="int x;\n\0\n")
INVALID_UTF8 = rule(
    "I003", "invalid-utf8", WARNING, "the file is not valid UTF-8: its bytes are kept as they are", """
The file is translated, and every byte the translation has no reason to change, the
invalid ones included, is kept exactly.""")
TOO_LARGE = rule(
    "I004", "too-large", ERROR, "the file is larger than the limit: not translated", f"""
Files over {MAX_FILE_BYTES} bytes are not translated (a generated or data file, most
likely).""")
UNWRITABLE = rule(
    "I005", "cannot-write", ERROR, "the output cannot be written: the file is unchanged", """
Writing goes through a temporary file and an atomic rename, so a failed write leaves the
old file whole. The command exits 1, whatever `--strict` says.""")
LINK_OUT_OF_TREE = rule(
    "I006", "link-out-of-tree", WARNING, "a symbolic link to a file outside the tree is not rewritten in place", """
`--in-place` rewrites the files of the tree; a link that leads out of it would rewrite a
file elsewhere, so it is left alone. Name the file itself to translate it.""")
NOT_REGULAR = rule(
    "I007", "not-a-regular-file", WARNING, "a FIFO, socket or device in a tree: skipped", """
Reading one could block forever or never end, so it is neither translated nor copied.""")


def check_input(source: SourceFile) -> list[dg.Diagnostic]:
    """Problems that stop a file from being translated at all (reported as errors), or
    that are worth knowing (invalid UTF-8: the bytes are kept as they are)."""
    path, data = source.path, source.data
    if len(data) > MAX_FILE_BYTES:
        return [dg.Diagnostic(path, 1, 1, TOO_LARGE.severity, f"file is {len(data)} bytes, over the "
                              f"{MAX_FILE_BYTES}-byte limit; not translated", TOO_LARGE.id)]
    nul = looks_binary(data)
    if nul is not None:
        return [dg.at(source, nul, BINARY.severity, "binary file (NUL byte); not translated", BINARY.id)]
    bad = first_invalid_utf8(data)
    if bad is not None:
        return [dg.at(source, bad, INVALID_UTF8.severity, f"invalid UTF-8 byte 0x{data[bad]:02x}; bytes are "
                      "kept as they are", INVALID_UTF8.id, bad + 1)]
    return []


def problem(rule_, path: str, message: str) -> dg.Diagnostic:
    """A diagnostic about a whole file (reading or writing it), at 1:1."""
    return dg.Diagnostic(str(path), 1, 1, rule_.severity, message, rule_.id)
