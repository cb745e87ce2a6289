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

float norm2(const float *a, const float *x, const float *b, int n) {
    float *r, *total, result;
    cudaMalloc(&r, n * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    cudaMemset(total, 0, sizeof(float));
    residual<<<(n + 255) / 256, 256>>>(a, x, b, r, n);
    sum_squares<<<(n + 255) / 256, 256>>>(r, total, n);
    cudaMemcpy(&result, total, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(r);
    cudaFree(total);
    return result;
}
