"""The runtime pass: host-side patterns that cost a port its speed (R0xx).

What it does: `hoist` moves an allocation and its free (pattern 1: `cudaMalloc`/`cudaFree`,
`cudaMallocManaged`, `cudaMallocHost`/`cudaFreeHost`; R001) or a handle's creation and
destruction (pattern 5: streams, events, cuBLAS handles, cuFFT plans; R003) out of a host
loop whose every iteration makes and releases it, and reports the pairs it cannot move
with the missing fact and the fix (R002: stream-ordered allocation from a pool whose
release threshold is raised; R004). `sync` reports device-wide synchronisation in a
loop's error check after every launch (R005: synchronise in debug builds only) and
after one stream's work (R006: the exact `cudaStreamSynchronize(s)`).
Legal when: the facts of translator.passes.runtime.loops are all proved (the loop runs at
least once, the arguments are loop-invariant, the pointer or handle does not escape the
iteration, nothing skips the release, which ends the body); each rewrite's reason names
them, each refusal the first that is missing.
Not handled: pageable copies in loops (pattern 3) and dispatch of launch sequences as
graphs (pattern 4); removing or replacing a device synchronisation (reported only); a
pair in a loop of a loop (the inner loop is hoisted from, once); allocations whose free is
conditional or in another function.
Example: `for (...) { float* d; cudaMalloc(&d, n * 4); k<<<g, b>>>(d); cudaFree(d); }`
becomes `float* d; cudaMalloc(&d, n * 4); for (...) { k<<<g, b>>>(d); } cudaFree(d);`.
Safety: the moved statements are the user's, as written (an error-check macro around a
call stays around it); one allocation reused by every iteration holds what the last wrote
where a fresh one held unspecified bytes, which a correct program does not read. The pass
restructures code, so it runs with the restructuring passes, on the input only (round 0);
the next round renames what it moved. `--no-runtime` (or `runtime = false`) turns it off.
"""

from __future__ import annotations

from translator.facts.host_values import HostValues
from translator.passes import Context, PassOption, register_pass
from translator.passes.runtime import graphs, hoist, pinned, sync

RULES = hoist.RULES + sync.RULES + pinned.RULES + graphs.RULES
# The hoists need a loop statement and one of these names: a file without them costs no walk
# (the sync rules have their own filter).
_LOOPS = (b"for", b"while")
_HOISTED = tuple(name.encode() for name in hoist.KINDS)


@register_pass("runtime-overheads", rules=RULES, requires=("kernels", "tree", HostValues), targets=("hip", "cuda"),
               after=("rebalancing", "fusion"),
               restructures=True,
               options=(PassOption("runtime", "runtime", True, "hoist allocations, streams, events and library "
                                   "handles out of loops, and report runtime overheads (the default)",
                                   off_help="do not run the runtime pass: no hoist, no runtime report"),))
def run(ctx: Context) -> None:
    if not ctx.options.runtime or ctx.rewritten:
        return      # off, or the renames have begun: the decisions are made on the user's code
    if ctx.round == 0:      # later rounds see the pass's own output
        words = ctx.parsed.words
        if any(w in words for w in _LOOPS) and any(name in words for name in _HOISTED):
            hoist.run(ctx, ctx.facts.get(HostValues))
        sync.run(ctx)
        pinned.run(ctx)
    # A loop of launches another restructuring pass rewrites this round (fused, rebalanced)
    # is captured in the next round, from what that pass made of it.
    graphs.run(ctx, ctx.facts.get(HostValues))
