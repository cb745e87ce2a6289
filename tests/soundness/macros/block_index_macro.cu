// soundness: must-refuse
// why: BID is blockIdx.x: the block number of an element depends on the block size
// no-edit: L007
// expect: L009 "the macro BID"
#include <cstdio>
#define BID blockIdx.x
__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = BID;
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)(i / 128)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
