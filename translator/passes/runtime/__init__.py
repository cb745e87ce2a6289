"""The runtime pass: host-side patterns that cost a port its speed (R0xx).

What it does: `hoist` moves an allocation and its free (pattern 1: `cudaMalloc`/`cudaFree`,
`cudaMallocManaged`, `cudaMallocHost`/`cudaFreeHost`; R001) or a handle's creation and
destruction (pattern 5: streams, events, cuBLAS handles, cuFFT plans; R003) out of a host
loop whose every iteration makes and releases it, and reports the pairs it cannot move
with the missing fact and the fix (R002: stream-ordered allocation from a pool whose
release threshold is raised; R004). `sync` (pattern 2) reports device-wide
synchronisation in a loop's error check after every launch (R005: synchronise in debug
builds only), replaces one in `main` after work on one stream `main` creates by
`cudaStreamSynchronize(s)` (R010), removes a bare one followed at once by another (R011),
and reports the replacement where a fact is missing (R006). `pinned` (pattern 3)
allocates a `malloc`/`new T[n]` host buffer copied with `cudaMemcpy` in a loop with
`cudaMallocHost` (freed with `cudaFreeHost`) when nothing can keep the pointer (R007; also
`T* h = NULL; ... h = (T*)malloc(n);`, its one assignment on the straight-line path; of a
size known only at run time, pinned where it holds 256 KiB or more, decided there),
else reports it (R008), and reports `cudaMemcpyAsync` of a pageable buffer (R009).
`graphs` (pattern 4) captures a loop of launches only, on a stream the function creates
or on the default stream (captured on a non-blocking stream of its own, launched on the
default stream), once as a CUDA graph launched per iteration (a loop of one launch: 16 of
them in a row as one graph, launched every 16th iteration; R012), else reports it with the fix and the
benchmark's estimate (R013). `streams` says which stream each call's work goes to.
Legal when: the facts of translator.passes.runtime.loops (hoists), .sync (R010, R011),
.pinned (R007) and .graphs (R012) are all proved (for a hoist: the loop runs at least
once, or the pair goes under the condition of its first iteration, `if (0 < n)`, whose
names the loop does not write; the arguments are loop-invariant, the pointer or handle
does not escape the iteration, nothing skips the release, which ends the body; for a
pinned buffer: every function of the file it is passed to only reads and writes through
it); each rewrite's reason names them, each refusal the first that is missing.
Not handled: a pair in a loop of a loop (the inner loop is hoisted from, once);
allocations whose free is conditional or in another function; a stream synchronisation
outside `main` (its callers' work is not visible); a pinned buffer assigned more than once,
or in a branch, or a `calloc` (zero-filled); a loop of launches whose arguments
change per iteration (graph node parameters are not updated, only reported).
Example: `for (...) { float* d; cudaMalloc(&d, n * 4); k<<<g, b>>>(d); cudaFree(d); }`
becomes `float* d; cudaMalloc(&d, n * 4); for (...) { k<<<g, b>>>(d); } cudaFree(d);`.
Safety: the moved statements are the user's, as written (an error-check macro around a
call stays around it); one allocation reused by every iteration holds what the last wrote
where a fresh one held unspecified bytes, which a correct program does not read. A pinned
allocation can fail where a pageable one of the same size succeeds (pinned memory is
limited): the pointer is then null, as a failed `malloc` leaves it, where `new` would have
thrown. A captured graph reports a launch error at the capture's end or the
instantiation instead of at the launch. The pass restructures code, so it runs with the
restructuring passes, after rebalancing and fusion, on the input (round 0; the graph
capture also in a later round, for a loop another restructuring pass rewrote in round 0,
before any rename); the next round renames what it moved. `--no-runtime` (or
`runtime = false`) turns it off.
"""

from __future__ import annotations

from translator.facts.host_values import HostValues
from translator.options import DECLARED
from translator.passes import Context, register_pass
from translator.passes.runtime import graphs, hoist, pinned, sync

RULES = hoist.RULES + sync.RULES + pinned.RULES + graphs.RULES
# The hoists need a loop statement and one of these names: a file without them costs no walk
# (the sync rules have their own filter).
_LOOPS = (b"for", b"while")
_HOISTED = tuple(name.encode() for name in hoist.KINDS)


@register_pass("runtime-overheads", rules=RULES, requires=("kernels", "tree", HostValues), targets=("hip", "cuda"),
               after=("rebalancing", "fusion"),
               restructures=True,
               options=DECLARED["runtime-overheads"])
def run(ctx: Context) -> None:
    if not ctx.options.runtime or ctx.rewritten:
        return      # off, or the renames have begun: the decisions are made on the user's code
    if ctx.round == 0:      # later rounds see the pass's own output
        words = ctx.parsed.words
        if any(w in words for w in _LOOPS) and any(name in words for name in _HOISTED):
            hoist.run(ctx, ctx.facts.get(HostValues))
        sync.run(ctx, ctx.facts.get(HostValues))
        pinned.run(ctx, ctx.facts.get(HostValues))
    # A loop of launches another restructuring pass rewrites this round (fused, rebalanced)
    # is captured in the next round, from what that pass made of it.
    graphs.run(ctx, ctx.facts.get(HostValues))
