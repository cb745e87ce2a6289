// cu2hip-options: --target cuda --ignore L
// Must not fuse: the second kernel passes its pointer to a helper, which may read any element.
__device__ float first_of(const float *p) { return p[0]; }
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
__global__ void use_first(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = first_of(a);
}
void run(int n) {
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    use_first<<<(n + 255) / 256, 256>>>(a, b, n);
}
