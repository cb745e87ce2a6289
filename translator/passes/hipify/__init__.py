"""The hipify pass: what HIPIFY does, from the mapping tables (H0xx).

One pass, one rule family per module: `renames` (H001 and the diagnostics of a name,
H010-H014, H017, H018), `calls` (H004, H005, H007, H008: rewrites that depend on the arguments),
`warp_sync` (H006, H016), `headers` (H002, H015), `launch_syntax` (H003),
`unknown` (H019: CUDA-shaped names no table knows) and `builtins` (H020: a user's
definition of a function HIP already defines). Each
module's docstring says what it does, when it is legal, what it leaves, an example and
its safety.
"""

from __future__ import annotations

from translator.passes import Context, register_pass
from translator.passes.hipify import builtins, calls, headers, launch_syntax, renames, unknown, warp_sync
from translator.ir import WARP_SYNC_BUILTINS, call_of
from translator.scan import NAMESPACES

RULES = (renames.RENAME, headers.HEADER, launch_syntax.LAUNCH, calls.HIP_SYMBOL, calls.DROPPED_ARGUMENT,
         calls.KERNEL_CAST, calls.ADDED_ARGUMENT,
         warp_sync.WARP_SYNC, renames.NO_EQUIVALENT, renames.REMOVED, renames.DEPRECATED, renames.EXPERIMENTAL,
         renames.NOT_IN_TARGET, headers.UNSUPPORTED_HEADER, warp_sync.NEEDS_OPT_IN, renames.ARGUMENTS_DIFFER,
         renames.DECLARED_NAME, unknown.UNKNOWN, builtins.HIP_DEFINES)


@register_pass("hipify", rules=RULES, requires=("uses", "kernels", "launches", "tree"))
def run(ctx: Context) -> None:
    for use in ctx.uses:
        name = use.api.name
        if name in WARP_SYNC_BUILTINS:
            call = call_of(use.node)
            if call is not None:
                warp_sync.rewrite(ctx, use.fragment, name, use.node, call, calls.arguments(call))
                continue
            if use.entry is None:
                continue
        elif name in calls.NAMES and calls.rewrite(ctx, use):
            continue
        if name in NAMESPACES and use.entry is None:
            renames.rename_namespace(ctx, use)
        elif use.entry is not None:
            renames.rename(ctx, use.api.span, use.entry, node=use.node)
    unknown.report_unknown(ctx)
    builtins.guard_definitions(ctx)
    headers.map_headers(ctx)
    if ctx.options.hip_kernel_execution_syntax:
        launch_syntax.rewrite_launches(ctx)
    headers.request_runtime(ctx)
