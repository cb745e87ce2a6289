// soundness: must-refuse
// why: 'h' is assigned twice: a first malloc'd buffer is copied in one loop and freed, then 'h' takes a second malloc'd buffer for the next loop; no one assignment is the buffer's allocation, and making one of them pinned while a free meant for the other becomes cudaFreeHost would free pageable memory with cudaFreeHost and pinned memory with free
// no-edit: R007
// expect: R008 "'h' is assigned 2 times in the function"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void inc(int* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1;
}
static int run(int* d, int* h, int n, int reps)
{
    for (int i = 0; i < n; ++i) h[i] = i;
    for (int it = 0; it < reps; ++it) {
        cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
        inc<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    }
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != i + reps;
    return wrong;
}
int main()
{
    const int n = 1 << 18;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    int* h = NULL;
    int wrong = 0;
    h = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) h[i] = i;
    for (int it = 0; it < 2; ++it) {
        cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
        inc<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    }
    for (int i = 0; i < n; ++i) wrong += h[i] != i + 2;
    free(h);
    h = (int*)malloc(n * sizeof(int));
    wrong += run(d, h, n, 3);
    free(h);
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %d elements wrong\n", wrong);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
