// soundness: must-refuse
// why: the stream is the caller's, which may be the legacy default stream (capture is illegal there) or one the caller is already capturing
// no-edit: R012
// expect: R013 "the stream is not known"
// options: --target cuda --ignore F
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float* d, int n, cudaStream_t s)
{
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
}
