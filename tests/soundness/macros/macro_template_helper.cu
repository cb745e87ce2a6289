// soundness: must-refuse
// why: the macro SHIFT calls a function template, with its argument written out, that reads blockDim.x
// no-edit: L007
// expect: L009 "it calls width, which uses blockDim"
#include <cstdio>
template <typename T> __device__ T width(T v) { return v + (T)blockDim.x; }
#define SHIFT(v) width<int>(v)

__global__ void k(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = SHIFT(i);
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
