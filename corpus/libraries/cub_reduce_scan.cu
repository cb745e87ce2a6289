// CUB: device-wide Sum and ExclusiveSum with the usual two-phase temporary
// storage query, plus a cub::BlockReduce inside a templated kernel producing
// per-block sums. All results are integers and checked exactly.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void __launch_bounds__(BLOCK_THREADS) block_sums(const int* in, int n, int* out)
{
    using BlockReduce = cub::BlockReduce<int, BLOCK_THREADS>;
    __shared__ typename BlockReduce::TempStorage temp;

    const int tile = BLOCK_THREADS * ITEMS_PER_THREAD;
    int base = blockIdx.x * tile;
    int items[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
        int idx = base + k * BLOCK_THREADS + threadIdx.x;
        items[k] = idx < n ? in[idx] : 0;
    }
    int total = BlockReduce(temp).Sum(items);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main()
{
    const int n = (1 << 20) + 123;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 7 + 3) % 11 - 5;

    int *d_in, *d_sum, *d_scan;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sum, sizeof(int)));
    CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // Phase 1: query temp storage sizes; phase 2: run.
    size_t reduce_bytes = 0, scan_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, reduce_bytes, d_in, d_sum, n));
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, d_in, d_scan, n));
    size_t temp_bytes = reduce_bytes > scan_bytes ? reduce_bytes : scan_bytes;
    void* d_temp = nullptr;
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceReduce::Sum(d_temp, reduce_bytes, d_in, d_sum, n));
    CHECK(cub::DeviceScan::ExclusiveSum(d_temp, scan_bytes, d_in, d_scan, n));

    constexpr int kThreads = 256, kItems = 4;
    const int tile = kThreads * kItems;
    const int blocks = (n + tile - 1) / tile;
    int* d_blocks;
    CHECK(cudaMalloc(&d_blocks, blocks * sizeof(int)));
    block_sums<kThreads, kItems><<<blocks, kThreads>>>(d_in, n, d_blocks);
    CHECK(cudaGetLastError());

    int sum = 0;
    std::vector<int> scan(n), bsums(blocks);
    CHECK(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bsums.data(), d_blocks, blocks * sizeof(int), cudaMemcpyDeviceToHost));

    int bad = 0;
    long long running = 0;
    for (int i = 0; i < n; ++i) {
        if (scan[i] != running) {
            if (bad < 8) fprintf(stderr, "scan[%d] = %d, want %lld\n", i, scan[i], running);
            ++bad;
        }
        running += h[i];
    }
    if (sum != running) {
        fprintf(stderr, "sum = %d, want %lld\n", sum, running);
        ++bad;
    }
    for (int b = 0; b < blocks; ++b) {
        int want = 0;
        for (int i = b * tile; i < n && i < (b + 1) * tile; ++i) want += h[i];
        if (bsums[b] != want) {
            if (bad < 8) fprintf(stderr, "block %d sum = %d, want %d\n", b, bsums[b], want);
            ++bad;
        }
    }

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sum));
    CHECK(cudaFree(d_scan));
    CHECK(cudaFree(d_temp));
    CHECK(cudaFree(d_blocks));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
