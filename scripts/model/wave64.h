// wave64.h: AMD HIP's warp operations on a 64-lane wavefront, for programs run on HIP-CPU.
//
// HIP-CPU (AMD's header-only HIP runtime for CPUs, warpSize 64) runs each block's threads
// as fibers and lacks what a translated program may use: `__lane_id()`, `__activemask()`,
// the `*_sync` builtins of HIP 6.2 (64-bit masks, static_assert'ed), HIP 7.0's
// `__syncwarp`, `min`/`max`; and its shuffles compare absolute lane indices with `width`,
// which AMD's do not. This header replaces its warp operations with AMD's semantics
// (amd_warp_functions.h, amd_warp_sync_functions.h) and schedules the fibers itself:
//
//   - Wavefronts are AMD's: a block's threads numbered x fastest (x + X * (y + Y * z)),
//     64 to a wavefront, whatever order HIP-CPU's fibers run in (its numbering has x
//     slowest, which would put threads (0, 0) and (0, 1) of a 16x4 block side by side).
//   - A warp operation is a rendezvous of the wavefront's *active* lanes: a lane parks at
//     it, and the operation resolves once every lane of its 64-lane wavefront is parked
//     (at a warp operation, at a block barrier, or finished). Lanes that wait at a block
//     barrier or have returned are inactive, as on the GPU, so a warp operation inside a
//     branch (`if (p) __activemask()`) sees only the lanes that took it.
//   - Lanes parked at different warp operations (call sites) are divergent paths, run one
//     after the other in source order, each with its own lanes active (so a branch's
//     operation runs before the one after the branch, where its lanes join the others).
//   - The model stops, and says where, at a shuffle that reads an inactive lane, a
//     `*_sync` mask that is not exactly the active lanes that pass it (HIP asserts this),
//     and a deadlock.
//   - Shuffles: __shfl reads lane (src & (width-1)) + (self & ~(width-1)) (mod 64);
//     __shfl_up returns its own value below its width-group's first lane, __shfl_down when
//     (self & (width-1)) + delta >= width, __shfl_xor when self ^ m >= ((self + width) &
//     ~(width-1)). __all is over the active lanes.
//
// Build:  g++ -std=c++17 -I HIP_CPU/include -include scripts/model/wave64.h \
//             -DCU2HIP_MODEL_HIP_VERSION=700 prog.hip.cpp -ltbb -lpthread
// CU2HIP_MODEL_HIP_VERSION (major * 100 + minor, default 700) decides what is declared:
// `__activemask` and the `*_sync` builtins from 6.2 (below 7.0 only with
// HIP_ENABLE_WARP_SYNC_BUILTINS), `__syncwarp` from 7.0, so that a translation that
// leaves a builtin its target lacks does not compile here either.
#pragma once

// HIP-CPU's own warp operations and barrier are declared under other names, so that the
// header's (below) are the only ones: a program's macro of a builtin's name
// (`#define __shfl_down(v, d) __shfl_down(v, d, 32)`) then reaches the model's.
#define __shfl cu2hip_hip_cpu_shfl
#define __shfl_up cu2hip_hip_cpu_shfl_up
#define __shfl_down cu2hip_hip_cpu_shfl_down
#define __shfl_xor cu2hip_hip_cpu_shfl_xor
#define __ballot cu2hip_hip_cpu_ballot
#define __any cu2hip_hip_cpu_any
#define __all cu2hip_hip_cpu_all
#define __syncthreads cu2hip_hip_cpu_syncthreads
#include <hip/hip_runtime.h>
#undef __shfl
#undef __shfl_up
#undef __shfl_down
#undef __shfl_xor
#undef __ballot
#undef __any
#undef __all
#undef __syncthreads

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#ifndef CU2HIP_MODEL_HIP_VERSION
#define CU2HIP_MODEL_HIP_VERSION 700
#endif
#if CU2HIP_MODEL_HIP_VERSION >= 700 || (CU2HIP_MODEL_HIP_VERSION >= 602 && defined(HIP_ENABLE_WARP_SYNC_BUILTINS))
#define CU2HIP_MODEL_SYNC_BUILTINS 1
#else
#define CU2HIP_MODEL_SYNC_BUILTINS 0
#endif

