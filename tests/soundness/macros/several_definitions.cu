// soundness: must-refuse
// why: OFF is threadIdx.x in the configuration that is compiled: which definition holds is not known
// no-edit: L007
// expect: L009 "several definitions"
#include <cstdio>
#ifdef USE_CONSTANT_OFFSET
#define OFF 2
#else
#define OFF threadIdx.x
#endif
__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = OFF;
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)(i % 128)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
