// soundness: must-refuse
// why: a loop without braces whose one launch is given the loop's counter: a graph of 16 launches captured in a row would replay the first 16 iterations' counters for every batch, so the later iterations would add the wrong amounts
// no-edit: R012
// expect: R013 "'it' is declared in the loop: its value changes per iteration"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(long long* x, int v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 2 % 1000003 + v; }
int main()
{
    const int n = 1024, repeat = 48;
    long long* h = (long long*)malloc(n * sizeof(long long));
    long long* want = (long long*)malloc(n * sizeof(long long));
    for (int i = 0; i < n; ++i) h[i] = want[i] = i;
    long long* d;
    CHECK(cudaMalloc(&d, n * sizeof(long long)));
    CHECK(cudaMemcpy(d, h, n * sizeof(long long), cudaMemcpyHostToDevice));
    for (int it = 0; it < repeat; ++it)
        add<<<(n + 255) / 256, 256>>>(d, it, n);
    CHECK(cudaMemcpy(h, d, n * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int it = 0; it < repeat; ++it)
        for (int i = 0; i < n; ++i) want[i] = want[i] * 2 % 1000003 + it;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