static_assert(warpSize == 64, "the model is of a 64-lane wavefront");

namespace cu2hip_model {

constexpr unsigned kWave = 64;
constexpr unsigned kMaxLanes = 1024;

enum State : unsigned char { kRunning, kWarp, kBlock, kDone };
enum Op : unsigned char { kShfl, kShflUp, kShflDown, kShflXor, kBallot, kWaveBarrier };

struct Site {
    const char* file;
    int line;
    Op op;
};

struct Lane {
    State state;
    Site site;
    std::uint64_t value;     // the value a shuffle offers
    int arg;                 // a shuffle's source lane, delta or lane mask
    int width;
    int predicate;
    bool masked;             // a *_sync call: `mask` must be exactly the active lanes that pass it
    std::uint64_t mask;
    std::uint64_t result;    // a shuffle's value, or the ballot
    std::uint64_t active;    // the active lanes of the resolved operation
};

struct Block {
    unsigned size = 1;
    unsigned done = 0;
    unsigned released = 0;
    unsigned long long progress = 0;
    Lane lanes[kMaxLanes];
};

inline thread_local Block block;

// The fiber's number: HIP-CPU's order of a block's threads, x slowest (a 16x4 block's
// fiber 1 is thread (0, 1)). It orders the fibers' turns and their exit only.
inline unsigned self() noexcept { return hip::detail::Fiber::this_fiber().id(); }

// The thread's number in its block as AMD counts it, x fastest: wavefront w holds threads
// 64w to 64w + 63 of this order, and a lane's place in it is its lane id. Every Lane of the
// block is indexed by it.
inline unsigned linear() noexcept
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Hand the processor to the next fiber of the block (HIP-CPU's barrier is a round-robin yield).
inline void step() noexcept { hip::detail::Tile::this_tile().barrier(); }

[[noreturn]] inline void die(const char* what, const Site& site, unsigned lane) noexcept
{
    std::fprintf(stderr, "cu2hip model: %s:%d: %s (block %u, thread %u, lane %u of wavefront %u)\n",
                 site.file, site.line, what, blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z),
                 lane, lane % kWave, lane / kWave);
    std::fflush(stderr);
    std::_Exit(3);
}

// Wait, yielding, until ready(); a full turn of the block with no lane changing state is a deadlock.
template<typename Ready>
inline void wait(Ready ready, const char* deadlock, const Site& site) noexcept
{
    Block& b = block;
    unsigned long long seen = b.progress;
    int idle = 0;
    while (!ready()) {
        if (b.size == 1) die(deadlock, site, linear());
        step();
        if (b.progress != seen) {
            seen = b.progress;
            idle = 0;
        } else if (++idle > 3) {
            die(deadlock, site, linear());
        }
    }
}

inline void lane_begin() noexcept
{
    if (self() != 0) return;
    Block& b = block;
    b.size = blockDim.x * blockDim.y * blockDim.z;
    if (b.size > kMaxLanes) {
        std::fprintf(stderr, "cu2hip model: a block of %u threads (at most %u)\n", b.size, kMaxLanes);
        std::_Exit(3);
    }
    b.done = 0;
    b.released = 0;
    for (unsigned i = 0; i < b.size; ++i) b.lanes[i].state = kRunning;
    // HIP-CPU runs a block's threads one after the other, each to its end, unless thread 0
    // reaches a barrier (then every thread is a fiber, switched at barriers). A warp
    // operation that thread 0 does not reach (`if (in[i] % 3 == 0) atomicAggInc(c)`) needs
    // the fibers too: thread 0 yields here, before it runs the kernel.
    if (b.size > 1) step();
}

// A lane has returned: it waits until every lane has, and the lanes leave in order
// (HIP-CPU's fibers loop back into the kernel when yielded to after they return).
inline void lane_end() noexcept
{
    Block& b = block;
    const unsigned me = self();
    b.lanes[linear()].state = kDone;
    ++b.done;
    ++b.progress;
    if (b.size == 1) return;
    const Site site{__FILE__, __LINE__, kWaveBarrier};
    wait([&] { return b.done == b.size && b.released == me; }, "the block's lanes never all returned", site);
    ++b.released;
}

// -- warp operations ------------------------------------------------------------------

inline bool parked(State s) noexcept { return s != kRunning; }

inline std::uint64_t bit(unsigned lane) noexcept { return std::uint64_t{1} << lane; }

// The source lane (in the wavefront) of a shuffle, AMD's rules.
inline unsigned source_lane(const Lane& l, unsigned self_lane) noexcept
{
    const int self = static_cast<int>(self_lane);
    const int width = l.width;
    int index = self;
    switch (l.site.op) {
    case kShfl:
        index = (l.arg & (width - 1)) + (self & ~(width - 1));
        break;
    case kShflUp:
        index = self - l.arg;
        if (index < (self & ~(width - 1))) index = self;
        break;
    case kShflDown:
        index = ((self & (width - 1)) + l.arg) >= width ? self : self + l.arg;
        break;
    case kShflXor:
        index = self ^ l.arg;
        if (index >= ((self + width) & ~(width - 1))) index = self;
        break;
    default:
        break;
    }
    return static_cast<unsigned>(index) & (kWave - 1);    // ds_bpermute reads lane index mod 64
}

inline bool same_site(const Site& a, const Site& b) noexcept
{
    return a.line == b.line && a.op == b.op && std::strcmp(a.file, b.file) == 0;
}

inline bool before(const Site& a, const Site& b) noexcept
{
    const int files = std::strcmp(a.file, b.file);
    return files < 0 || (files == 0 && (a.line < b.line || (a.line == b.line && a.op < b.op)));
}

// Resolve a warp operation of wavefront `w` once every lane of it is parked. Lanes parked
// at different operations are divergent paths: the hardware runs them one after the
// other, each with its own lanes active; the model runs the one first in source order
// (a branch's operation before the one after the branch that its lanes then reach, a
// loop's before the one its exited lanes wait at), the others' lanes inactive.
inline bool resolve(unsigned w) noexcept
{
    Block& b = block;
    const unsigned lo = w * kWave;
    const unsigned hi = lo + kWave < b.size ? lo + kWave : b.size;
    const Lane* first = nullptr;
    for (unsigned j = lo; j < hi; ++j) {
        const Lane& l = b.lanes[j];
        if (!parked(l.state)) return false;
        if (l.state == kWarp && (first == nullptr || before(l.site, first->site))) first = &l;
    }
    if (first == nullptr) return false;
    const Site site = first->site;
    std::uint64_t active = 0;
    for (unsigned j = lo; j < hi; ++j) {
        if (b.lanes[j].state == kWarp && same_site(b.lanes[j].site, site)) active |= bit(j - lo);
    }
    const auto in_group = [&](unsigned j) { return (active >> (j - lo)) & 1u; };
    std::uint64_t ballot = 0;
    for (unsigned j = lo; j < hi; ++j) {
        const Lane& l = b.lanes[j];
        if (!in_group(j)) continue;
        if (l.masked) {
            if (l.mask == 0) die("a *_sync mask of 0 (HIP asserts: mask must be non-zero)", l.site, j);
            std::uint64_t same = 0;
            for (unsigned k = lo; k < hi; ++k) {
                const Lane& m = b.lanes[k];
                if (in_group(k) && m.masked && m.mask == l.mask) same |= bit(k - lo);
            }
            if (same != l.mask) {
                std::fprintf(stderr, "cu2hip model: mask 0x%016llx, active lanes with that mask 0x%016llx\n",
                             static_cast<unsigned long long>(l.mask), static_cast<unsigned long long>(same));
                die("a *_sync mask that is not exactly the active lanes that pass it (HIP asserts: all "
                    "threads specified in the mask must execute the same operation with the same mask)", l.site, j);
            }
        }
        if (l.predicate) ballot |= bit(j - lo);
    }
    for (unsigned j = lo; j < hi; ++j) {
        Lane& l = b.lanes[j];
        if (!in_group(j)) continue;
        l.active = active;
        if (l.site.op == kBallot || l.site.op == kWaveBarrier) {
            l.result = ballot;
        } else {
            const unsigned src = source_lane(l, j - lo);
            if (!(active & bit(src))) {
                std::fprintf(stderr, "cu2hip model: lane %u reads lane %u of its wavefront, active lanes 0x%016llx\n",
                             j - lo, src, static_cast<unsigned long long>(active));
                die("a shuffle reads a lane that is not active (or not in the block)", l.site, j);
            }
            l.result = b.lanes[lo + src].value;
        }
    }
    for (unsigned j = lo; j < hi; ++j) {
        if (in_group(j)) b.lanes[j].state = kRunning;
    }
    ++b.progress;
    return true;
}

inline Lane& rendezvous(Lane& l) noexcept
{
    Block& b = block;
    const unsigned wavefront = linear() / kWave;
    l.state = kWarp;
    ++b.progress;
    wait([&] {
        if (l.state == kWarp) resolve(wavefront);
        return l.state != kWarp;
    },
         "a warp operation waits for lanes that never arrive (a deadlock)", l.site);
    return l;
}

inline Lane& park(Op op, const char* file, int line) noexcept
{
    Lane& l = block.lanes[linear()];
    l.site = Site{file, line, op};
    l.masked = false;
    l.predicate = 0;
    l.arg = 0;
    l.width = static_cast<int>(kWave);
    l.value = 0;
    return l;
}

template<typename T>
inline T shuffle(Op op, T var, int arg, int width, bool masked, std::uint64_t mask,
                 const char* file, int line) noexcept
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "shuffles move values of at most 8 bytes");
    Lane& l = park(op, file, line);
    std::memcpy(&l.value, &var, sizeof(T));
    l.arg = arg;
    l.width = width;
    l.masked = masked;
    l.mask = mask;
    rendezvous(l);
    T out;
    std::memcpy(&out, &l.result, sizeof(T));
    return out;
}

