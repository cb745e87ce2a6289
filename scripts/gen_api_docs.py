#!/usr/bin/env python3
"""Generate docs/supported-apis/ from the package's mapping data.

Usage: python scripts/gen_api_docs.py [--check]

Reads translator/data through translator.mapping (not the HIPIFY reference), so
the pages describe exactly what the translator knows.  With --check nothing is
written; the exit status is 1 when regenerating would change a file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
# Document this working tree's data, not whatever copy of the package is installed.
sys.path.insert(0, str(REPO_ROOT))

from translator.mapping import ApiEntry, MappingTables, load_tables, version_str  # noqa: E402

DOCS_DIR = REPO_ROOT / "docs" / "supported-apis"

LIBRARY_TITLES = {
    "runtime": "CUDA Runtime API",
    "driver": "CUDA Driver API",
    "device": "CUDA device API (intrinsics and device types)",
    "rtc": "NVRTC",
    "complex": "cuComplex",
    "blas": "cuBLAS / cuBLASLt",
    "rand": "cuRAND",
    "fft": "cuFFT",
    "sparse": "cuSPARSE",
    "solver": "cuSOLVER",
    "dnn": "cuDNN",
    "cub": "CUB",
}
# Libraries whose data has a third (ROC) column group, and what that group is.
ROC_LIBRARY_NAMES = {
    "blas": "rocBLAS",
    "rand": "rocRAND",
    "sparse": "rocSPARSE",
    "solver": "rocSOLVER",
    "dnn": "MIOpen",
}

GENERATED_NOTE = (
    "Generated from the mapping data in `translator/data/` by `python scripts/gen_api_docs.py`; "
    "do not edit by hand. The data comes from AMD HIPIFY's documentation tables (see `NOTICE`)."
)


def code(name: str | None) -> str:
    return f"`{name}`" if name else ""


def counts(entries: list[ApiEntry]) -> tuple[int, int, int, int]:
    """total, with a HIP equivalent, without one, with a ROC equivalent."""
    with_hip = sum(1 for entry in entries if entry.hip is not None)
    with_roc = sum(1 for entry in entries if entry.roc is not None)
    return len(entries), with_hip, len(entries) - with_hip, with_roc


def library_page(library: str, entries: list[ApiEntry]) -> str:
    roc_name = ROC_LIBRARY_NAMES.get(library)
    total, with_hip, unsupported, with_roc = counts(entries)
    lines = [
        f"# {LIBRARY_TITLES[library]}: HIP equivalents",
        "",
        GENERATED_NOTE,
        "",
        f"- Total CUDA names: {total}",
        f"- With a HIP equivalent: {with_hip}",
        f"- Unsupported (no HIP equivalent): {unsupported}",
    ]
    if roc_name:
        lines.append(f"- With a {roc_name} equivalent: {with_roc}")
    header = ["CUDA", "Kind", "HIP", "HIP added", "HIP deprecated", "HIP removed", "HIP experimental"]
    if roc_name:
        header.append(roc_name)
    lines += ["", "|" + "|".join(header) + "|", "|" + "|".join(":--" for _ in header) + "|"]
    for entry in entries:
        cells = [
            code(entry.cuda), entry.kind, code(entry.hip),
            version_str(entry.hip_added), version_str(entry.hip_deprecated),
            version_str(entry.hip_removed), version_str(entry.hip_experimental),
        ]
        if roc_name:
            cells.append(code(entry.roc))
        lines.append("|" + "|".join(cells) + "|")
    return "\n".join(lines) + "\n"


def index_page(tables: MappingTables) -> str:
    lines = [
        "# Supported CUDA APIs",
        "",
        GENERATED_NOTE,
        "",
        "|Library|Page|Total|With HIP equivalent|Unsupported|ROC library|With ROC equivalent|",
        "|:--|:--|--:|--:|--:|:--|--:|",
    ]
    grand_total = grand_hip = grand_unsupported = 0
    for library in tables.libraries:
        total, with_hip, unsupported, with_roc = counts(list(tables.entries(library)))
        grand_total, grand_hip, grand_unsupported = (
            grand_total + total, grand_hip + with_hip, grand_unsupported + unsupported)
        roc_name = ROC_LIBRARY_NAMES.get(library, "")
        lines.append(
            f"|{LIBRARY_TITLES[library]}|[{library}.md]({library}.md)|{total}|{with_hip}|{unsupported}|"
            f"{roc_name}|{with_roc if roc_name else ''}|"
        )
    lines.append(f"|**All**||{grand_total}|{grand_hip}|{grand_unsupported}|||")
    lines += [
        "",
        "A name listed by two libraries is counted in both; the translator's lookup",
        "prefers the library that comes first in this table.",
    ]
    return "\n".join(lines) + "\n"


def generate() -> dict[Path, str]:
    tables = load_tables()
    outputs = {DOCS_DIR / "README.md": index_page(tables)}
    for library in tables.libraries:
        outputs[DOCS_DIR / f"{library}.md"] = library_page(library, list(tables.entries(library)))
    return outputs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if any generated page is out of date")
    args = parser.parse_args(argv)

    outputs = generate()
    changed = [path for path, text in outputs.items()
               if not path.is_file() or path.read_bytes() != text.encode("utf-8")]
    # Every page in the directory is generated, so any other .md is left over.
    stale = sorted(path for path in DOCS_DIR.glob("*.md") if path not in outputs)
    if args.check:
        for path in changed:
            print(f"gen_api_docs: out of date: {path.relative_to(REPO_ROOT)}")
        for path in stale:
            print(f"gen_api_docs: not generated by this script: {path.relative_to(REPO_ROOT)}")
        return 1 if changed or stale else 0

    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(outputs[path].encode("utf-8"))
        print(f"wrote {path.relative_to(REPO_ROOT)}")
    for path in stale:
        path.unlink()
        print(f"removed stale {path.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
