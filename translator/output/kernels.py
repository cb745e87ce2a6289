"""The kernel table of `cu2hip report`: per kernel, where it is, the block sizes of its
launches (or why they are unknown), the bounds its translation carries, the static
register estimate for those bounds (translator.ir.registers), the launch-configuration
changes the report's rules made or refused for it, and hipcc's own figures for the
translation with and without the optimizing passes (VGPRs, AGPRs, SGPRs, scratch bytes
per lane, occupancy, spills), from `-Rpass-analysis=kernel-resource-usage`.

It reads the IR, the findings and the toolchain, never a pass: "without the optimizing
passes" is a translation that ignores every rule with a report topic, and a kernel's
launch changes are the findings of those rules whose subject is the kernel's name (or a
list of names, `a, b`, that holds it: a loop of launches of several kernels).
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from translator import compile_context, toolchain
from translator.frontend import parse_file
from translator.facts import Facts, active
from translator.ir import build_ir
from translator.ir.host_values import KernelLaunches, evaluator
from translator.ir.registers import estimate, kernel_bounds, kernel_demand
from translator.mapping import load_tables
from translator.source import SourceFile

FIGURES = ("vgprs", "agprs", "sgprs", "scratch_bytes", "occupancy", "vgpr_spills", "sgpr_spills")


def function_name(mangled: str) -> str:
    """The unqualified name of an Itanium-mangled function (`_Z5heavyPKfPfi` -> `heavy`,
    `_ZN2ns1kEPf` -> `k`, `_ZL1kPf` -> `k`, `_ZN2nsL1kEPf` -> `k`: a static kernel in a
    namespace); the text itself when it is not mangled."""
    if not mangled.startswith("_Z"):
        return mangled
    i, name = 2 + (mangled[2:3] == "L"), mangled          # _ZL: internal linkage (a static kernel)
    nested = mangled[i:i + 1] == "N"
    i += nested
    while i < len(mangled) and (mangled[i].isdigit() or (nested and mangled[i] == "L")):
        if mangled[i] == "L":       # internal linkage of the name that follows
            i += 1
            continue
        j = i
        while j < len(mangled) and mangled[j].isdigit():
            j += 1
        size = int(mangled[i:j])
        name, i = mangled[j:j + size], j + size
        if not nested:
            break
    return name


def rows(pairs, options) -> list[dict]:
    """One row per kernel defined in the translated files (`pairs`: (job, Result))."""
    out = []
    for job, result in pairs:
        if result.skipped or b"__global__" not in result.input:
            continue
        parsed = parse_file(result.input, None, options.qualifier_macros, defines=options.defines)
        with active(Facts(parsed)):      # the file's facts (its register counter) built once
            out += _rows(result, parsed, options)
    return out


def _rows(result, parsed, options) -> list[dict]:
    out = []
    module = build_ir(result.path, parsed)
    launches = KernelLaunches(parsed, module, SourceFile(result.path, result.input), options.launch_index,
                              evaluator(parsed, result.path, options))
    output = parse_file(result.output, None, options.qualifier_macros, defines=options.defines)
    translated = build_ir(result.path, output)
    bounded = {k.name: k for k in translated.kernels if k.body_span is not None and k.launch_bounds}
    source = SourceFile(result.path, result.input)
    for kernel in module.kernels:
        if kernel.body_span is None:
            continue
        found = launches.of(kernel.name)
        unknown = next((f"{where}: {reason}" for where, values, reason in found if not values), None)
        sizes = sorted({v for _, values, _ in found for v in values})
        bound = bounded.get(kernel.name)
        out.append({
            "file": result.path, "line": source.position(kernel.name_span[0])[0], "kernel": kernel.name,
            "launch_sizes": sizes, "launches": len(found), "unknown": unknown,
            "bounds": ", ".join(e.text for e in bound.launch_bounds) if bound is not None else None,
            "estimate": _estimate(parsed, kernel, output, bound, sizes).to_json(),
        })
    return out


def _estimate(parsed, kernel, output, bound, sizes: list[int]):
    """The register estimate of a kernel (counted in the input) for the bound its
    translation carries: its value where the file gives it, else the largest block size
    of its launches (the bound's source); no bound: HIP's default, 1024 threads."""
    max_threads, min_waves = kernel_bounds(output, bound) if bound is not None else (None, None)
    if bound is not None and max_threads is None and sizes:
        max_threads = max(sizes)
    return estimate(kernel_demand(parsed, kernel), max_threads, min_waves)


def launch_changes(table: list[dict], findings: dict[str, list]) -> None:
    """Add to each row its launch-configuration changes: the findings (diagnostics, and
    the rewrites they own) of the rules with a report topic whose subject is the
    kernel's name, in its file, as {"code", "message"}; a rewrite that writes the
    `__launch_bounds__` the row already shows is left out."""
    for row in table:
        row["launch_changes"] = [
            {"code": d.code, "message": d.message} for items in findings.values() for d in items
            if d.path == row["file"] and row["kernel"] in _subjects(d) and not _writes_bounds(d, row)]


def _subjects(d) -> tuple[str, ...]:
    """The names a finding is about: its subject, or each of a list `a, b`."""
    return tuple(d.subject.split(", ")) if d.subject else ()


def _writes_bounds(d, row: dict) -> bool:
    return row["bounds"] is not None and d.fix is not None and \
        any(b"__launch_bounds__" in e.text for e in d.fix.edits)


def compile_figures(table: list[dict], pairs, without, offload_arch: str, jobs: int, context=None,
                    timeout: float = toolchain.DEFAULT_TIMEOUT, search: tuple[Path, ...] = ()) -> list[str]:
    """Add hipcc's figures to each row, for the translation (`pairs`) and the one without
    the optimizing passes (`without`: Results in the same order); the reasons figures are
    missing, if any. `context` (translator.compile_context) gives each file's include
    folders, definitions and standard; a folder of the translated tree is searched in the
    translation's copy first. A compile that stops at a header not found says which, where
    it is under the folders of `search` (default: the inputs' common folder) and what option
    adds it."""
    if toolchain.hipcc() is None:
        return ["hipcc is not installed: no compiler figures (apt-get install hipcc libamdhip64-dev "
                "rocm-device-libs)"]
    sources = [Path(job.source).resolve() for job, _ in pairs]
    root = Path(os.path.commonpath([str(p.parent) for p in sources])) if sources else Path(".")
    figures: dict[str, dict[str, dict]] = {"with": {}, "without": {}}
    with tempfile.TemporaryDirectory() as tmp:
        units = []
        for variant, results in (("with", [r for _, r in pairs]), ("without", without)):
            for path, result in zip(sources, results):
                target = Path(tmp, variant, path.relative_to(root))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(result.output)
                if any(word in result.output for word in (b"__global__", b"<<<", b"hipLaunchKernelGGL")):
                    units.append((variant, result.path, target, path))     # a launch instantiates a header's kernel

        def run(unit):
            variant, display, target, source = unit
            own = context.for_file(source) if context is not None else None
            folders = [str(target.parent)]
            for d in own.include_dirs if own is not None else ():
                if compile_context.cuda_toolkit(d):
                    continue        # CUDA's headers would stand in for HIP's
                if Path(d).resolve().is_relative_to(root):
                    folders.append(str(Path(tmp, variant, Path(d).resolve().relative_to(root))))
                folders.append(d)
            done, kernels = toolchain.hip_kernel_resources(
                target, offload_arch, include_dirs=tuple(dict.fromkeys(folders)),
                defines=own.defines if own is not None else (), std=(own.std if own is not None else None) or "c++17",
                timeout=timeout)
            return variant, display, done, kernels
        problems = []
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool, toolchain.compilers():
            for variant, display, done, kernels in pool.map(run, units):
                if not done.ok and not kernels:
                    problems.append(f"{display} ({variant} the optimizing passes) did not compile for {offload_arch}: "
                                    + _why_not(done.output, {Path(tmp, variant).resolve(): root}, root,
                                               search or (root,)))
                for k in kernels:
                    figures[variant].setdefault(display, {}).setdefault(function_name(k.kernel), k)
    outputs = {"with": {r.path: r.output for _, r in pairs}, "without": {r.path: r.output for r in without}}
    for row in table:
        for variant, key in (("with", None), ("without", "without")):
            found = figures[variant].get(row["file"], {}).get(row["kernel"]) or \
                _from_includer(figures[variant], outputs[variant], row)
            values = {f: getattr(found, f) for f in FIGURES} if found is not None else None
            if key is None:
                row.update(values or {f: None for f in FIGURES})
            else:
                row[key] = values
        if row["vgprs"] is None and not any(p.startswith(f"{row['file']} ") for p in problems):
            problems.append(f"{row['file']}:{row['line']}: {row['kernel']}: no figures: hipcc emitted no code for "
                            "it (a template no translated file instantiates, a static kernel no file launches, "
                            "or a name made by a macro)")
    return problems


def _from_includer(figures: dict, outputs: dict, row: dict):
    """The figures of a header's kernel from a file that includes the header (compiled
    alone, a header emits no code for a template or a static kernel)."""
    name = os.fsencode(Path(row["file"]).name)   # a name of bytes that are not UTF-8 included
    for display in sorted(figures):
        if display != row["file"] and row["kernel"] in figures[display] and \
                re.search(rb'#\s*include\s*"[^"]*\b' + re.escape(name) + rb'"', outputs.get(display, b"")):
            return figures[display][row["kernel"]]
    return None


def nvcc_figures(table: list[dict], pairs, jobs: int, context=None,
                 timeout: float = toolchain.DEFAULT_TIMEOUT, search: tuple[Path, ...] = ()) -> list[str]:
    """Add `nvcc --resource-usage`'s registers and spill stores of the CUDA originals (for
    sm_90) to each row; the reasons figures are missing, if any."""
    if toolchain.nvcc() is None:
        return ["nvcc is not installed: no figures for the CUDA originals (pip install nvidia-cuda-nvcc)"]
    extra = tuple(filter(None, [os.environ.get("CU2HIP_CUDA_INCLUDE")]))
    units = [(result.path, Path(job.source)) for job, result in pairs      # a launch instantiates a header's kernel
             if not result.skipped and (b"__global__" in result.input or b"<<<" in result.input)]

    def run(unit):
        display, path = unit
        own = context.for_file(path) if context is not None else None
        done, kernels = toolchain.nvcc_kernel_resources(
            path, include_dirs=(str(path.parent), *(own.include_dirs if own is not None else ()), *extra),
            defines=own.defines if own is not None else (), std=(own.std if own is not None else None) or "c++17",
            timeout=timeout)
        return display, done, kernels
    found: dict[str, dict] = {}
    problems = []
    sources = [path.resolve() for _, path in units]
    root = Path(os.path.commonpath([str(p.parent) for p in sources])) if sources else Path(".")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool, toolchain.compilers():
        for display, done, kernels in pool.map(run, units):
            if not done.ok and not kernels:
                problems.append(f"{display} did not compile with nvcc: "
                                + _why_not(done.output, {}, root, search or (root,), translated=False))
            for k in kernels:
                found.setdefault(display, {}).setdefault(function_name(k.kernel), k)
    inputs = {r.path: r.input for _, r in pairs}
    for row in table:
        k = found.get(row["file"], {}).get(row["kernel"]) or _from_includer(found, inputs, row)
        row["nvcc_registers"] = k.registers if k is not None else None
        row["nvcc_spill_bytes"] = k.spill_bytes if k is not None else None
    return problems


def _why_not(output: str, copies: dict[Path, Path], inputs: Path, search: tuple[Path, ...],
             translated: bool = True) -> str:
    """Why a compile failed: its first error, its paths in the temporary copies (`copies`:
    copy folder -> the folder it mirrors) given as the originals; for a header not found,
    what is missing and the option that adds it (a header found under `search`: -I its
    folder; a CUDA header that a file of the project read untranslated includes: that
    file's folder as an input)."""
    error = _first_error(output)
    for copy, home in copies.items():
        error = error.replace(str(copy) + os.sep, str(home) + os.sep)
    miss = toolchain.missing_header(output)
    if miss is None:
        return error
    where, copied = miss.path, False
    for copy, home in copies.items():
        if Path(miss.path).resolve().is_relative_to(copy):
            where, copied = str(home / Path(miss.path).resolve().relative_to(copy)), True
    at = f"{where}:{miss.line}:{miss.col}"
    if translated and not copied and load_tables().header(miss.name) is not None:
        # A header of the project compiled as it is: its CUDA includes are not HIP's.
        return (f"{at}: '{miss.name}' was not found: {where} is CUDA, compiled untranslated because its folder "
                f"is not an input: add {Path(where).parent} to the inputs of `cu2hip report` (its translation is "
                "then searched first)")
    found = next((f for top in search if (f := _find_header(miss.name, top)) is not None), None)
    if found is None:
        return (f"{at}: '{miss.name}' was not found, nor is it under {', '.join(map(str, search))}: give its "
                "folder with -I DIR, or the build's compilation database with -p BUILD_DIR")
    folder = Path(str(found)[:-len(miss.name)].rstrip(os.sep) or os.sep)
    also = "" if folder.resolve().is_relative_to(inputs) or not translated else \
        f", and {folder} to the inputs if its headers use CUDA"
    return (f"{at}: '{miss.name}' was not found: {found} has it; add -I {folder} (or -p BUILD_DIR with the "
            f"build's compile_commands.json){also}")


def _find_header(name: str, top: Path, limit: int = 20000) -> Path | None:
    """The first file (in sorted walk order, at most `limit` files looked at) under `top`
    whose path ends with the include's `name` (`x.h`, `sub/x.h`); folders starting with
    `.` are not entered."""
    parts = Path(name).parts
    if not parts or ".." in parts or Path(name).is_absolute():
        return None
    seen = 0
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        seen += len(filenames)
        here = Path(dirpath)
        if parts[-1] in filenames and Path(here, parts[-1]).as_posix().endswith("/" + "/".join(parts)):
            return here / parts[-1]
        if seen > limit:
            return None
    return None


def _first_error(output: str) -> str:
    lines = output.strip().splitlines()
    return next((line.strip() for line in lines if "error" in line), lines[-1] if lines else "no output")


def without_passes(options, topics_rules) -> object:
    """The options of a translation that makes none of the optimizing passes' rewrites."""
    return dataclasses.replace(options, ignore=tuple(options.ignore) + tuple(sorted(topics_rules)))
