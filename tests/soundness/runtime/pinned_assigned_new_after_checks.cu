// soundness: must-apply
// why: the buffer is declared with no value, the function may return before its allocation (nothing is allocated or freed on that path), and `h = new float[n]` is its one assignment, in its declaration's block, before any use; from there on no jump or label lies before its one delete[], after every use: pinned, the copies move the same bytes
// edit: R007 "cudaMallocHost(&h, n * sizeof(float))"
// edit: R007 "cudaFreeHost(h)"
// options: --target cuda
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i] + 1.0f;
}
int main(int argc, char** argv)
{
    const int n = 1 << 17;
    float* h;
    float* d;
    if (argc > 8) {
        printf("FAIL: unexpected arguments\n");
        return 1;
    }
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
        printf("FAIL: no device memory\n");
        return 1;
    }
    h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 8);
    for (int it = 0; it < 3; ++it) {
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        scale<<<(n + 127) / 128, 128>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 8.0f * (float)(i % 8) + 7.0f;
    delete[] h;
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
