// cu2hip-options: --target cuda --ignore L
// Must not fuse: a cudaMemcpy between the launches reads the intermediate on the host.
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
__global__ void twice(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2.0f * a[i];
}
void run(float *host, int n) {
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    cudaMemcpy(host, a, n * 4, cudaMemcpyDeviceToHost);
    twice<<<(n + 255) / 256, 256>>>(a, b, n);
}
