// soundness: must-apply
// why: chi2's shape: the launch's configuration is dim3(nblocks), dim3(nthreads), sizes from argv parsed once before the loop into locals it never writes; dim3(...) makes a value of its arguments, so every iteration makes the same launch and 16 of them in a row are one graph
// edit: R012 "cudaGraphLaunch("
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void bump(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (x[i] * 7 + 3) % 100003; }
int main(int argc, char** argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 5000;
    const int nthreads = argc > 2 ? atoi(argv[2]) : 96;
    const int repeat = argc > 3 ? atoi(argv[3]) : 35;
    int nblocks = (n + nthreads - 1) / nthreads;
    int* h = (int*)malloc(n * sizeof(int));
    int* want = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 23;
    int* d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int i = 0; i < repeat; i++) {
        bump <<< dim3(nblocks), dim3(nthreads) >>> (d, n);
    }
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int it = 0; it < repeat; ++it)
        for (int i = 0; i < n; ++i) want[i] = (want[i] * 7 + 3) % 100003;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
