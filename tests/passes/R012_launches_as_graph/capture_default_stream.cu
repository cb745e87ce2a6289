// cu2hip-options: --ignore L,F
// HeCBench's repeat loop: launches on the default stream only (none named, 0, a dynamic
// shared-memory size), captured on a non-blocking stream of the rewrite's own, the graph
// launched on the default stream.
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { extern __shared__ float t[]; int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { t[threadIdx.x] = x[i]; x[i] = t[threadIdx.x] * 0.5f; } }
void run(float* d, int n, int repeat) {
    for (int i = 0; i < repeat; i++) {
        twice<<<(n + 255) / 256, 256>>>(d, n);
        half<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(d, n);
        twice<<<(n + 255) / 256, 256, 0, 0>>>(d, n);
    }
}
