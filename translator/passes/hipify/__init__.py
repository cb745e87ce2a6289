"""The hipify pass: what HIPIFY does, from the mapping tables (H0xx).

One pass, one rule family per module: `renames` (H001 and the diagnostics of a name,
H010-H014, H017, H018), `calls` (H004, H005, H007, H008: rewrites that depend on the arguments),
`library_calls` (H021, H022: rocSPARSE and MIOpen calls rewritten argument by argument),
`warp_sync` (H006, H016), `headers` (H002, H015, H034), `launch_syntax` (H003),
`unknown` (H019: CUDA-shaped names no table knows), `unmapped` (H040: CUDA libraries no
table covers), `guards` (H041, H042: tests of CUDA headers' include guards), `device_props`
(H043, H044: cudaDeviceProp fields the target ROCm's struct names otherwise or lacks), `builtins` (H020: a user's
definition of a function HIP already defines) and `legacy_blas` (H023: calls of cuBLAS's
legacy API, left as they are); `signatures` (H024, H025: calls whose HIP signature
differs from CUDA's); `device_calls` (H027, H028 and the data type selection:
hipify-clang's remaining AST matchers); `strict_cxx` (H029-H033: what nvcc accepts and hipcc's
C++17 or HIP's overloads reject). Each
module's docstring says what it does, when it is legal, what it leaves, an example and
its safety.
"""

from __future__ import annotations

from translator.passes import Context, register_pass
from translator.passes.hipify import (builtins, calls, device_calls, device_props, guards, headers, launch_syntax,
                                      legacy_blas,
                                      library_calls, renames, signatures, strict_cxx, unknown,
                                      unmapped, warp_sync)
from translator.ir import WARP_SYNC_BUILTINS, call_of
from translator.scan import NAMESPACES

RULES = (renames.RENAME, headers.HEADER, launch_syntax.LAUNCH, calls.HIP_SYMBOL, calls.DROPPED_ARGUMENT,
         calls.KERNEL_CAST, calls.ADDED_ARGUMENT,
         warp_sync.WARP_SYNC, renames.NO_EQUIVALENT, renames.REMOVED, renames.DEPRECATED, renames.EXPERIMENTAL,
         renames.NOT_IN_TARGET, headers.UNSUPPORTED_HEADER, warp_sync.NEEDS_OPT_IN, warp_sync.SYNCWARP, renames.ARGUMENTS_DIFFER,
         renames.DECLARED_NAME, unknown.UNKNOWN, builtins.HIP_DEFINES, legacy_blas.LEGACY_CUBLAS,
         device_calls.HALF2_MEMBER, device_calls.PASTED_NAME, signatures.SIGNATURE, signatures.LOCATION,
         library_calls.LIBRARY_ARGUMENTS, library_calls.SIZE_CAST, *strict_cxx.RULES,
         headers.HEADER_NOT_IN_TARGET, unmapped.UNMAPPED, guards.GUARD, guards.UNMAPPED_GUARD, *device_props.RULES)


@register_pass("hipify", rules=RULES, requires=("uses", "kernels", "launches", "tree"))
def run(ctx: Context) -> None:
    legacy = legacy_blas.report_legacy(ctx)
    consumed = library_calls.Consumed()    # arguments a library rewrite moved or dropped
    for use in ctx.uses:
        name = use.api.name
        if consumed.covers(use.api.span):
            continue
        if use.api.span in legacy:
            continue
        if name in WARP_SYNC_BUILTINS:
            call = call_of(use.node)
            if call is not None:
                warp_sync.rewrite(ctx, use.fragment, name, use.node, call, calls.arguments(call))
                continue
            if use.entry is None:
                continue
        elif name in calls.NAMES and calls.rewrite(ctx, use):
            continue
        elif name in signatures.NAMES and signatures.rewrite(ctx, use):
            continue
        elif name in library_calls.NAMES and library_calls.rewrite(ctx, use, consumed):
            continue
        elif name in device_calls.DATA_TYPES and device_calls.select_data_type(ctx, use):
            continue
        if name in NAMESPACES and use.entry is None:
            renames.rename_namespace(ctx, use)
        elif use.entry is not None:
            renames.rename(ctx, use.api.span, use.entry, node=use.node)
    device_calls.rewrite_half2_members(ctx)
    device_calls.report_pasted_names(ctx)
    strict_cxx.run(ctx)
    unknown.report_unknown(ctx)
    unmapped.report_unmapped(ctx)
    guards.map_guards(ctx)
    device_props.check_fields(ctx)
    builtins.guard_definitions(ctx)
    headers.map_headers(ctx)
    if ctx.options.hip_kernel_execution_syntax:
        launch_syntax.rewrite_launches(ctx)
    headers.request_runtime(ctx)
