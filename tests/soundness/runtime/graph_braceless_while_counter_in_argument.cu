// soundness: must-refuse
// why: a `while` loop without braces whose counter is stepped in its launch's argument (`add<<<...>>>(d, t++, n)`): a graph would replay the captured values 0..15 for every batch, and the loop's own counter, stepped only where the launch is written, would no longer advance per iteration (the loop would never end)
// no-edit: R012
// expect: R013 "'t++' is not a plain expression of names and numbers"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(long long* x, int v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 2 % 1000003 + v; }
int main()
{
    const int n = 1024, repeat = 40;
    long long* h = (long long*)malloc(n * sizeof(long long));
    long long* want = (long long*)malloc(n * sizeof(long long));
    for (int i = 0; i < n; ++i) h[i] = want[i] = i;
    long long* d;
    CHECK(cudaMalloc(&d, n * sizeof(long long)));
    CHECK(cudaMemcpy(d, h, n * sizeof(long long), cudaMemcpyHostToDevice));
    int t = 0;
    while (t < repeat) add<<<(n + 255) / 256, 256>>>(d, t++, n);
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
