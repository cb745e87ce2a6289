// soundness: must-apply
// why: every piece of device work main enqueues is on s, which main creates, and nothing else can enqueue: waiting for s waits for all of it
// edit: R010 "cudaStreamSynchronize(s)"
// options: --target cuda
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
int main()
{
    const int n = 1024;
    float h[4];
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemsetAsync(d, 0, n * sizeof(float), s);
    twice<<<4, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize();
    return h[0] == 0.0f ? 0 : 1;
}
