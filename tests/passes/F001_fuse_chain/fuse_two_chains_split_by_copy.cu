// cu2hip-options: --target cuda --ignore L
// A copy splits four launches into two chains of two.
__global__ void inc(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}
__global__ void dbl(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
}
void run(float *host, int n) {
    float *a;
    cudaMalloc(&a, n * sizeof(float));
    inc<<<(n + 255) / 256, 256>>>(a, n);
    dbl<<<(n + 255) / 256, 256>>>(a, n);
    cudaMemcpy(host, a, n * sizeof(float), cudaMemcpyDeviceToHost);
    dbl<<<(n + 255) / 256, 256>>>(a, n);
    inc<<<(n + 255) / 256, 256>>>(a, n);
    cudaFree(a);
}
