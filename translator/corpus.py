"""The bundled corpus's manifest (corpus/manifest.toml): one [[program]] per program."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

COVER_WORDS = frozenset("""
memory malloc memcpy memset async pinned managed symbols memcpy2d memcpy3d streams events error-handling
device-properties templates template-launch static-shared dynamic-shared atomics warp-shuffle ballot
cooperative-groups texture surface curand-host curand-device cublas cusparse cufft cub thrust fp16 bf16
math-intrinsics graphs driver-api module-load nvrtc macros preprocessor-if local-header reduction
elementwise launch-bounds warp-size-assumption
""".split())


@dataclass(frozen=True)
class Program:
    path: str
    covers: tuple[str, ...]
    amd_compile: bool
    libs: tuple[str, ...]
    reason: str | None


def load_manifest(root: Path) -> list[Program]:
    data = tomllib.loads((root / "corpus" / "manifest.toml").read_text(encoding="utf-8"))
    programs = []
    for table in data.get("program", []):
        programs.append(Program(table["path"], tuple(table.get("covers", ())), bool(table["amd_compile"]),
                                tuple(table.get("libs", ())), table.get("reason")))
    return programs
