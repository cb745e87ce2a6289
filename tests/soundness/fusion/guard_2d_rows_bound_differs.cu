// soundness: must-refuse
// why: the second kernel's guard leaves out the last row (y < height - 1): in one fused guard it would run on every row, or the first kernel would not
// no-edit: F001
// expect: F002 "the guards differ"
#include <cstdio>
__global__ void set(float* __restrict__ a, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) a[y * width + x] = 1.0f;
}
__global__ void twice(float* __restrict__ a, int width, int rows)
{
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (y < rows && x < width) a[y * width + x] *= 2.0f;
}
int main()
{
    const int W = 40, H = 30;
    float* a;
    cudaMallocManaged(&a, W * H * sizeof(float));
    dim3 block(8, 8), grid((W + 7) / 8, (H + 7) / 8);
    set<<<grid, block>>>(a, W, H);
    twice<<<grid, block>>>(a, W, H - 1);
    cudaDeviceSynchronize();
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            float want = y < H - 1 ? 2.0f : 1.0f;
            if (a[y * W + x] != want) { printf("FAIL at %d,%d: %f\n", x, y, a[y * W + x]); return 1; }
        }
    printf("PASS\n");
    return 0;
}
