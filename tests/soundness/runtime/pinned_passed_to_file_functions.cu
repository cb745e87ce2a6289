// soundness: must-apply
// why: the host buffer is filled and checked by functions of this file that only write and read its elements through their pointer parameter (one passes it on to another), and copied with blocking cudaMemcpy in a loop: pinned, every copy reads and writes the same bytes, and nothing frees or keeps it but the one free
// edit: R007 "cudaMallocHost(&h, n * sizeof(float));"
// edit: R007 "cudaFreeHost(h)"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
static void init(float* a, int n, int it) { for (int i = 0; i < n; ++i) a[i] = (float)((i + it) % 13); }
static void reset(float* a, int n, int it) { init(a, n, it); }
static double total(const float* a, int n) { double s = 0.0; for (int i = 0; i < n; ++i) s += a[i]; return s; }
int main()
{
    const int n = 1 << 18;
    float* h = (float*)malloc(n * sizeof(float));
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    double got = 0.0, want = 0.0;
    for (int it = 0; it < 6; ++it) {
        reset(h, n, it);
        want += 2.0 * total(h, n);
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        got += total(h, n);
    }
    int bad = 0;
    for (int i = 0; i < 8; ++i) bad += h[i] != 2.0f * ((i + 5) % 13);
    free(h);
    cudaFree(d);
    if (got != want || bad) { printf("FAIL: %.1f want %.1f, %d wrong\n", got, want, bad); return 1; }
    printf("PASS %.1f\n", got);
    return 0;
}
