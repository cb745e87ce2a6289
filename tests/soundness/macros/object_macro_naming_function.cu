// soundness: must-refuse
// why: WIDTH names a helper that returns blockDim.x; WIDTH() calls it
// no-edit: L007
// expect: L009 "blockDim"
#include <cstdio>
#define WIDTH width
__device__ int width() { return blockDim.x; }

__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = WIDTH();
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)(128)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
