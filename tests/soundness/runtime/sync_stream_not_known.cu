// soundness: must-refuse
// why: the stream comes from a helper, which may hand out the legacy default stream or enqueue work of its own on others; only a stream main creates itself is known
// no-edit: R010
// expect: R006 "is not created by a cudaStreamCreate statement"
// options: --target cuda
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
cudaStream_t make_stream();
int main()
{
    float* d;
    cudaMalloc(&d, 1024 * sizeof(float));
    cudaStream_t s = make_stream();
    twice<<<4, 256, 0, s>>>(d, 1024);
    cudaDeviceSynchronize();
    return 0;
}