inline Lane& vote(int predicate, bool masked, std::uint64_t mask, const char* file, int line) noexcept
{
    Lane& l = park(kBallot, file, line);
    l.predicate = predicate != 0;
    l.masked = masked;
    l.mask = mask;
    return rendezvous(l);
}

#define CU2HIP_SITE const char* file = __builtin_FILE(), int line = __builtin_LINE()

template<typename T>
inline T shfl(T var, int src_lane, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShfl, var, src_lane, width, false, 0, file, line);
}
template<typename T>
inline T shfl_up(T var, unsigned delta, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShflUp, var, static_cast<int>(delta), width, false, 0, file, line);
}
template<typename T>
inline T shfl_down(T var, unsigned delta, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShflDown, var, static_cast<int>(delta), width, false, 0, file, line);
}
template<typename T>
inline T shfl_xor(T var, int lane_mask, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShflXor, var, lane_mask, width, false, 0, file, line);
}
inline unsigned long long ballot(int predicate, CU2HIP_SITE) noexcept
{
    return vote(predicate, false, 0, file, line).result;
}
inline int any(int predicate, CU2HIP_SITE) noexcept
{
    return vote(predicate, false, 0, file, line).result != 0;
}
inline int all(int predicate, CU2HIP_SITE) noexcept
{
    const Lane& l = vote(predicate, false, 0, file, line);
    return l.result == l.active;
}
inline unsigned long long activemask(CU2HIP_SITE) noexcept
{
    return vote(1, false, 0, file, line).result;
}
inline void wave_barrier(CU2HIP_SITE) noexcept
{
    Lane& l = park(kWaveBarrier, file, line);
    rendezvous(l);
}
inline void syncthreads(CU2HIP_SITE) noexcept
{
    Block& b = block;
    if (b.size == 1) return;
    const Site site{file, line, kWaveBarrier};
    Lane& l = b.lanes[linear()];
    l.site = site;
    l.state = kBlock;
    ++b.progress;
    wait([&] {
        if (l.state != kBlock) return true;
        for (unsigned j = 0; j < b.size; ++j) {
            if (b.lanes[j].state != kBlock && b.lanes[j].state != kDone) return false;
        }
        for (unsigned j = 0; j < b.size; ++j) {
            if (b.lanes[j].state == kBlock) b.lanes[j].state = kRunning;
        }
        ++b.progress;
        return true;
    }, "__syncthreads waits for lanes that never arrive (a deadlock, or lanes at a warp operation)", site);
}
inline void fence(int, const char*) noexcept { std::atomic_thread_fence(std::memory_order_seq_cst); }

