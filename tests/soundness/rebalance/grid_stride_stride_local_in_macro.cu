// soundness: must-refuse
// why: WIDTH expands to the loop's stride local, which the body stores: each element records blockDim.x * gridDim.x, which another block size changes
// no-edit: L007,L008
// expect: L009 "the macro WIDTH"
#include <cstdio>
#define WIDTH step
__global__ void widths(int* out, int n)
{
    const int step = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) out[i] = WIDTH;
}

int main()
{
    const int n = 1 << 14;
    int* out;
    cudaMallocManaged(&out, n * sizeof(int));
    widths<<<8, 512>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != 8 * 512) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("PASS\n");
    return 0;
}
