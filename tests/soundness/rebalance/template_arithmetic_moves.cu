// soundness: must-apply
// why: a template kernel launched with an arithmetic type is agnostic: T(x) and static_cast<T> are casts
// edit: L007 "256"
// output-has: "axpy<float, 3><<<(n + 255) / 256, 256>>>"
#include <cstdio>

template <typename T, int K>
__global__ void axpy(const T* x, T* y, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + static_cast<T>(K) + T(1);
}

int main()
{
    const int n = 100000;
    float *x, *y;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; ++i) { x[i] = (float)(i % 31); y[i] = -1.0f; }
    axpy<float, 3><<<(n + 1023) / 1024, 1024>>>(x, y, 2.0f, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        float want = 2.0f * (float)(i % 31) + 3.0f + 1.0f;
        if (y[i] != want) { printf("FAIL at %d: %f, not %f\n", i, y[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
