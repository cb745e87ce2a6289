// soundness: must-refuse
// why: a loop without braces whose launch's argument is a macro that expands to the loop's counter (`#define SLOT it`): the tree shows a name the function does not declare, but the launch gets a different slot each iteration, and a graph of 16 launches would replay slots 0..15 for every batch
// no-edit: R012
// expect: R013 "'SLOT' is not a local of the function"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
#define SLOT it
__global__ void bump(float* x, int slot) { if (threadIdx.x == 0) x[slot] += 1.0f; }
int main()
{
    const int slots = 48;
    float* d;
    CHECK(cudaMalloc(&d, slots * sizeof(float)));
    CHECK(cudaMemset(d, 0, slots * sizeof(float)));
    for (int it = 0; it < slots; ++it)
        bump<<<1, 32>>>(d, SLOT);
    float h[slots];
    CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < slots; ++i) if (h[i] != 1.0f) ++bad;
    CHECK(cudaFree(d));
    if (bad) { printf("FAIL: %d slots not bumped once\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
