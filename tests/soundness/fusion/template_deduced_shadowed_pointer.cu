// soundness: must-refuse
// why: 'y' is declared as float* and as double* in the launching function: which one the launch sees is a matter of scope, not looked up here
// no-edit: F001
// expect: F002 "deduces"
#include <cstdio>

template <typename T>
__global__ void third(T* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] / T(3);
}

template <typename T>
__global__ void triple(T* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] * T(3);
}

int main()
{
    const int n = 1000;
    float *y;
    cudaMallocManaged(&y, n * sizeof(float));
    {
        double *y;
        cudaMallocManaged(&y, n * sizeof(double));
        for (int i = 0; i < n; ++i) y[i] = 1.0 + i;
        third<<<(n + 255) / 256, 256>>>(y, n);
        triple<<<(n + 255) / 256, 256>>>(y, n);
        cudaDeviceSynchronize();
        for (int i = 0; i < n; ++i) {
            double want = (1.0 + i) / 3.0 * 3.0;     // double arithmetic, as the inner pointer gives
            if (y[i] != want) { printf("FAIL at %d: %.17g, not %.17g\n", i, y[i], want); return 1; }
        }
    }
    printf("OK\n");
    return 0;
}
