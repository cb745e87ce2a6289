// soundness: must-refuse
// why: the host reads a flag the kernels write (managed memory) before every iteration; the loop's iterations are decided by what each launch wrote
// no-edit: R012
// expect: R013 "the loop's header reads memory"
// options: --target cuda --ignore F
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
__global__ void mark(int* done, const float* x, int n) { if (x[0] > 1000.0f) *done = 1; }
void steps(float* d, int* done, int n)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    while (done[0] == 0) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        mark<<<1, 1, 0, s>>>(done, d, n);
    }
    cudaStreamDestroy(s);
}
