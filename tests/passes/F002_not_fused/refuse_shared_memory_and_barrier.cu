// cu2hip-options: --target cuda
// Must not fuse: the second kernel shares values between threads through shared memory.
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
__global__ void reverse_block(const float *a, float *b, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n) b[i] = tile[255 - threadIdx.x];
}
void run(int n) {
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    reverse_block<<<(n + 255) / 256, 256>>>(a, b, n);
}
