// soundness: must-apply
// why: the host buffer is only given to C and C++ library calls that keep no pointer (memset, std::fill, memcpy, qsort) and to blocking copies in a loop: pinned, every copy and every library call sees the same bytes
// edit: R007 "cudaMallocHost(&h, n * sizeof(int));"
// edit: R007 "cudaFreeHost(h)"
// options: --target cuda
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void negate(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = -x[i]; }
static int ascending(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }
int main()
{
    const int n = 1 << 17;
    int* h = (int*)malloc(n * sizeof(int));
    static int copy[1 << 17];
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    memset(h, 0, n * sizeof(int));
    long long sum = 0;
    for (int it = 1; it <= 4; ++it) {
        std::fill(h, h + n, it);
        h[0] = 0;
        cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
        negate<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
        memcpy(copy, h, n * sizeof(int));
        for (int i = 0; i < n; ++i) sum += copy[i];
    }
    qsort(h, n, sizeof(int), ascending);
    int first = h[0], last = h[n - 1];
    free(h);
    cudaFree(d);
    long long want = -(long long)(n - 1) * (1 + 2 + 3 + 4);
    if (sum != want || first != -4 || last != 0) { printf("FAIL: %lld want %lld, %d %d\n", sum, want, first, last); return 1; }
    printf("PASS %lld\n", sum);
    return 0;
}
