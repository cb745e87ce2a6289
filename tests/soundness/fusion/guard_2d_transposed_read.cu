// soundness: must-refuse
// why: the second kernel reads its input at x * height + y, the transposed element, which another thread of the first kernel writes: in one fused thread that value is not computed yet
// no-edit: F001
// expect: F002 "not its own element"
#include <cstdio>
__global__ void ramp(float* __restrict__ a, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) a[y * width + x] = (float)(y * width + x);
}
__global__ void transpose(const float* __restrict__ a, float* __restrict__ t, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) t[y * width + x] = a[x * height + y];
}
int main()
{
    const int N = 64;           // square: the transposed element is in range
    float *a, *t;
    cudaMallocManaged(&a, N * N * sizeof(float));
    cudaMallocManaged(&t, N * N * sizeof(float));
    dim3 block(16, 16), grid(N / 16, N / 16);
    ramp<<<grid, block>>>(a, N, N);
    transpose<<<grid, block>>>(a, t, N, N);
    cudaDeviceSynchronize();
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x)
            if (t[y * N + x] != (float)(x * N + y)) { printf("FAIL at %d,%d: %f\n", x, y, t[y * N + x]); return 1; }
    printf("PASS\n");
    return 0;
}