#if CU2HIP_MODEL_SYNC_BUILTINS
template<typename MaskT>
inline std::uint64_t sync_mask(MaskT mask) noexcept
{
    static_assert(std::is_integral<MaskT>::value && sizeof(MaskT) == 8,
                  "The mask must be a 64-bit integer. Implicitly promoting a smaller integer is almost always an error.");
    return static_cast<std::uint64_t>(mask);
}
template<typename MaskT, typename T>
inline T shfl_sync(MaskT mask, T var, int src_lane, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShfl, var, src_lane, width, true, sync_mask(mask), file, line);
}
template<typename MaskT, typename T>
inline T shfl_up_sync(MaskT mask, T var, unsigned delta, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShflUp, var, static_cast<int>(delta), width, true, sync_mask(mask), file, line);
}
template<typename MaskT, typename T>
inline T shfl_down_sync(MaskT mask, T var, unsigned delta, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShflDown, var, static_cast<int>(delta), width, true, sync_mask(mask), file, line);
}
template<typename MaskT, typename T>
inline T shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize, CU2HIP_SITE) noexcept
{
    return shuffle(kShflXor, var, lane_mask, width, true, sync_mask(mask), file, line);
}
template<typename MaskT>
inline unsigned long long ballot_sync(MaskT mask, int predicate, CU2HIP_SITE) noexcept
{
    const std::uint64_t m = sync_mask(mask);
    return vote(predicate, true, m, file, line).result & m;
}
template<typename MaskT>
inline int any_sync(MaskT mask, int predicate, CU2HIP_SITE) noexcept
{
    const std::uint64_t m = sync_mask(mask);
    return (vote(predicate, true, m, file, line).result & m) != 0;
}
template<typename MaskT>
inline int all_sync(MaskT mask, int predicate, CU2HIP_SITE) noexcept
{
    const std::uint64_t m = sync_mask(mask);
    return (vote(predicate, true, m, file, line).result & m) == m;
}
#endif
#if CU2HIP_MODEL_HIP_VERSION >= 700
inline void syncwarp(CU2HIP_SITE) noexcept
{
    Lane& l = park(kWaveBarrier, file, line);
    rendezvous(l);
}
template<typename MaskT>
inline void syncwarp(MaskT mask, CU2HIP_SITE) noexcept
{
    Lane& l = park(kWaveBarrier, file, line);
    l.masked = true;
    l.mask = sync_mask(mask);
    rendezvous(l);
}
#endif
#undef CU2HIP_SITE

}  // namespace cu2hip_model

