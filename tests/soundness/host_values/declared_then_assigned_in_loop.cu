// soundness: must-refuse
// why: `int n, threads;` with no value, `threads` first assigned 64 in a loop that then assigns 512 and leaves: a bound read from the first assignment of the text (64) would make the launch of 512 threads fail; the first assignment is in a loop, no statement of the declaration's block
// no-edit: L001
// expect: L002 "it is declared with no value and first assigned at line 17 in a branch, a loop or an expression"
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

int main()
{
    int n, threads;
    n = 5000;
    for (int attempt = 0; ; ++attempt) {
        threads = 64;
        if (attempt == 0 || n > 1000) {
            threads = 512;
            break;
        }
    }
    float* x;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = (float)i;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err)); return 1; }
    for (int i = 0; i < n; ++i)
        if (x[i] != 2.0f * i) { printf("FAIL at %d: %f\n", i, x[i]); return 1; }
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
