// soundness: must-refuse
// why: the buffer is allocated in a branch (only a run of more than 1024 elements gets a malloc'd buffer; a smaller one is not copied): the assignment is not on the function's straight-line path, so on the other path 'h' is still NULL at the free, and one allocation made pinned in a branch is not proved to be the buffer every copy and the free meet
// no-edit: R007
// expect: R008 "is not a statement of the block that declares it"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void neg(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = -x[i];
}
int main(int argc, char** argv)
{
    const int n = argc > 1 ? 1000 : 1 << 18;
    float* h = nullptr;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    if (n > 1024) {
        h = (float*)malloc(n * sizeof(float));
    }
    if (h == nullptr) {
        printf("PASS (nothing to copy)\n");
        return 0;
    }
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 5);
    for (int it = 0; it < 3; ++it) {
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        neg<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != -(float)(i % 5);
    free(h);
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
