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

// cu2hip: fused_square_add_one does the work of square, add_one, launched one after another in run
// cu2hip: t[i] is not stored: t is a local of run that nothing reads after this chain: only its allocation, this chain's launches and its cudaFree mention it
__global__ void fused_square_add_one(const float *x, float *t, int n, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x_v = x[i];
        float t_v;
        float y_v;
        {   // square
            float v = x_v;
            t_v = v * v;
        }
        {   // add_one
            y_v = t_v + 1.0f;
        }
        (void)t_v;      // dead: not stored
        y[i] = y_v;
    }
}

void run(const float *x_host, float *y_host, int n) {
    float *x, *t, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&t, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, x_host, n * sizeof(float), cudaMemcpyHostToDevice);
    fused_square_add_one<<<(n + 255) / 256, 256>>>(x, t, n, y);
    cudaMemcpy(y_host, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(t);
    cudaFree(y);
}
