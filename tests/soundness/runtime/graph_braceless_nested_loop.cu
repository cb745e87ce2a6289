// soundness: must-refuse
// why: two loops without braces, the launch in the inner one: the inner loop is no statement of a block, so the capture's declarations cannot go before it (written there, they would become the outer loop's whole body, and the inner loop would run once, after all the outer iterations); the program counts 4 * 20 launches in order
// no-edit: R012
// expect: R013 "the loop is not a statement of a block (nothing can go before it)"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void step(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (3 * x[i] + i + 1) % 1000003; }
int main()
{
    const int n = 1 << 12, outer = 4, repeat = 20;
    const size_t bytes = n * sizeof(int);
    int* h = (int*)malloc(bytes);
    int* want = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 17;
    int* d_x;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
    for (int j = 0; j < outer; j++)
        for (int i = 0; i < repeat; i++)
            step<<<(n + 255) / 256, 256>>>(d_x, n);
    CHECK(cudaMemcpy(h, d_x, bytes, cudaMemcpyDeviceToHost));
    for (int it = 0; it < outer * repeat; ++it)
        for (int i = 0; i < n; ++i) want[i] = (3 * want[i] + i + 1) % 1000003;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d_x));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
