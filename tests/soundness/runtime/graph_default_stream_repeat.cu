// soundness: must-apply
// why: HeCBench's repeat loop: two launches on the legacy default stream, nothing else, loop-invariant arguments; the default stream cannot be captured, so the launches are captured on a non-blocking stream of the rewrite's own and the graph is launched on the default stream, where each launch ran: every iteration runs step then mix, in order, after the previous iteration, and the result depends on that order
// edit: R012 "cudaStreamCreateWithFlags("
// edit: R012 "cudaStreamNonBlocking"
// output-lacks: "cudaStreamBeginCapture(0,"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void step(const int* x, int* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = (3 * x[i] + 1) % 1000003; }
__global__ void mix(int* x, const int* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (y[i] + i) % 1000003; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 50;
    const int n = 1 << 14;
    const size_t bytes = n * sizeof(int);
    int* h = (int*)malloc(bytes);
    int* want = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 101;
    int *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
    for (int it = 0; it < repeat; ++it) {
        step<<<(n + 255) / 256, 256>>>(d_x, d_y, n);
        mix<<<(n + 255) / 256, 256>>>(d_x, d_y, n);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d_x, bytes, cudaMemcpyDeviceToHost));
    for (int it = 0; it < repeat; ++it)
        for (int i = 0; i < n; ++i) want[i] = ((3 * want[i] + 1) % 1000003 + i) % 1000003;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
