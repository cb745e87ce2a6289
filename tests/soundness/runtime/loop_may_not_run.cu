// soundness: must-refuse
// why: with iters == 0 the original allocates nothing; hoisted, it would allocate (and could fail on a size the loop never uses)
// no-edit: R001
// expect: R002 "may run zero times"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(int n, int iters)
{
    for (int it = 0; it < iters; ++it) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaFree(d);
    }
}
