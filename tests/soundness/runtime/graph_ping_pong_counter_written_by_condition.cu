// soundness: must-refuse
// why: the loop's condition steps the counter too (`k++ < 96`): each iteration sees an odd counter, so all 48 iterations bump a; a graph captured with alternating parities would bump each 24 times
// no-edit: R012
// expect: R013 "the loop's condition 'k++ < 96' writes: it may step 'k' too"
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
    for (int k = 0; k++ < 96; ++k)
        bump<<<(n + 255) / 256, 256>>>((k % 2) ? d_a : d_b, n);
    int a[n], b[n];
    CHECK(cudaMemcpy(a, d_a, sizeof(a), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b, d_b, sizeof(b), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += (a[i] != 48) + (b[i] != 0);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    if (bad) { printf("FAIL: %d wrong (a %d, b %d)\n", bad, a[0], b[0]); return 1; }
    printf("PASS\n");
    return 0;
}