inline unsigned __lane_id() noexcept { return cu2hip_model::linear() % cu2hip_model::kWave; }

template<typename A, typename B,
         std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value, int> = 0>
inline std::common_type_t<A, B> min(A a, B b) noexcept
{
    using C = std::common_type_t<A, B>;
    return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template<typename A, typename B,
         std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value, int> = 0>
inline std::common_type_t<A, B> max(A a, B b) noexcept
{
    using C = std::common_type_t<A, B>;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}

// HIP's __ffsll takes `unsigned long long` and `long long` (amd_device_functions.h);
// HIP-CPU's takes std::uint64_t and std::int64_t, `unsigned long` and `long` on LP64, so
// that __ffsll of an `unsigned long long` (a 64-bit ballot) matches neither better and is
// ambiguous. The two overloads HIP has are added (exact matches win).
inline unsigned __ffsll(unsigned long long x) noexcept { return x == 0 ? 0 : __builtin_ctzll(x) + 1; }
inline unsigned __ffsll(long long x) noexcept { return __ffsll(static_cast<unsigned long long>(x)); }

// The warp operations and barrier, as HIP declares them; each call's source line is its
// identity (the defaulted arguments are the caller's).
#define CU2HIP_AT const char* file = __builtin_FILE(), int line = __builtin_LINE()
template<typename T>
inline T __shfl(T var, int src_lane, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl(var, src_lane, width, file, line);
}
template<typename T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_up(var, delta, width, file, line);
}
template<typename T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_down(var, delta, width, file, line);
}
template<typename T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_xor(var, lane_mask, width, file, line);
}
inline unsigned long long __ballot(int predicate, CU2HIP_AT) noexcept { return ::cu2hip_model::ballot(predicate, file, line); }
inline int __any(int predicate, CU2HIP_AT) noexcept { return ::cu2hip_model::any(predicate, file, line); }
inline int __all(int predicate, CU2HIP_AT) noexcept { return ::cu2hip_model::all(predicate, file, line); }
inline void __syncthreads(CU2HIP_AT) noexcept { ::cu2hip_model::syncthreads(file, line); }
#if CU2HIP_MODEL_HIP_VERSION >= 602
inline unsigned long long __activemask(CU2HIP_AT) noexcept { return ::cu2hip_model::activemask(file, line); }
#endif
#if CU2HIP_MODEL_SYNC_BUILTINS
template<typename MaskT, typename T>
inline T __shfl_sync(MaskT mask, T var, int src_lane, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_sync(mask, var, src_lane, width, file, line);
}
template<typename MaskT, typename T>
inline T __shfl_up_sync(MaskT mask, T var, unsigned delta, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_up_sync(mask, var, delta, width, file, line);
}
template<typename MaskT, typename T>
inline T __shfl_down_sync(MaskT mask, T var, unsigned delta, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_down_sync(mask, var, delta, width, file, line);
}
template<typename MaskT, typename T>
inline T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::shfl_xor_sync(mask, var, lane_mask, width, file, line);
}
template<typename MaskT>
inline unsigned long long __ballot_sync(MaskT mask, int predicate, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::ballot_sync(mask, predicate, file, line);
}
template<typename MaskT>
inline int __any_sync(MaskT mask, int predicate, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::any_sync(mask, predicate, file, line);
}
template<typename MaskT>
inline int __all_sync(MaskT mask, int predicate, CU2HIP_AT) noexcept
{
    return ::cu2hip_model::all_sync(mask, predicate, file, line);
}
#endif
#if CU2HIP_MODEL_HIP_VERSION >= 700
inline void __syncwarp(CU2HIP_AT) noexcept { ::cu2hip_model::syncwarp(file, line); }
template<typename MaskT>
inline void __syncwarp(MaskT mask, CU2HIP_AT) noexcept { ::cu2hip_model::syncwarp(mask, file, line); }
#endif
#undef CU2HIP_AT
#define __builtin_amdgcn_wave_barrier ::cu2hip_model::wave_barrier
#define __builtin_amdgcn_fence ::cu2hip_model::fence
#ifndef HIP_KERNEL_NAME
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#endif

