// cu2hip-options: --target cuda --ignore L
// Must not fuse: n changes between the launches, and the first launch must see the old n.
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
__global__ void twice(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2.0f * a[i];
}
void run(int n) {
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    n = n / 2;
    twice<<<(n + 255) / 256, 256>>>(a, b, n);
}
