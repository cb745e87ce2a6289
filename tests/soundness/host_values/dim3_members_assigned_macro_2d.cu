// soundness: must-apply
// why: `dim3 threads(1, 1, 1); threads.x = TX; threads.y = TY;` is a 32 x 8 block: the bound is the product, 256
// edit: L001 "__launch_bounds__(256)"
// no-edit: L007
#define TX 32
#define TY 8
#include <cstdio>
// Each thread of a two-dimensional block writes its place in the block: the kernel sees
// blockDim.x and blockDim.y, so its block cannot move.
__global__ void place(int* out)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    out[blockIdx.x * blockDim.x * blockDim.y + t] = t;
}

static int launched(const char* what)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { printf("FAIL: %s: %s\n", what, cudaGetErrorString(err)); return 1; }
    return 0;
}

int main()
{
    const int blocks = 4;
    int* out = nullptr;
    cudaMallocManaged(&out, blocks * TX * TY * sizeof(int));
    dim3 threads(1, 1, 1);
    threads.x = TX;
    threads.y = TY;
    place<<<blocks, threads>>>(out);
    if (launched("place")) return 1;
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("FAIL: place: %s\n", cudaGetErrorString(err)); return 1; }
    for (int i = 0; i < blocks * TX * TY; ++i)
        if (out[i] != i % (TX * TY)) { printf("FAIL: place at %d: %d\\n", i, out[i]); return 1; }
    cudaFree(out);
    printf("PASS\\n");
    return 0;
}
