// soundness: must-apply
// why: the body is two launches on a stream the function creates with loop-invariant configurations and arguments: the graph replays the same kernels in the same order on the same stream
// edit: R012 "cudaGraphLaunch("
// edit: R012 "_graph, 0) == cudaSuccess"
// options: --target cuda --ignore F
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float* d, int n)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
