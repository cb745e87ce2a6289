// soundness: must-refuse
// why: two launches on the default stream and nothing else, but the loop's update doubles the factor the launches are given: a graph replays the arguments it captured, so every iteration would scale by the first iteration's factor
// no-edit: R012
// expect: R013 "'a' is assigned"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void scale(int* x, int a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (int)((long long)x[i] * a % 1000003); }
__global__ void shift(int* x, int a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = (x[i] + a + i) % 1000003; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 12;
    const int n = 1 << 12;
    const size_t bytes = n * sizeof(int);
    int* h = (int*)malloc(bytes);
    int* want = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 89 + 1;
    int* d_x;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
    int a = 1;
    for (int it = 0; it < repeat; ++it, a = a * 2 + 1) {
        scale<<<(n + 255) / 256, 256>>>(d_x, a, n);
        shift<<<(n + 255) / 256, 256>>>(d_x, a, n);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d_x, bytes, cudaMemcpyDeviceToHost));
    a = 1;
    for (int it = 0; it < repeat; ++it, a = a * 2 + 1)
        for (int i = 0; i < n; ++i) want[i] = ((int)((long long)want[i] * a % 1000003) + a + i) % 1000003;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d_x));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
