// soundness: must-refuse
// why: `Cell c;` runs the default constructor, which calls a helper that reads blockDim.x
// no-edit: L007
// expect: L009 "the file's Cell::Cell uses blockDim (through width)"
#include <cstdio>
__device__ int width() { return blockDim.x; }
struct Cell
{
    int x;
    __device__ Cell() { x = width(); }
};

__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Cell c;
        out[i] = c.x + i;
    }
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != i + 128) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
