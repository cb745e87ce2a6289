// soundness: must-refuse
// why: T1 expands to T0, which is threadIdx.x: seen through two macros
// no-edit: L007
// expect: L009 "the macro T1"
#include <cstdio>
#define T0 threadIdx.x
#define T1 (T0 + 1)
__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = T1;
}

int main()
{
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (int)(i % 128 + 1)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
