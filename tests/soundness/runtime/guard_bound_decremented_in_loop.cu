// soundness: must-refuse
// why: the loop's bound 'left' is lowered by each iteration: the condition of its first iteration (0 < left) is true before the loop and false after it, so a free after the loop under the same condition would never run and each call would leak its 1 GiB buffer
// no-edit: R001
// expect: R002 "its bound 'left' is not loop-invariant ('left' is written in the loop"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void fill(char* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1; }
static size_t free_bytes() { size_t f = 0, t = 0; cudaMemGetInfo(&f, &t); return f; }
void work(int left)
{
    const size_t bytes = (size_t)1 << 30;
    for (int it = 0; it < left; ++it) {
        char* d;
        cudaMalloc(&d, bytes);
        fill<<<(unsigned)(bytes / 256), 256>>>(d, bytes);
        cudaDeviceSynchronize();
        left -= 2;
        cudaFree(d);
    }
}
int main(int argc, char** argv)
{
    int left = argc > 1 ? atoi(argv[1]) : 4;
    cudaFree(0);
    size_t before = free_bytes();
    for (int call = 0; call < 4; ++call) work(left);
    size_t after = free_bytes();
    if (after + ((size_t)256 << 20) < before) { printf("FAIL: %zu MiB leaked\n", (before - after) >> 20); return 1; }
    printf("PASS\n");
    return 0;
}
