// soundness: must-refuse
// why: the launch deduces T, here a class whose conversion from int reads blockDim
// no-edit: L007
// expect: L009 "the file's Scaled::Scaled uses blockDim"
#include <cstdio>

struct Scaled {
    int v;
    __device__ Scaled() : v(0) {}
    __device__ Scaled(int x) : v(x * (int)blockDim.x) {}
};

template <typename T>
__global__ void fill(T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = T(3);
}

int main()
{
    const int n = 5000;
    Scaled *y;
    cudaMallocManaged(&y, n * sizeof(Scaled));
    fill<<<(n + 511) / 512, 512>>>(y, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (y[i].v != 3 * 512) { printf("FAIL at %d: %d, not %d\n", i, y[i].v, 3 * 512); return 1; }
    printf("OK\n");
    return 0;
}