// HIP-CPU can run two tasks of the null stream at once: its drain takes the null stream's
// queue in one task and again among all streams (which hold the null stream too), so a
// launch queued while an earlier one runs may overlap it (two back-to-back launches that
// update one buffer then lose updates). The model waits for each launch on the null
// stream to finish: one of the orders CUDA's stream semantics allow.
namespace cu2hip_model {
inline void after_launch(hipStream_t stream) {
    if (stream == nullptr) (void)hipDeviceSynchronize();
}
}  // namespace cu2hip_model

// HIP-CPU has no hipDeviceGetAttribute; a translation asks it for the multiprocessor count
// (L008's device-sized grid). The model answers that one attribute from
// hipGetDeviceProperties (HIP-CPU's compute units are its hardware threads) and refuses any
// other with hipErrorInvalidValue, as HIP does for an attribute it does not know.
enum cu2hip_model_device_attribute { hipDeviceAttributeMultiprocessorCount = 1 };
inline hipError_t hipDeviceGetAttribute(int* value, cu2hip_model_device_attribute attribute, int device) {
    if (value == nullptr || attribute != hipDeviceAttributeMultiprocessorCount) return hipErrorInvalidValue;
    hipDeviceProp_t properties;
    hipError_t status = hipGetDeviceProperties(&properties, device);
    if (status == hipSuccess) *value = properties.multiProcessorCount;
    return status;
}

