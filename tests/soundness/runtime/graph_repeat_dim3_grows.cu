// soundness: must-refuse
// why: the grid dim3(it + 1) grows with the loop's counter: a graph of 16 launches in a row would replay grids of 1 to 16 blocks for every batch, so the blocks past 16 would never run and the counts would be wrong
// no-edit: R012
// expect: R013 "'dim3(it + 1)' of the launch of mark may change per iteration"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void mark(int* x) { if (threadIdx.x == 0) x[blockIdx.x] += 1; }
int main()
{
    const int repeat = 40;
    int* d;
    CHECK(cudaMalloc(&d, repeat * sizeof(int)));
    CHECK(cudaMemset(d, 0, repeat * sizeof(int)));
    for (int it = 0; it < repeat; ++it) {
        mark<<<dim3(it + 1), 32>>>(d);
    }
    int h[40];
    CHECK(cudaMemcpy(h, d, repeat * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < repeat; ++b) if (h[b] != repeat - b) ++bad;
    CHECK(cudaFree(d));
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
