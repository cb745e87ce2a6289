// soundness: must-refuse
// why: 'real' is a typedef of float at file scope and a class in namespace ph, where the launch sees the class, whose operator+ reads the next element
// no-edit: F001
// expect: F002 "the file's real::operator+ reaches memory through this[1]"
#include <cstdio>

typedef float real;

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

namespace ph {
struct real {
    int v;
    __device__ real operator+(int k) const { real r; r.v = this[1].v + k; return r; }
};

int run()
{
    const int n = 1 << 16;
    real *x, *y, *z;
    cudaMallocManaged(&x, (n + 1) * sizeof(real));
    cudaMallocManaged(&y, (n + 1) * sizeof(real));
    cudaMallocManaged(&z, (n + 1) * sizeof(real));
    for (int i = 0; i <= n; ++i) { x[i].v = i + 1; y[i].v = 0; }
    produce<real><<<(n + 255) / 256, 256>>>(x, y, n);
    consume<real><<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = (i + 1 < n ? i + 2 : 0) + 1;     // y[n] is never written: 0
        if (z[i].v != want) { printf("FAIL at %d: %d, not %d\n", i, z[i].v, want); return 1; }
    }
    return 0;
}
}

int main()
{
    if (ph::run() != 0) return 1;
    printf("OK\n");
    return 0;
}