// Each lane of a launch is bracketed by lane_begin/lane_end (HIP-CPU's launch, otherwise).
#undef hipLaunchKernelGGL
#define hipLaunchKernelGGL(kernel_name, num_blocks, dim_blocks, group_mem_bytes, stream, ...) \
    if (true) {                                                                                 \
        hipStream_t cu2hip_model_stream_ = (stream);                                            \
        ::hip::detail::launch(num_blocks, dim_blocks, group_mem_bytes, cu2hip_model_stream_,    \
                              [=](auto&&... xs) noexcept {                                     \
                                  ::cu2hip_model::lane_begin();                                 \
                                  kernel_name(std::forward<decltype(xs)>(xs)...);               \
                                  ::cu2hip_model::lane_end();                                   \
                              }, std::make_tuple(__VA_ARGS__));                                 \
        ::cu2hip_model::after_launch(cu2hip_model_stream_);                                     \
    } else ((void)0)

// HIP-CPU has no graphs. The model's stream capture always fails (hipErrorNotSupported), so a
// translation that captures a loop of launches (R012) runs the launches it keeps, as written,
// for that case: the fallback path is what runs here.
typedef struct cu2hip_model_graph* hipGraph_t;
typedef struct cu2hip_model_graph_exec* hipGraphExec_t;
enum hipStreamCaptureMode {
    hipStreamCaptureModeGlobal = 0,
    hipStreamCaptureModeThreadLocal = 1,
    hipStreamCaptureModeRelaxed = 2
};
inline hipError_t hipStreamBeginCapture(hipStream_t, hipStreamCaptureMode) { return hipErrorNotSupported; }
inline hipError_t hipStreamEndCapture(hipStream_t, hipGraph_t* graph) {
    if (graph != nullptr) *graph = nullptr;
    return hipErrorNotSupported;
}
inline hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t, void*, char*, size_t) {
    if (exec != nullptr) *exec = nullptr;
    return hipErrorNotSupported;
}
inline hipError_t hipGraphLaunch(hipGraphExec_t, hipStream_t) { return hipErrorNotSupported; }
inline hipError_t hipGraphExecDestroy(hipGraphExec_t) { return hipSuccess; }
inline hipError_t hipGraphDestroy(hipGraph_t) { return hipSuccess; }
