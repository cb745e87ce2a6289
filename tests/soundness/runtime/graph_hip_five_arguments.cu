// soundness: must-apply
// why: HIP's hipGraphInstantiate takes five arguments (ROCm 5.x and 6.x): the three-argument CUDA 12 form would not compile there
// edit: R012 "_graph, nullptr, nullptr, 0) == hipSuccess"
// output-has: "hipGraphInstantiate(&"
// options: --rocm-version 6.0 --ignore L,F
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
