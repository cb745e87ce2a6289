// soundness: must-refuse
// why: T is deduced as a class whose operator+ reads the next element (this[1]): fused, another thread may not have written it yet
// no-edit: F001
// expect: F002 "the file's Cell::operator+ reaches memory through this[1]"
#include <cstdio>

struct Cell {
    int v;
    __device__ Cell operator+(int k) const { Cell r; r.v = this[1].v + k; return r; }
};

template <typename T>
__global__ void produce(const T* __restrict__ x, T* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}

template <typename T>
__global__ void consume(const T* __restrict__ y, T* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1;
}

int main()
{
    const int n = 1 << 16;
    Cell *x, *y, *z;
    cudaMallocManaged(&x, (n + 1) * sizeof(Cell));
    cudaMallocManaged(&y, (n + 1) * sizeof(Cell));
    cudaMallocManaged(&z, (n + 1) * sizeof(Cell));
    for (int i = 0; i <= n; ++i) { x[i].v = i + 1; y[i].v = 0; }
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = (i + 1 < n ? i + 2 : 0) + 1;     // y[n] is never written: 0
        if (z[i].v != want) { printf("FAIL at %d: %d, not %d\n", i, z[i].v, want); return 1; }
    }
    printf("OK\n");
    return 0;
}
