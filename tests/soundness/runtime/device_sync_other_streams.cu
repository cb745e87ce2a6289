// soundness: must-refuse
// why: the caller may have left work on other streams that this device-wide wait also waits for (a host read after it would see it); replacing it with one stream's synchronisation is only reported
// no-edit: R
// expect: R006 "cudaStreamSynchronize(s)"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(float* x, float* h, int n, cudaStream_t s)
{
    twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    cudaMemcpyAsync(h, x, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize();
    h[0] += 1.0f;
}
