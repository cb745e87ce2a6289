// cu2hip-options: --target cuda --ignore L
// Must not fuse: control flow between the first two launches; the third kernel is a template whose
// argument the launch deduces (a fused kernel would have to write it out).
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
template <typename T>
__global__ void twice(T *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2;
}
void run(int n, bool again) {
    float *a;
    cudaMalloc(&a, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    if (again)
        n += 0;
    fill<<<(n + 255) / 256, 256>>>(a, n);
    twice<<<(n + 255) / 256, 256>>>(a, n);
}
