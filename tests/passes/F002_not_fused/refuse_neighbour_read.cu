// cu2hip-options: --target cuda --ignore L
// Must not fuse: the second kernel reads a[i + 1], which another thread of the first writes.
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
}
__global__ void diff(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) b[i] = a[i + 1] - a[i];
}
void run(int n) {
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    diff<<<(n + 255) / 256, 256>>>(a, b, n);
}
