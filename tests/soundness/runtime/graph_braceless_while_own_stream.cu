// soundness: must-apply
// why: a `while` loop without braces, one launch per iteration on a stream the function creates, its counter stepped in its condition (host work the graph leaves where it is): 35 iterations are two graphs of 16 launches and 3 launches as written after the loop, all before the stream is synchronised; the count of launches and their order show in every element
// edit: R012 "cudaGraphLaunch("
// output-has: "    while (t++ < repeat) {"
// output-lacks: "cudaStreamNonBlocking"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void step(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (5 * x[i] + 7) % 999983; }
int run(int* h, int n, int repeat)
{
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int* d_x;
    CHECK(cudaMalloc(&d_x, n * sizeof(int)));
    CHECK(cudaMemcpyAsync(d_x, h, n * sizeof(int), cudaMemcpyHostToDevice, s));
    int t = 0;
    while (t++ < repeat)
        step<<<(n + 127) / 128, 128, 0, s>>>(d_x, n);
    CHECK(cudaMemcpyAsync(h, d_x, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(d_x));
    CHECK(cudaStreamDestroy(s));
    return t;
}
int main()
{
    const int n = 3000;
    int* h;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    int* want = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) h[i] = want[i] = i;
    int trips = run(h, n, 35);
    for (int it = 0; it < 35; ++it)
        for (int i = 0; i < n; ++i) want[i] = (5 * want[i] + 7) % 999983;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFreeHost(h));
    free(want);
    if (trips != 36) { printf("FAIL: the counter is %d, want 36\n", trips); return 1; }
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
