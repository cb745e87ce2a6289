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

// cu2hip: fused_inc_dbl does the work of inc, dbl, launched one after another in run
__global__ void fused_inc_dbl(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a_v = a[i];
        {   // inc
            a_v += 1.0f;
        }
        {   // dbl
            a_v *= 2.0f;
        }
        a[i] = a_v;
    }
}

// cu2hip: fused_dbl_inc does the work of dbl, inc, launched one after another in run
__global__ void fused_dbl_inc(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a_v = a[i];
        {   // dbl
            a_v *= 2.0f;
        }
        {   // inc
            a_v += 1.0f;
        }
        a[i] = a_v;
    }
}
void run(float *host, int n) {
    float *a;
    cudaMalloc(&a, n * sizeof(float));
    fused_inc_dbl<<<(n + 255) / 256, 256>>>(a, n);
    cudaMemcpy(host, a, n * sizeof(float), cudaMemcpyDeviceToHost);
    fused_dbl_inc<<<(n + 255) / 256, 256>>>(a, n);
    cudaFree(a);
}
