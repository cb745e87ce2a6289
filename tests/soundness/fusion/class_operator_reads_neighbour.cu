// soundness: must-refuse
// why: `y[i] + y[i]` runs the class's operator+, which reads the next element ((&o)[1]): fused, the thread that writes it may not have run yet
// no-edit: F001
// expect: F002 "the file's Cell::operator+ reaches memory through (&o)[1]"
#include <cstdio>

struct Cell {
    int v;
    __device__ Cell operator+(const Cell &o) const { Cell r; r.v = v + (&o)[1].v; return r; }
};

__global__ void produce(const int* __restrict__ x, Cell* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i].v = x[i];
}

__global__ void consume(const Cell* __restrict__ y, Cell* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + y[i];
}

int main()
{
    const int n = 1 << 16;
    int *x;
    Cell *y, *z;
    cudaMallocManaged(&x, n * sizeof(int));
    cudaMallocManaged(&y, (n + 1) * sizeof(Cell));
    cudaMallocManaged(&z, n * sizeof(Cell));
    for (int i = 0; i < n; ++i) x[i] = i + 1;
    for (int i = 0; i <= n; ++i) y[i].v = 0;
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = (i + 1) + (i + 1 < n ? i + 2 : 0);     // y[n] is never written: 0
        if (z[i].v != want) { printf("FAIL at %d: %d, not %d\n", i, z[i].v, want); return 1; }
    }
    printf("OK\n");
    return 0;
}
