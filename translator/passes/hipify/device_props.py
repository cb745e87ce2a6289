"""H043, H044: fields of `cudaDeviceProp` that the target ROCm's `hipDeviceProp_t` lacks.

What it does:
    Before ROCm 6.0, `hipDeviceProp_t` is not CUDA's struct: some fields have other names
    (`sharedMemPerMultiprocessor` is `maxSharedMemoryPerMultiProcessor`) and many are
    absent (`sharedMemPerBlockOptin`, `regsPerMultiprocessor`, `asyncEngineCount`...). A
    field read through a variable the file declares as a `cudaDeviceProp` (an object, a
    pointer or a reference to one) is renamed where the struct has it under another name
    (H043), else reported as an error with what to use instead (H044): the translation
    would not compile.
Legal when:
    The target ROCm's field list is known (translator/data/device_props.tsv, read from that
    release's `hip/hip_runtime_api.h` by scripts/gen_device_props.py: ROCm 5.2); for other
    releases nothing is said.
Not handled:
    A struct reached through an expression (`props[i].field`, a function's result, a
    member of another struct); a variable declared through a typedef or `auto`.
Example:
    cudaDeviceProp p; ... p.sharedMemPerMultiprocessor  ->  p.maxSharedMemoryPerMultiProcessor (ROCm 5.2)
Safety:
    semantic: the renamed field holds the same quantity (the shared memory of one
    multiprocessor, in bytes).
"""

from __future__ import annotations

import functools
from importlib import resources

from translator.catalog import ERROR, NOTE, rule
from translator.edits import Edit
from translator.ir.nodes import descendants
from translator.passes import Context

RENAMED_FIELD = rule(
    "H043", "device-prop-field-renamed", NOTE, "a cudaDeviceProp field has another name in the target ROCm's struct", """
Before ROCm 6.0, `hipDeviceProp_t` names some of CUDA's fields otherwise: the shared
memory of one multiprocessor is `maxSharedMemoryPerMultiProcessor`, not
`sharedMemPerMultiprocessor`. The field read through a `cudaDeviceProp` variable is
renamed to the target's name; it holds the same quantity.""",
    edits=True, safe=True, options=("--rocm-version", "5.2"),
    example="void f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); size_t s = p.sharedMemPerMultiprocessor; }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f() { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); size_t s = "
                "p.maxSharedMemoryPerMultiProcessor; }\n")
MISSING_FIELD = rule(
    "H044", "device-prop-field-missing", ERROR, "a cudaDeviceProp field the target ROCm's struct lacks", """
The field does not exist in the target ROCm's `hipDeviceProp_t` (before ROCm 6.0 the
struct is not CUDA's): the translation does not compile. The message says what to use:
`hipDeviceGetAttribute` where an attribute gives the quantity, a value the program
chooses itself, or a target of ROCm 6.0 or later (`--rocm-version 6.0`), whose struct has
CUDA's fields.""",
    options=("--rocm-version", "5.2"),
    example="void f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); size_t s = p.sharedMemPerBlockOptin; }\n",
    translation="#include <hip/hip_runtime.h>\nvoid f() { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); size_t s = "
                "p.sharedMemPerBlockOptin; }\n")

RULES = (RENAMED_FIELD, MISSING_FIELD)
_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t"})
# CUDA's name -> the name in hipDeviceProp_t before ROCm 6.0 (the header's).
_RENAMES = {"sharedMemPerMultiprocessor": "maxSharedMemoryPerMultiProcessor"}
# What to use instead of a missing field (by name).
_INSTEAD = {
    "sharedMemPerBlockOptin": "the opt-in shared memory per block is sharedMemPerBlock's on AMD (a block may use "
                              "all of a workgroup's LDS without opting in): use sharedMemPerBlock",
    "regsPerMultiprocessor": "use regsPerBlock (AMD's register file per compute unit is not in the struct)",
    "maxBlocksPerMultiProcessor": "compute it with hipOccupancyMaxActiveBlocksPerMultiprocessor for the kernel",
}


@functools.cache
def _fields() -> dict[tuple[int, int], frozenset[str]]:
    text = resources.files("translator").joinpath("data/device_props.tsv").read_text(encoding="utf-8")
    out: dict[tuple[int, int], set[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            version, name = line.split("\t")
            major, minor = version.split(".")
            out.setdefault((int(major), int(minor)), set()).add(name)
    return {k: frozenset(v) for k, v in out.items()}


def _declared(data: bytes, root) -> set[str]:
    """The names the file declares with type cudaDeviceProp (an object, pointer or reference)."""
    names: set[str] = set()
    for n in descendants(root):
        if n.type not in ("declaration", "parameter_declaration", "field_declaration"):
            continue
        kind = n.child_by_field_name("type")
        if kind is None or data[kind.start_byte:kind.end_byte].decode("utf-8", "replace").split()[-1] not in _TYPES:
            continue
        for d in n.children_by_field_name("declarator"):
            while d is not None and d.type not in ("identifier", "field_identifier"):
                inner = d.child_by_field_name("declarator")     # a reference's has no field name
                d = inner if inner is not None else next(iter(d.named_children), None)
            if d is not None:
                names.add(data[d.start_byte:d.end_byte].decode("utf-8", "replace"))
    return names


def check_fields(ctx: Context) -> None:
    if ctx.options.target != "hip" or not any(t.encode() in ctx.parsed.words for t in _TYPES):
        return
    fields = _fields().get(tuple(ctx.options.rocm_version[:2]))
    if fields is None:
        return
    shown = ".".join(map(str, ctx.options.rocm_version[:2]))
    data = ctx.parsed.data
    root = ctx.parsed.main.root
    names = _declared(data, root)
    if not names:
        return
    for n in descendants(root):
        if n.type != "field_expression":
            continue
        obj, field = n.child_by_field_name("argument"), n.child_by_field_name("field")
        if obj is None or field is None or obj.type != "identifier" or \
                data[obj.start_byte:obj.end_byte].decode("utf-8", "replace") not in names:
            continue
        name = data[field.start_byte:field.end_byte].decode("utf-8", "replace")
        if name in fields:
            continue
        if name in _RENAMES and _RENAMES[name] in fields:
            new = _RENAMES[name]
            ctx.fix(RENAMED_FIELD, Edit(field.start_byte, field.end_byte, new.encode()),
                    f"{name} -> {new}: ROCm {shown}'s hipDeviceProp_t names the field so")
            continue
        instead = _INSTEAD.get(name, "hipDeviceGetAttribute gives the quantity where an attribute has it")
        ctx.report(MISSING_FIELD, field.start_byte, f"ROCm {shown}'s hipDeviceProp_t has no field {name} (its struct "
                   f"is CUDA's from ROCm 6.0, --rocm-version 6.0): {instead}", end=field.end_byte, subject=name)
