// soundness: must-refuse
// why: a while loop's first iteration has no condition of a counter to write before it: with no argument it runs zero times and its size is 4 TiB, which the original never asks for; hoisted unguarded, the allocation would fail
// no-edit: R001
// expect: R002 "a while loop's trip count is not known: it may run zero times"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void fill(float* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1.0f; }
int main(int argc, char** argv)
{
    int remaining = argc > 1 ? atoi(argv[1]) : 0;
    size_t bytes = argc > 2 ? strtoull(argv[2], nullptr, 10) : ((size_t)1 << 42);
    while (remaining > 0) {
        float* d;
        CHECK(cudaMalloc(&d, bytes));
        fill<<<(unsigned)((bytes / 4 + 255) / 256), 256>>>(d, bytes / 4);
        CHECK(cudaDeviceSynchronize());
        --remaining;
        CHECK(cudaFree(d));
    }
    printf("PASS\n");
    return 0;
}
