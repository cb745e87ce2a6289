// soundness: must-refuse
// why: the launches' argument 'slot' advances every iteration in the loop update through the macro STEP: a graph would replay slot 0 sixteen times
// no-edit: R012
// expect: R013 "by the macro STEP"
// options: --target cuda --ignore F
#include <cstdio>
#define STEP ++slot
__global__ void add(float* x, int slot) { x[slot] += 1.0f; }
int main()
{
    float* d;
    cudaMalloc(&d, 64 * sizeof(float));
    cudaMemset(d, 0, 64 * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    int slot = 0;
    for (int it = 0; it < 16; ++it, STEP) {
        add<<<1, 1, 0, s>>>(d, slot);
        add<<<1, 1, 0, s>>>(d, slot);
    }
    cudaStreamSynchronize(s);
    float h[64];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64; ++i) {
        if (h[i] != (i < 16 ? 2.0f : 0.0f)) {
            printf("FAIL: slot %d holds %f\n", i, h[i]);
            return 1;
        }
    }
    printf("PASS\n");
    return 0;
}
