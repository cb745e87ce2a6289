"""H040: CUDA libraries no mapping table covers, reported where they are used.

What it does:
    Reports (no edit) each `#include` of a header of a CUDA library that neither the
    include map nor corrections.tsv knows: the cooperative-groups algorithms
    (`cooperative_groups/reduce.h`, `.../memcpy_async.h`, `.../scan.h`), libcu++
    (`cuda/barrier`, `cuda/pipeline`, `cuda/std/...`) and NVTX (`nvtx3/...`,
    `nvToolsExt*.h`); and each use of what those give: `cg::reduce`,
    `cg::inclusive_scan`/`exclusive_scan`, `cg::memcpy_async`/`cg::wait` (through
    `cooperative_groups::` or a `namespace X = cooperative_groups;` alias of the
    file), a tile's `meta_group_rank()`/`meta_group_size()`, `cuda::barrier`,
    `cuda::pipeline`, `cuda::memcpy_async`, and NVTX's `nvtx*` calls and types. HIP
    5.2's cooperative groups (amd_hip_cooperative_groups.h) declare none of these
    names, so the output would not compile and nothing would say why.
Legal when:
    Always (a diagnostic).
Not handled:
    Bare uses after `using namespace cooperative_groups;` (`reduce(...)` is too common a
    name to report); NVTX is not mapped to roctx (`roctracer/roctx.h`), whose names no
    table lists: the message says so.
Example:
    #include <cooperative_groups/reduce.h>   ->   warning: ... no HIP counterpart ...
Safety:
    no edit.
"""

from __future__ import annotations

import re

from translator.catalog import WARNING, rule
from translator.frontend import include_directives, node_at
from translator.passes import Context

UNMAPPED = rule(
    "H040", "unmapped-cuda-library", WARNING, "a CUDA library that no mapping table covers is used", """
The include or name belongs to a CUDA library HIP has no counterpart for in the mapping
tables: the cooperative-groups algorithms (`cg::reduce`, `cg::memcpy_async`, scans, a
tile's `meta_group_rank()`), libcu++'s `cuda::barrier`, `cuda::pipeline` and
`cuda::memcpy_async`, or NVTX. It is left as it is and will not compile under HIP.
Write the reduction with the tile's shuffles (`t.shfl_down`), the copy as plain loads
and a `__syncthreads()`, and NVTX ranges with roctx (`roctxRangePushA` from
`roctracer/roctx.h`), or guard the code with `#ifdef __HIP_PLATFORM_AMD__`.""",
    example="#include <cooperative_groups/reduce.h>\n")

_HEADERS = (("cooperative_groups/", "a cooperative-groups algorithm header; HIP's cooperative groups have no "
             "reduce, scan or memcpy_async"),
            ("cuda/", "a libcu++ header (cuda::barrier, cuda::pipeline, ...); HIP has no counterpart"),
            ("nvtx3/", "an NVTX header; ROCm's counterpart is roctx (roctracer/roctx.h), which no mapping "
             "table lists"),
            ("nvToolsExt", "an NVTX header; ROCm's counterpart is roctx (roctracer/roctx.h), which no mapping "
             "table lists"))
_CG_NAMES = rb"plus|less|greater|bit_and|bit_or|bit_xor|reduce|inclusive_scan|exclusive_scan|memcpy_async|wait|wait_prior|reduce_update_async|reduce_store_async"
_CUDA_NAMES = rb"barrier|pipeline|memcpy_async|aligned_size_t|pipeline_shared_state|make_pipeline"
_ALIAS = re.compile(rb"\bnamespace[ \t]+(\w+)[ \t]*=[ \t]*(?:::)?cooperative_groups[ \t]*;")
_META = re.compile(rb"(?<=[.>])[ \t]*(meta_group_rank|meta_group_size)[ \t]*\(")
_NVTX = re.compile(rb"(?<![\w$])nvtx[A-Z]\w*|(?<![\w$])nvtx3(?=::)")


def report_unmapped(ctx: Context) -> None:
    text = ctx.parsed.cleaned
    if not any(w in ctx.parsed.words for w in (b"cooperative_groups", b"cuda", b"meta_group_rank",
                                               b"meta_group_size", b"nvtx3")) and b"nvtx" not in text:
        return
    data = ctx.source.data
    for _, path in include_directives(ctx.parsed):
        header = data[path.start_byte + 1:path.end_byte - 1].decode("utf-8", "replace")
        if ctx.tables.header(header) is not None:
            continue
        for prefix, what in _HEADERS:
            if header.startswith(prefix):
                ctx.report(UNMAPPED, path.start_byte, f"'{header}' is {what}; kept", end=path.end_byte,
                           subject=header)
                break
    aliases = [b"cooperative_groups"] + [m.group(1) for m in _ALIAS.finditer(text)]
    patterns = [(re.compile(rb"(?<![\w$])(?:" + b"|".join(map(re.escape, aliases)) + rb")[ \t]*::[ \t]*(" +
                            _CG_NAMES + rb")(?![\w$])"), "cooperative groups' {}: HIP's cooperative groups do not "
                 "declare it"),
                (re.compile(rb"(?<![\w$:])cuda[ \t]*::[ \t]*(" + _CUDA_NAMES + rb")(?![\w$])"),
                 "libcu++'s cuda::{}: HIP has no counterpart"),
                (_META, "a tile's {}(): HIP's thread_block_tile does not declare it"),
                (_NVTX, "NVTX's {}: no mapping table lists roctx's names (roctracer/roctx.h)")]
    seen = set()
    for pattern, message in patterns:
        for m in pattern.finditer(text):
            start, end = (m.start(1), m.end(1)) if m.groups() else (m.start(), m.end())
            if start in seen or not _in_code(ctx, start, end):
                continue
            seen.add(start)
            name = text[start:end].decode("ascii", "replace")
            ctx.report(UNMAPPED, start, message.format(name) + "; left as it is", end=end, subject=name)


def _in_code(ctx: Context, start: int, end: int) -> bool:
    """Is the name a name of code (not in a comment or a string)?"""
    for frag in ctx.parsed.fragments:
        if not any(lo <= start < hi for lo, hi in frag.ranges(len(ctx.parsed.cleaned))):
            continue
        node = node_at(frag.root, start - frag.delta, end - frag.delta)
        return node is not None and node.type in ("identifier", "type_identifier", "namespace_identifier",
                                                  "field_identifier")
    return False
