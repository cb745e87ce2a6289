// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// malloc'd, checked for null, filled and read back at every step, freed once: made pinned.
int steps(float* d) {
    const int n = 1 << 16;       // 256 KiB: the smallest size pinning was measured to pay at
    float* h = nullptr;
    cudaMallocHost(&h, n * sizeof(float));
    if (!h) { fprintf(stderr, "out of memory\n"); return 1; }
    for (int it = 0; it < 10; ++it) {
        for (int i = 0; i < n; ++i) h[i] = (float)it;
        CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
        if (h[0] != 2.0f * it) printf("wrong\n");
    }
    cudaFreeHost(h);
    return 0;
}

// new[] of a built-in type, copied in a nested loop, element addresses to the copy: made pinned.
void nested(int* d) {
    const int n = 1 << 16;
    int* h = nullptr;
    cudaMallocHost(&h, (n + 1) * sizeof(int));
    memset(h, 0, (n + 1) * sizeof(int));
    for (int j = 0; j < 4; ++j) {
        for (int i = 0; i < n; ++i) {
            CHECK(cudaMemcpy(d + i, &h[i], sizeof(int), cudaMemcpyHostToDevice));
            if (i == j) break;
        }
    }
    cudaFreeHost(h);
}

// The device is reset after the free (through a function of the file): made pinned.
void tear_down() { cudaDeviceReset(); }
void reset_after_free(float* d) {
    const int n = 1 << 16;
    float* h = nullptr;
    cudaMallocHost(&h, n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFreeHost(h);
    tear_down();
}
