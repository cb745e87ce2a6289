// cu2hip-options: --target cuda --ignore L
// Must not fuse: the first kernel shares values between threads through shared memory,
// so a thread's element of b is not its own work (a reduction may end a chain, not start one).
__global__ void reverse_block(const float *a, float *b, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n) b[i] = tile[255 - threadIdx.x];
}
__global__ void twice(const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = 2.0f * b[i];
}
void run(const float *a, float *c, int n) {
    float *b;
    cudaMalloc(&b, n * 4);
    reverse_block<<<(n + 255) / 256, 256>>>(a, b, n);
    twice<<<(n + 255) / 256, 256>>>(b, c, n);
}
