// soundness: must-apply
// why: the struct main declares holds numbers and a pointer and has no constructor, destructor or operator: declaring and filling it enqueues nothing, and every piece of device work is on s, which main creates
// edit: R010 "cudaStreamSynchronize(s)"
// options: --target cuda
#include <cstdio>
struct Params {
    int n;
    float scale;
    float* data;
};
struct Range {
    Params params;
    int first = 0;
};
__global__ void scale(Params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.data[i] = (p.data[i] + 1.0f) * p.scale;
}
int main()
{
    const int n = 1024;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    Params p = {n, 2.0f, d};
    Range r;
    r.params = p;
    r.params.scale = 3.0f;
    cudaMemsetAsync(d, 0, n * sizeof(float), s);
    scale<<<(n + 255) / 256, 256, 0, s>>>(r.params);
    cudaDeviceSynchronize();
    float h[1024];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 3.0f;
    if (wrong) {
        printf("FAIL: %d of %d elements are not 3\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
