// soundness: must-refuse
// why: each iteration allocates a larger buffer; hoisted, the first (smallest) allocation would be written past its end
// no-edit: R001
// expect: R002 "may change per iteration"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(int n)
{
    for (int it = 1; it < 8; ++it) {
        float* d;
        cudaMalloc(&d, n * it * sizeof(float));
        twice<<<(n * it + 255) / 256, 256>>>(d, n * it);
        cudaFree(d);
    }
}
