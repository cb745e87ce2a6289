// soundness: must-apply
// why: ROOT calls sqrtf: a math function of the index alone
// edit: L007 "256"
#include <cstdio>
#define ROOT(x) ((int)sqrtf((float)(x)))
__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ROOT(i);
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)((int)sqrtf((float)i))) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
