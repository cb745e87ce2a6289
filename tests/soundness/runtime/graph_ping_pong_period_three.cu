// soundness: must-refuse
// why: the launch chooses its buffer by the counter modulo 3 (`(k % 3) ? d_a : d_b`): of 48 iterations, 32 bump a and 16 bump b; a graph captured as if the choice alternated with the parity would bump each 24 times
// no-edit: R012
// expect: R013 "'(k % 3) ? d_a : d_b' of the launch of bump may change per iteration"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void bump(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1; }
int main()
{
    const int n = 1024;
    int *d_a, *d_b;
    CHECK(cudaMalloc(&d_a, n * sizeof(int)));
    CHECK(cudaMalloc(&d_b, n * sizeof(int)));
    CHECK(cudaMemset(d_a, 0, n * sizeof(int)));
    CHECK(cudaMemset(d_b, 0, n * sizeof(int)));
    for (int k = 0; k < 48; ++k)
        bump<<<(n + 255) / 256, 256>>>((k % 3) ? d_a : d_b, n);
    int a[n], b[n];
    CHECK(cudaMemcpy(a, d_a, sizeof(a), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b, d_b, sizeof(b), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += (a[i] != 32) + (b[i] != 16);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    if (bad) { printf("FAIL: %d wrong (a %d, b %d)\n", bad, a[0], b[0]); return 1; }
    printf("PASS\n");
    return 0;
}
