// soundness: must-apply
// why: the buffer is only passed to a copy and a launch, its size never changes, the loop runs 32 times and the free ends every iteration: one allocation serves them all
// edit: R001 "cudaMalloc(&d, n * sizeof(float));"
// edit: R001 "cudaFree(d);"
// options: --target cuda
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(const float* h, float* out, int n)
{
    for (int it = 0; it < 32; ++it) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        cudaFree(d);
    }
}
