// soundness: must-apply
// why: HeCBench's commonest timing loop has no braces: `for (...) k<<<g, b>>>(...);`, the launch on the next line, on the loop's own line, and after a comment; each is made a block and captured 16 launches to a graph (37 = 2 * 16 + 5 and 21 = 16 + 5 iterations, and 40 = 2 * 16 + 8), and since every launch depends on the one before, the result counts exactly 98 launches in order
// edit: R012 "cudaGraphLaunch("
// output-has: "    for (int i = 0; i < repeat; i++) {"
// output-has: "    for (int i = 0; i < 21; i++) {"
// output-has: "    for (int i = 0; i < 40; i++) { // timed"
// output-lacks: "i++) step<<<"
// output-lacks: "cudaStreamBeginCapture(0,"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void step(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (3 * x[i] + i + 1) % 1000003; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 37;
    const int n = 1 << 12;
    const size_t bytes = n * sizeof(int);
    int* h = (int*)malloc(bytes);
    int* want = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 17;
    int* d_x;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
    for (int i = 0; i < repeat; i++)
        step<<<(n + 255) / 256, 256>>>(d_x, n);
    for (int i = 0; i < 21; i++) step<<<(n + 255) / 256, 256>>>(d_x, n);
    for (int i = 0; i < 40; i++) // timed
        step<<<(n + 255) / 256, 256>>>(d_x,
                                       n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d_x, bytes, cudaMemcpyDeviceToHost));
    for (int it = 0; it < repeat + 21 + 40; ++it)
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
