// soundness: must-apply
// why: HeCBench's commonest loop, one launch per iteration on the default stream with loop-invariant arguments: 16 launches in a row are captured as one graph launched every 16th iteration, and the 5 iterations after the last batch (37 = 2 * 16 + 5) launch after the loop as written; each launch depends on the one before, so the result counts exactly 37 launches in order
// edit: R012 "cudaGraphLaunch("
// edit: R012 "< 16;"
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
    for (int i = 0; i < repeat; i++) {
        step<<<(n + 255) / 256, 256>>>(d_x, n);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d_x, bytes, cudaMemcpyDeviceToHost));
    for (int it = 0; it < repeat; ++it)
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
