// soundness: must-apply
// why: with no argument the loop runs zero times and its size is 4 TiB, which cudaMalloc cannot give: the original never asks for it; hoisted unguarded the allocation would fail, so it moves only under `0 < repeat`, which is false, and nothing is allocated
// edit: R001 "if (0 < repeat) { CHECK(cudaMalloc(&d, bytes)); }"
// edit: R001 "if (0 < repeat) { CHECK(cudaFree(d)); }"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void fill(float* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1.0f; }
int main(int argc, char** argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 0;
    size_t bytes = argc > 2 ? strtoull(argv[2], nullptr, 10) : ((size_t)1 << 42);
    for (int it = 0; it < repeat; ++it) {
        float* d;
        CHECK(cudaMalloc(&d, bytes));
        fill<<<(unsigned)((bytes / 4 + 255) / 256), 256>>>(d, bytes / 4);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaFree(d));
    }
    CHECK(cudaDeviceSynchronize());
    printf("PASS %d iterations\n", repeat);
    return 0;
}
