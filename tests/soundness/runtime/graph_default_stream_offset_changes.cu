// soundness: must-refuse
// why: HeCBench's gaussian shape: two launches on the default stream per step t, each given t and d + t; a graph replays the arguments it captured, so every step would redo step 0
// no-edit: R012
// expect: R013 "'t' is declared in the loop: its value changes per iteration"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void bump(int* x, int t, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += t + 1; }
__global__ void fold(int* x, int t, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (x[i] * 3 + t) % 1000003; }
int main()
{
    const int n = 1 << 10;
    const size_t bytes = n * sizeof(int);
    int* h = (int*)malloc(bytes);
    int* want = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 7;
    int* d_x;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
    for (int t = 0; t < n - 1; ++t) {
        bump<<<(n - t + 255) / 256, 256>>>(d_x + t, t, n - t);
        fold<<<(n - t + 255) / 256, 256>>>(d_x + t, t, n - t);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d_x, bytes, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n - 1; ++t)
        for (int i = t; i < n; ++i) want[i] = ((want[i] + t + 1) * 3 + t) % 1000003;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d_x));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
