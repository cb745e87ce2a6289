// soundness: must-refuse
// why: a lambda that captures everything by reference ends the loop by setting its bound to zero: the first-iteration condition would be false after the loop, and the free after it would not run (the buffers leak)
// no-edit: R001
// expect: R002 "captures everything by reference and uses 'repeat'"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void fill(char* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1; }
static size_t free_bytes() { size_t f = 0, t = 0; cudaMemGetInfo(&f, &t); return f; }
int main(int argc, char** argv)
{
    cudaFree(0);
    size_t before = free_bytes();
    for (int call = 0; call < 4; ++call) {
        int repeat = argc > 1 ? atoi(argv[1]) : 3;
        auto finish = [&](int it) { if (it == 1) repeat = 0; };
        const size_t bytes = (size_t)1 << 30;
        for (int it = 0; it < repeat; ++it) {
            char* d;
            cudaMalloc(&d, bytes);
            fill<<<(unsigned)(bytes / 256), 256>>>(d, bytes);
            cudaDeviceSynchronize();
            finish(it);
            cudaFree(d);
        }
    }
    size_t after = free_bytes();
    if (after + ((size_t)256 << 20) < before) { printf("FAIL: %zu MiB leaked\n", (before - after) >> 20); return 1; }
    printf("PASS\n");
    return 0;
}
