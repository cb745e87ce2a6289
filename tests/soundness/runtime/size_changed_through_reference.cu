// soundness: must-refuse
// why: the size 'n' doubles each iteration through its other name 'm' (int& m = n): hoisted, the first (smallest) allocation would be written past its end by the later, larger fills
// no-edit: R001
// expect: R002 "'n' has another name"
// options: --target cuda
#include <cstdio>
__global__ void fill(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 1.0f; }
int main()
{
    int n = 1 << 18;
    int& m = n;
    for (int it = 0; it < 6; ++it) {
        if (it > 0) { m *= 2; }
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        fill<<<(n + 255) / 256, 256>>>(d, n);
        cudaFree(d);
    }
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess || n != (1 << 23)) {
        printf("FAIL: %s, n = %d\n", cudaGetErrorString(err), n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
