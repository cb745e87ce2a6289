// soundness: must-apply
// why: the element count is a global the program sets before each call; the buffer (new int[count]) is allocated pinned where it holds 256 KiB or more and as written otherwise, and each call frees it to match: called with 1 KiB and with 4 MiB, both branches run, and every sum is the host's
// edit: R007 "(count * sizeof(int)) >= 262144 && cudaMallocHost(&h, count * sizeof(int)) == cudaSuccess;"
// edit: R007 "cudaFreeHost(h); else delete[] h;"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(int* x, int v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += v; }
int count;
long long rounds(int* d)
{
    int* h = new int[count];
    for (int i = 0; i < count; ++i) h[i] = i % 13;
    long long sum = 0;
    for (int it = 0; it < 4; ++it) {
        CHECK(cudaMemcpy(d, h, count * sizeof(int), cudaMemcpyHostToDevice));
        add<<<(count + 255) / 256, 256>>>(d, it, count);
        CHECK(cudaMemcpy(h, d, count * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < count; ++i) sum += h[i];
    }
    delete[] h;
    return sum;
}
int main()
{
    int* d;
    CHECK(cudaMalloc(&d, (1 << 20) * sizeof(int)));
    int bad = 0;
    for (int n : {256, 1 << 20}) {
        count = n;
        long long want = 0;
        for (int it = 0; it < 4; ++it)
            for (int i = 0; i < n; ++i) want += i % 13 + it * (it + 1) / 2;
        long long got = rounds(d);
        if (got != want) { printf("FAIL: %d elements: %lld, want %lld\n", n, got, want); ++bad; }
    }
    CHECK(cudaFree(d));
    if (bad) return 1;
    printf("PASS\n");
    return 0;
}
