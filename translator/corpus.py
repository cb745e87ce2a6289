"""The bundled corpus's manifest (corpus/manifest.toml): one [[program]] per program.

A program is one file (`path = "corpus/x/y.cu"`) or several translation units built into
one binary (`sources = ["corpus/x/p/main.cu", "corpus/x/p/other.cu"]`, the first holding
main(); their local headers sit next to them). Either way `Program.path` names it (a
multi-file program by its first source) and `Program.sources` lists what to compile.

A program may name the translate options its translation is checked with
(`options = ["--roc"]`): the ones that choose what a translation is (`--roc`,
`--miopen`, `--experimental`), as the `Options` fields they set.

A project (`[[project]]`) is a folder built by its own build files (`build = "cmake"`
or `"make"`): `binaries` are the programs it builds (relative to the build folder), each
of which must print PASS; `kernels` are the kernels its device code must hold.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

COVER_WORDS = frozenset("""
memory malloc memcpy memset async pinned managed symbols memcpy2d memcpy3d streams events error-handling
device-properties templates template-launch static-shared dynamic-shared atomics warp-shuffle ballot
cooperative-groups texture surface curand-host curand-device cublas cusparse cufft cub thrust fp16 bf16
math-intrinsics graphs driver-api module-load nvrtc macros preprocessor-if local-header reduction
elementwise launch-bounds warp-size-assumption fusion-chain fusion-refused multi-tu rebalance inline-ptx
cmake make static-library header-only-kernel relocatable-device-code nvcc-flags loop-allocation
pageable-copy device-sync graph-dispatch
""".split())


@dataclass(frozen=True)
class Program:
    path: str
    covers: tuple[str, ...]
    amd_compile: bool
    libs: tuple[str, ...]
    reason: str | None
    options: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()    # every translation unit; (path,) for a one-file program

    def __post_init__(self) -> None:
        if not self.sources:
            object.__setattr__(self, "sources", (self.path,))

    def option_fields(self) -> dict[str, bool]:
        """The translator Options fields the program's options set (`--roc`: roc=True)."""
        return {OPTION_FIELDS[o]: True for o in self.options}


# The translate options a program may ask for, and the Options field each sets.
OPTION_FIELDS = {"--roc": "roc", "--miopen": "miopen", "--experimental": "experimental"}


@dataclass(frozen=True)
class Project:
    path: str                       # its folder
    build: str                      # "cmake" or "make"
    binaries: tuple[str, ...]       # what it builds, relative to the build folder
    kernels: tuple[str, ...]        # the kernels its binaries' device code holds
    covers: tuple[str, ...] = ()

    def sources(self, root: Path) -> list[str]:
        """Its CUDA sources (`.cu`), relative to `root`."""
        return sorted(str(p.relative_to(root)) for p in (root / self.path).rglob("*.cu"))


BUILDS = ("cmake", "make")


def load_projects(root: Path) -> list[Project]:
    data = tomllib.loads((root / "corpus" / "manifest.toml").read_text(encoding="utf-8"))
    projects = []
    for table in data.get("project", []):
        path = table.get("path", "")
        if table.get("build") not in BUILDS or not table.get("binaries"):
            raise ValueError(f"corpus/manifest.toml: project {path!r} needs `build` ({' or '.join(BUILDS)}) "
                             "and `binaries`")
        if not (root / path).is_dir():
            raise ValueError(f"corpus/manifest.toml: project {path!r} is not a folder")
        projects.append(Project(path, table["build"], tuple(table["binaries"]), tuple(table.get("kernels", ())),
                                tuple(table.get("covers", ()))))
    return projects


def load_manifest(root: Path) -> list[Program]:
    data = tomllib.loads((root / "corpus" / "manifest.toml").read_text(encoding="utf-8"))
    programs = []
    for table in data.get("program", []):
        sources = tuple(table.get("sources", ()))
        if ("path" in table) == bool(sources):
            raise ValueError(f"corpus/manifest.toml: a program needs `path` (one file) or `sources` "
                             f"(several translation units), not {'both' if sources else 'neither'}: {table}")
        path = table.get("path", sources[0] if sources else "")
        if sources and (len(set(sources)) != len(sources) or len({Path(s).parent for s in sources}) != 1):
            raise ValueError(f"corpus/manifest.toml: {path}: `sources` must be distinct files of one folder")
        options = tuple(table.get("options", ()))
        unknown = [o for o in options if o not in OPTION_FIELDS]
        if unknown:
            raise ValueError(f"corpus/manifest.toml: {path}: unknown options {unknown} "
                             f"(known: {', '.join(OPTION_FIELDS)})")
        programs.append(Program(path, tuple(table.get("covers", ())), bool(table["amd_compile"]),
                                tuple(table.get("libs", ())), table.get("reason"), options, sources))
    return programs
