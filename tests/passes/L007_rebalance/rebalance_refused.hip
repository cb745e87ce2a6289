// cu2hip-options: --ignore F,W
// Launches that keep their block size, each with its reason: shared memory sized by the
// block, a barrier, a warp operation, two-dimensional indexing, a helper that reads the
// thread index, a grid that is not a ceiling division of the guard's bound, a grid that
// counts something else, a fixed grid too small for the bound, a two-dimensional block,
// and a count the function changes after computing the grid.
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(512) block_sum(const float *x, float *out, int n) {
    extern __shared__ float partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
__global__ void __launch_bounds__(128) staged(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += 1.0f;
        __syncthreads();
    }
}
__global__ void __launch_bounds__(32) warp_max(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fmaxf(x[i], __shfl_xor(x[i], 1));
}
__global__ void __launch_bounds__(128) image(float *img, int width, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) img[i] = threadIdx.y * width;
}
__device__ float lane_weight() { return threadIdx.x % 32; }
__global__ void __launch_bounds__(128) weighted(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= lane_weight();
}
__global__ void __launch_bounds__(512) scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

void run(float *x, float *out, int n, int m) {
    block_sum<<<(n + 511) / 512, 512, 512 * sizeof(float)>>>(x, out, n);
    staged<<<(n + 127) / 128, 128>>>(x, n);
    warp_max<<<(n + 31) / 32, 32>>>(x, n);
    image<<<(n + 127) / 128, 128>>>(x, 64, n);
    weighted<<<(n + 127) / 128, 128>>>(x, n);
    scale<<<n / 128, 128>>>(x, n);
    scale<<<(m + 127) / 128, 128>>>(x, n);
    scale<<<4, 128>>>(x, 1000);
    scale<<<(n + 15) / 16, dim3(16, 8)>>>(x, n);
    int blocks = (n + 511) / 512;
    n = n / 2;
    scale<<<blocks, 512>>>(x, n);
}
