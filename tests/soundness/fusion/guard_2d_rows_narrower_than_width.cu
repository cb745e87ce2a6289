// soundness: must-refuse
// why: the second kernel addresses its rows by half the width (y * half + x): threads of different rows meet at one element, which the first kernel's other thread writes, so no thread's own register holds the value it reads
// no-edit: F001
// expect: F002 "not its own element"
#include <cstdio>
__global__ void fill(int* __restrict__ a, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    a[y * width + x] = y * width + x;
}
__global__ void gather(const int* __restrict__ a, int* __restrict__ b, int width, int height, int half)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    b[y * width + x] = a[y * half + x];
}
int main()
{
    const int W = 64, H = 32;
    int *a, *b;
    cudaMallocManaged(&a, W * H * sizeof(int));
    cudaMallocManaged(&b, W * H * sizeof(int));
    dim3 block(32, 8), grid(W / 32, H / 8);
    fill<<<grid, block>>>(a, W, H);
    gather<<<grid, block>>>(a, b, W, H, W / 2);
    cudaDeviceSynchronize();
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            if (b[y * W + x] != y * (W / 2) + x) { printf("FAIL at %d,%d: %d\n", x, y, b[y * W + x]); return 1; }
    printf("PASS\n");
    return 0;
}
