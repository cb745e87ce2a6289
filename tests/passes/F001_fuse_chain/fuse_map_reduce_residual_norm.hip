// cu2hip-options: --target cuda --ignore L
// A residual, then the block reduction of its squares: the reduction reads r from the
// register the residual computes; r is a local nothing else reads, so it is not stored.
__global__ void residual(const float *a, const float *x, const float *b, float *r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) r[i] = b[i] - a[i] * x[i];
}

__global__ void sum_squares(const float *r, float *total, int n) {
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? r[i] * r[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, partial[0]);
}

// cu2hip: fused_residual_sum_squares does the work of residual, sum_squares, launched one after another in norm2: sum_squares reads what the others compute from registers
// cu2hip: r[i] is not stored: r is a local of norm2 that nothing reads after this chain: only its allocation, this chain's launches and its cudaFree mention it
__global__ void fused_residual_sum_squares(const float *a, const float *x, const float *b, float *r, int n, float *total)
{
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a_v;
    float x_v;
    float b_v;
    float r_v;
    if (i < n) {
        a_v = a[i];
        x_v = x[i];
        b_v = b[i];
        {   // residual
            r_v = b_v - a_v * x_v;
        }
    }
    // sum_squares
    partial[threadIdx.x] = i < n ? r_v * r_v : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, partial[0]);
}

float norm2(const float *a, const float *x, const float *b, int n) {
    float *r, *total, result;
    cudaMalloc(&r, n * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    cudaMemset(total, 0, sizeof(float));
    fused_residual_sum_squares<<<(n + 255) / 256, 256>>>(a, x, b, r, n, total);
    cudaMemcpy(&result, total, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(r);
    cudaFree(total);
    return result;
}
