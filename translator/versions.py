"""ROCm and CUDA versions as tuples: parsed, shown, compared, and the newest release
cu2hip knows (translator.mapping re-exports them; apart from it, so that resolving a
run's target reads no mapping table's code)."""

from __future__ import annotations

import re

Version = tuple[int, ...]

_VERSION_RE = re.compile(r"[0-9]+(?:\.[0-9]+)*")  # ASCII digits only, unlike str.isdigit


def parse_version(text: str) -> Version | None:
    """'5.2.0' -> (5, 2, 0); '12.4' -> (12, 4); '' -> None.  Raises ValueError otherwise."""
    if text == "":
        return None
    if not _VERSION_RE.fullmatch(text):
        raise ValueError(f"not a version: {text!r}")
    return tuple(int(part) for part in text.split("."))


def version_str(version: Version | None) -> str:
    """Inverse of parse_version: None -> ''."""
    return "" if version is None else ".".join(str(part) for part in version)


# The newest ROCm release whose changes cu2hip knows: HIP 7.0 (warp-sync builtins on by
# default, `__syncwarp`, `__reduce_*_sync`: reference facts, S10 of the project's notes);
# the tables themselves reach 6.3.
NEWEST_KNOWN_RELEASE: Version = (7, 0)


def version_at_least(version: Version, floor: Version) -> bool:
    """version >= floor, with missing trailing parts read as zero: (5, 2) == (5, 2, 0)."""
    width = max(len(version), len(floor))
    padded = version + (0,) * (width - len(version))
    return padded >= floor + (0,) * (width - len(floor))
