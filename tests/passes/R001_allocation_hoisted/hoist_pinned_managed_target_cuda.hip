// cu2hip-options: --target cuda --ignore L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// Pinned and managed memory, hoisted for --target cuda (the bench's rewrite).
void run(float* out, int n) {
    float* pinned;
    CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
    float* managed;
    CHECK(cudaMallocManaged(&managed, n * sizeof(float), cudaMemAttachGlobal));
    for (int it = 0; it < 8; ++it) {
        for (int i = 0; i < n; ++i) pinned[i] = i;
        CHECK(cudaMemcpy(managed, pinned, n * sizeof(float), cudaMemcpyHostToDevice));
        twice<<<(n + 255) / 256, 256>>>(managed, n);
        CHECK(cudaDeviceSynchronize());
        out[it] = managed[0];
    }
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(managed));
}
