// soundness: must-apply
// why: the stream is only a launch's and a synchronisation's argument and is destroyed at the end of each of the 32 iterations: one stream, in order, serves them all
// edit: R003 "cudaStreamCreate(&s);"
// options: --target cuda
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(float* x, int n)
{
    for (int it = 0; it < 32; ++it) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
    }
}
