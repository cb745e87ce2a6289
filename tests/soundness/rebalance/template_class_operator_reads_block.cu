// soundness: must-refuse
// why: instantiated with a class whose operator+ reads blockDim, the kernel's result depends on the block size
// no-edit: L007
// expect: L009 "the file's Tagged::operator+ uses blockDim"
#include <cstdio>

struct Tagged {
    int v;
    __device__ Tagged operator+(Tagged o) const { Tagged r; r.v = v + o.v + (int)blockDim.x; return r; }
};

template <typename T>
__global__ void add_self(const T* x, T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + x[i];
}

int main()
{
    const int n = 5000;
    Tagged *x, *y;
    cudaMallocManaged(&x, n * sizeof(Tagged));
    cudaMallocManaged(&y, n * sizeof(Tagged));
    for (int i = 0; i < n; ++i) x[i].v = i % 7;
    add_self<Tagged><<<(n + 1023) / 1024, 1024>>>(x, y, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = 2 * (i % 7) + 1024;
        if (y[i].v != want) { printf("FAIL at %d: %d, not %d\n", i, y[i].v, want); return 1; }
    }
    printf("OK\n");
    return 0;
}
