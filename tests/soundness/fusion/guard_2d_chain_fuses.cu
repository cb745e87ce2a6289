// soundness: must-apply
// why: two 2-D kernels (x and y from blockIdx/blockDim/threadIdx, one guard x < width && y < height, or its early-return form) that touch only their own element y * width + x, launched with one grid and block: one thread doing both bodies per element computes the same values
// edit: F001 "does the work of brighten, clampit"
// edit: F001 "blockIdx.y * blockDim.y + threadIdx.y"
#include <cstdio>
__global__ void brighten(const float* __restrict__ in, float* __restrict__ out, int width, int height, float gain)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * width + x] = gain * in[y * width + x] + (float)(x - y);
}
__global__ void clampit(float* __restrict__ img, int w, int h)
{
    int row = threadIdx.y + blockIdx.y * blockDim.y;
    int col = threadIdx.x + blockIdx.x * blockDim.x;
    if (row >= h || col >= w) return;
    float v = img[col + row * w];
    img[col + row * w] = v < 0.0f ? 0.0f : v;
}
int main()
{
    const int W = 300, H = 200;
    float *in, *out;
    cudaMallocManaged(&in, W * H * sizeof(float));
    cudaMallocManaged(&out, W * H * sizeof(float));
    for (int i = 0; i < W * H; ++i) in[i] = (float)(i % 17) - 8.0f;
    dim3 block(16, 16), grid((W + 15) / 16, (H + 15) / 16);
    brighten<<<grid, block>>>(in, out, W, H, 2.0f);
    clampit<<<grid, block>>>(out, W, H);
    cudaDeviceSynchronize();
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            float v = 2.0f * ((float)((y * W + x) % 17) - 8.0f) + (float)(x - y);
            if (v < 0.0f) v = 0.0f;
            if (out[y * W + x] != v) { printf("FAIL at %d,%d: %f, not %f\n", x, y, out[y * W + x], v); return 1; }
        }
    printf("PASS\n");
    return 0;
}
