// soundness: must-apply
// why: HeCBench declares its host and device pointers together with no value (`float *h, *d;`) and allocates after: 'h', one declarator of the two, gets its one assignment from malloc, a statement of its declaration's block before any use, is copied with blocking cudaMemcpy in a loop and freed once after every use; its size (`int n, i; n = 1 << 18;`, a declaration with no value assigned later) is known, 1 MiB, so it is made pinned outright
// edit: R007 "cudaMallocHost(&h, n * sizeof(float))"
// edit: R007 "cudaFreeHost(h)"
// output-lacks: "cu2hip_pinned_h"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void neg(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = -x[i];
}
int main()
{
    int n, i;
    n = 1 << 18;
    float *h, *d;
    h = (float*)malloc(n * sizeof(float));
    cudaMalloc(&d, n * sizeof(float));
    for (i = 0; i < n; ++i) h[i] = (float)(i % 5);
    for (int it = 0; it < 3; ++it) {
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        neg<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    int wrong = 0;
    for (i = 0; i < n; ++i) wrong += h[i] != -(float)(i % 5);
    free(h);
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
