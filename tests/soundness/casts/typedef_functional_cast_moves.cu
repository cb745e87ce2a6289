// soundness: must-apply
// why: Real_t(x) converts to a typedef of double
// edit: L007 "256"
#include <cstdio>
typedef double Real_t;
__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (int)(Real_t(i) * 1.5);
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)((int)((double)i * 1.5))) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
