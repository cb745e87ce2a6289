// soundness: must-apply
// why: with iters == 0 the original allocates nothing; the allocation moves before the loop only under the loop's first-iteration condition `0 < iters` (nothing in the loop writes iters), and the free after it under the same one, so with iters == 0 nothing is allocated
// edit: R001 "if (0 < iters) cudaMalloc(&d, n * sizeof(float));"
// edit: R001 "if (0 < iters) cudaFree(d);"
// options: --target cuda
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
