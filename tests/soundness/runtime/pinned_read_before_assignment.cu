// soundness: must-refuse
// why: 'h' is read before its allocation (the program records its null value and checks the allocation changed it): the assignment is not the start of every use, so the facts that make it pinned do not hold from it on
// no-edit: R007
// expect: R008 "'h' is used before its allocation"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(double* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0;
}
int main()
{
    const int n = 1 << 16;
    double* h = NULL;
    double* d;
    cudaMalloc(&d, n * sizeof(double));
    const bool unset = h == NULL;
    h = (double*)malloc(n * sizeof(double));
    if (!unset || h == NULL) {
        printf("FAIL: no host buffer\n");
        return 1;
    }
    for (int i = 0; i < n; ++i) h[i] = 1.0 + i % 3;
    for (int it = 0; it < 4; ++it) {
        cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
    }
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 16.0 * (1.0 + i % 3);
    free(h);
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
