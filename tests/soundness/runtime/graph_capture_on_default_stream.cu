// soundness: must-refuse
// why: the launches are on the legacy default stream, which cannot be captured: cudaStreamBeginCapture(0, ...) fails and the graph would launch nothing
// no-edit: R012
// expect: R013 "cannot be captured"
// options: --target cuda --ignore F
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float* d, int n)
{
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256>>>(d, n);
        half<<<(n + 255) / 256, 256>>>(d, n);
    }
}
