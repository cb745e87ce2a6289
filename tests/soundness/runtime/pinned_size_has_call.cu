// soundness: must-refuse
// why: the buffer's size is a call whose result changes (1 MiB, then 64 bytes): deciding at run time evaluates the size twice, the test and the allocation, so the buffer would get 64 bytes, every copy of 1 MiB would overflow it, and the call count would be 2
// no-edit: R007
// expect: R008 "it cannot be tested at run time"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1; }
static int calls = 0;
int next_size() { return calls++ == 0 ? (1 << 20) : 64; }
int main()
{
    const int n = 1 << 18;
    int* h = (int*)malloc(next_size());
    for (int i = 0; i < n; ++i) h[i] = i % 11;
    int* d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int it = 0; it < 3; ++it) {
        CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
        add<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    }
    int bad = calls != 1;
    for (int i = 0; i < n; ++i) if (h[i] != i % 11 + 3) ++bad;
    CHECK(cudaFree(d));
    free(h);
    if (bad) { printf("FAIL: %d wrong, %d calls\n", bad, calls); return 1; }
    printf("PASS\n");
    return 0;
}
