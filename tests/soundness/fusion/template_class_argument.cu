// soundness: must-refuse
// why: instantiated with a class, T(1) and * are the class's constructor and operator, not arithmetic
// no-edit: F001
// expect: F002 "launched with <Saturating>"
#include <cstdio>

struct Saturating {
    int v;
    __host__ __device__ Saturating() : v(0) {}
    __host__ __device__ Saturating(int x) : v(x > 100 ? 100 : x) {}
    __host__ __device__ Saturating operator*(Saturating o) const { return Saturating(v * o.v); }
    __host__ __device__ Saturating operator+(Saturating o) const { return Saturating(v + o.v); }
};

template <typename T>
__global__ void produce(const T* __restrict__ x, T* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * T(9);
}

template <typename T>
__global__ void consume(const T* __restrict__ y, T* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + T(1);
}

int main()
{
    const int n = 1000;
    Saturating *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(Saturating));
    cudaMallocManaged(&y, n * sizeof(Saturating));
    cudaMallocManaged(&z, n * sizeof(Saturating));
    for (int i = 0; i < n; ++i) x[i] = Saturating(i % 20);
    produce<Saturating><<<(n + 255) / 256, 256>>>(x, y, n);
    consume<Saturating><<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int p = (i % 20) * 9, want = (p > 100 ? 100 : p) + 1;
        want = want > 100 ? 100 : want;
        if (z[i].v != want) { printf("FAIL at %d: %d, not %d\n", i, z[i].v, want); return 1; }
    }
    printf("OK\n");
    return 0;
}
