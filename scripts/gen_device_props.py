#!/usr/bin/env python3
"""Generate translator/data/device_props.tsv: the fields of HIP's hipDeviceProp_t that a
ROCm release declares, read from that release's `hip/hip_runtime_api.h`.

Usage: python scripts/gen_device_props.py [HEADER] [--rocm 5.2]

The file holds one line per field: the ROCm version, a tab, the field's name. The
hipify pass (translator/passes/hipify/device_props.py) reports a `cudaDeviceProp` field
that the target release's struct lacks. Default HEADER: /usr/include/hip/hip_runtime_api.h
(Debian's libamdhip64-dev, ROCm 5.2).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "translator" / "data" / "device_props.tsv"
_STRUCT = re.compile(r"typedef\s+struct\s+hipDeviceProp_t\s*\{(.*?)\}\s*hipDeviceProp_t\s*;", re.S)
_FIELD = re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*;")


def fields(header: str) -> list[str]:
    body = _STRUCT.search(header)
    if body is None:
        raise SystemExit("no `typedef struct hipDeviceProp_t { ... } hipDeviceProp_t;` in the header")
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", body.group(1), flags=re.S)
    return [m.group(1) for m in _FIELD.finditer(text)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("header", nargs="?", default="/usr/include/hip/hip_runtime_api.h")
    ap.add_argument("--rocm", default="5.2")
    args = ap.parse_args()
    kept = [line for line in (OUT.read_text(encoding="utf-8").splitlines() if OUT.exists() else [])
            if line and not line.startswith("#") and line.split("\t")[0] != args.rocm]
    new = [f"{args.rocm}\t{name}" for name in fields(Path(args.header).read_text(encoding="utf-8", errors="replace"))]
    head = ["# hipDeviceProp_t's fields per ROCm release, from its hip/hip_runtime_api.h "
            "(scripts/gen_device_props.py)"]
    OUT.write_text("\n".join(head + sorted(kept + new, key=lambda l: (l.split("\t")[0], ))) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(new)} fields of ROCm {args.rocm})")


if __name__ == "__main__":
    main()
