// soundness: must-apply
// why: each type parameter takes the launch's own arithmetic type (double storage, float arithmetic)
// edit: F001 "fused_widen_halve"
#include <cstdio>

template <typename S, typename A>
__global__ void widen(const S* __restrict__ x, S* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { A v = static_cast<A>(x[i]) * A(3); y[i] = S(v); }
}

template <typename S, typename A>
__global__ void halve(const S* __restrict__ y, S* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = S(A(y[i]) / A(2));
}

int main()
{
    const int n = 1000;
    double *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(double));
    cudaMallocManaged(&y, n * sizeof(double));
    cudaMallocManaged(&z, n * sizeof(double));
    for (int i = 0; i < n; ++i) x[i] = 1.0 + i / 7.0;
    widen<double, float><<<(n + 127) / 128, 128>>>(x, y, n);
    halve<double, float><<<(n + 127) / 128, 128>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        float v = (float)(1.0 + i / 7.0) * 3.0f;      // float arithmetic, as A = float gives
        double wy = (double)v, wz = (double)((float)wy / 2.0f);
        if (y[i] != wy || z[i] != wz) { printf("FAIL at %d: %.17g %.17g, not %.17g %.17g\n", i, y[i], z[i], wy, wz); return 1; }
    }
    printf("OK\n");
    return 0;
}
