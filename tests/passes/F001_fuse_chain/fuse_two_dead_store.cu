// cu2hip-options: --target cuda --ignore L
// The intermediate t is a local that only this chain and its cudaFree mention: its store is dropped.
__global__ void square(const float *x, float *t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        t[i] = v * v;
    }
}

__global__ void add_one(const float *t, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = t[i] + 1.0f;
}

void run(const float *x_host, float *y_host, int n) {
    float *x, *t, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&t, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, x_host, n * sizeof(float), cudaMemcpyHostToDevice);
    square<<<(n + 255) / 256, 256>>>(x, t, n);
    add_one<<<(n + 255) / 256, 256>>>(t, y, n);
    cudaMemcpy(y_host, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(t);
    cudaFree(y);
}
