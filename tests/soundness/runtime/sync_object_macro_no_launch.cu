// soundness: must-apply
// why: the object-like macros used between main's launch and its synchronisation expand to numbers and to a printf, which enqueue nothing: every piece of device work is on s, which main creates
// edit: R010 "cudaStreamSynchronize(s)"
// options: --target cuda
#include <cstdio>
#define N 1024
#define BLOCK 256
#define GRID ((N + BLOCK - 1) / BLOCK)
#define LOG_STEP printf("launched %d blocks\n", GRID)
__global__ void twice(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 2 * (x[i] + 1); }
int main()
{
    int* d;
    cudaMalloc(&d, N * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemsetAsync(d, 0, N * sizeof(int), s);
    twice<<<GRID, BLOCK, 0, s>>>(d, N);
    LOG_STEP;
    cudaDeviceSynchronize();
    int h[N];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < N; ++i) wrong += h[i] != 2;
    if (wrong) {
        printf("FAIL: %d of %d elements are not 2\n", wrong, N);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
