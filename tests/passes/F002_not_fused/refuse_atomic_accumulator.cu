// cu2hip-options: --target cuda --ignore L
// Must not fuse: the first kernel adds into an accumulator every thread of the second reads.
__global__ void total(const float *a, float *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, a[i]);
}
__global__ void normalise(float *a, const float *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] / sum[0];
}
void run(int n) {
    float *a, *sum;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&sum, 4);
    total<<<(n + 255) / 256, 256>>>(a, sum, n);
    normalise<<<(n + 255) / 256, 256>>>(a, sum, n);
}
