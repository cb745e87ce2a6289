// cu2hip-options: --target cuda --ignore L
// Must not fuse: control flow between the first two launches; the third kernel is a template with a
// value parameter (a fused kernel writes out only type parameters).
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
template <int F>
__global__ void twice(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= F;
}
void run(int n, bool again) {
    float *a;
    cudaMalloc(&a, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    if (again)
        n += 0;
    fill<<<(n + 255) / 256, 256>>>(a, n);
    twice<2><<<(n + 255) / 256, 256>>>(a, n);
}
