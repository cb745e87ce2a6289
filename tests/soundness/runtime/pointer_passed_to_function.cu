// soundness: must-refuse
// why: register() may keep the pointer (a cache of buffers, a deferred free); hoisted, it would keep one buffer where the program gave it sixteen
// no-edit: R001
// expect: R002 "passed to remember"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void remember(float* p);
void run(int n)
{
    for (int it = 0; it < 16; ++it) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        remember(d);
        cudaFree(d);
    }
}
