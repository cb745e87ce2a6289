// soundness: must-apply
// why: both kernels are grid-stride loops whose start and step are locals holding the global id and blockDim.x * gridDim.x, of the index's own type and named nowhere else: each is the canonical loop, so one thread doing both bodies per element computes the same values
// edit: F001 "does the work of scale, shift"
#include <cstdio>

__global__ void scale(const float* __restrict__ x, float* __restrict__ y, float a, size_t n)
{
    const size_t first = blockIdx.x * blockDim.x + threadIdx.x;
    const size_t step = gridDim.x * blockDim.x;
    for (size_t i = first; i < n; i += step) y[i] = a * x[i];
}

__global__ void shift(const float* __restrict__ y, float* __restrict__ z, float b, size_t n)
{
    size_t step = blockDim.x * gridDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        z[i] = y[i] + b;
    }
}

int main()
{
    const size_t n = 100000;
    float *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&z, n * sizeof(float));
    for (size_t i = 0; i < n; ++i) x[i] = (float)(i % 29);
    scale<<<40, 128>>>(x, y, 3.0f, n);
    shift<<<40, 128>>>(y, z, 1.0f, n);
    cudaDeviceSynchronize();
    for (size_t i = 0; i < n; ++i) {
        float want = 3.0f * (float)(i % 29) + 1.0f;
        if (y[i] != 3.0f * (float)(i % 29) || z[i] != want) {
            printf("FAIL at %zu: %f, not %f\n", i, z[i], want);
            return 1;
        }
    }
    printf("PASS\n");
    return 0;
}
