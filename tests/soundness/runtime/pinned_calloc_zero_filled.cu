// soundness: must-refuse
// why: the buffer is assigned from calloc and the program relies on its zeros (the first copy sends them to the device): cudaMallocHost does not zero its memory, so made pinned, the first iteration would add to whatever the pinned pages held
// no-edit: R007
// expect: R008 "calloc zero-fills it: pinned memory is not zeroed"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void add_index(int* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += i % 11;
}
int main()
{
    const int n = 1 << 18;
    int* h = 0;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    h = (int*)calloc(n, sizeof(int));
    for (int it = 0; it < 3; ++it) {
        cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
        add_index<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    }
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 3 * (i % 11);
    free(h);
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
