// soundness: must-refuse
// why: the size comes from argv (decided at run time), and the host reads h right after a cudaMemcpyAsync on a stream that is synchronous only because h is pageable; pinned, the copy would still be running when the host sums it
// no-edit: R007
// expect: R009 "from pageable memory the copy is synchronous"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void fill(float* x, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v; }
int main(int argc, char** argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    float* h = (float*)malloc(n * sizeof(float));
    double sum = 0.0;
    for (int it = 0; it < 4; ++it) {
        fill<<<(n + 255) / 256, 256, 0, s>>>(d, (float)(it + 1), n);
        CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
        sum += h[n - 1];
    }
    CHECK(cudaStreamSynchronize(s));
    free(h);
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    if (sum != 10.0) { printf("FAIL: sum %f\n", sum); return 1; }
    printf("PASS\n");
    return 0;
}
