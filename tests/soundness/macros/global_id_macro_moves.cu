// soundness: must-apply
// why: IDX is the global thread id; the stored value is the element's index
// edit: L007 "256"
#include <cstdio>
#define IDX (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * 2;
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)(i * 2)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
