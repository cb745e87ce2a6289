// soundness: must-refuse
// why: the grid grows with the iteration; a graph replays the grid it captured, so later iterations would cover too few elements
// no-edit: R012
// expect: R013 "may change per iteration"
// options: --target cuda --ignore F
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float* d, int n)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 1; it <= 8; ++it) {
        twice<<<it * n / 256, 256, 0, s>>>(d, it * n);
        half<<<it * n / 256, 256, 0, s>>>(d, it * n);
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
