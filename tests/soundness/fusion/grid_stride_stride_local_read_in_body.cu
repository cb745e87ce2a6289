// soundness: must-refuse
// why: the second kernel reads its stride local in the loop's body (each element records the grid's width): the fused kernel's canonical loop declares no such local, so the copied body would name what the fused kernel does not have
// no-edit: F001
// expect: F002 "its grid-stride loop uses 'step' beyond its start and step"
#include <cstdio>

__global__ void fill(float* __restrict__ y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a;
}

__global__ void widths(const float* __restrict__ y, float* __restrict__ z, int n)
{
    const int step = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) z[i] = y[i] + (float)step;
}

int main()
{
    const int n = 50000;
    float *y, *z;
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&z, n * sizeof(float));
    fill<<<20, 128>>>(y, 2.0f, n);
    widths<<<20, 128>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        if (z[i] != 2.0f + 20.0f * 128.0f) { printf("FAIL at %d: %f\n", i, z[i]); return 1; }
    }
    printf("PASS\n");
    return 0;
}
