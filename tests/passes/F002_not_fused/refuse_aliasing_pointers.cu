// cu2hip-options: --target cuda --ignore L
// Must not fuse: b is a + 1 in disguise: the caller's pointers may overlap.
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
__global__ void twice(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2.0f * a[i];
}
void run(float *a, float *b, int n) {
    fill<<<(n + 255) / 256, 256>>>(a, n);
    twice<<<(n + 255) / 256, 256>>>(a, b, n);
}
