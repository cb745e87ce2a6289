"""`cu2hip toolchain-file`: the CMake toolchain file for CMake's HIP language on Debian's
ROCm packages, shipped in the package (translator/data/debian-hip.cmake).

Debian 12's CMake (3.25) does not find Debian's hip-lang package nor its clang without it;
newer systems do not need it. Prints the file's path (for
`cmake -DCMAKE_TOOLCHAIN_FILE="$(cu2hip toolchain-file)"`), or with `-o FILE` writes a copy
(atomically) for a project to keep."""

from __future__ import annotations

import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

from translator.settings import UsageError

NAME = "debian-hip.cmake"


def path() -> Path:
    """The shipped file (a real file: the package is installed as files, not a zip)."""
    return Path(str(resources.files("translator") / "data" / NAME))


def run(args) -> int:
    source = path()
    if args.output is None:
        print(source)
        return 0
    target = Path(args.output)
    if target.is_dir():
        target = target / NAME
    data = source.read_bytes()
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError as exc:
        os.unlink(tmp)
        raise UsageError(f"{target}: cannot write: {exc.strerror}") from None
    print(f"cu2hip: wrote {target}", file=sys.stderr)
    return 0
