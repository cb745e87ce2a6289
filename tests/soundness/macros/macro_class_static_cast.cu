// soundness: must-refuse
// why: the macro WIDEN casts to a class, whose constructor reads blockDim.x
// no-edit: L007
// expect: L009 "static_cast<Wide> (in the expansion of the macro WIDEN) converts to a type that may be a class"
#include <cstdio>
struct Wide { int v; __device__ Wide(int x) : v(x + (int)blockDim.x) {} };
#define WIDEN(x) static_cast<Wide>(x).v

__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = WIDEN(i);
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
