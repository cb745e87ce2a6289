// cu2hip-options: --hip-kernel-execution-syntax --ignore L
// The same chain in two functions: one fused kernel, launched from both; then translated to HIP.
__global__ void k1(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
__global__ void k2(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] + 3.0f;
}
void first(float *a, int n, cudaStream_t s) {
    k1<<<n / 64 + 1, 64, 0, s>>>(a, n);
    k2<<<n / 64 + 1, 64, 0, s>>>(a, n);
    cudaStreamSynchronize(s);
}
void second(float *b, int m, cudaStream_t s) {
    k1<<<m / 64 + 1, 64, 0, s>>>(b, m);
    k2<<<m / 64 + 1, 64, 0, s>>>(b, m);
}
