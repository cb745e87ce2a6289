// soundness: must-refuse
// why: a break leaves the loop before the free, so the original keeps the last buffer allocated and uses it after the loop; hoisted, the free after the loop would change that
// no-edit: R001
// expect: R002 "'break' at line"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
float* run(int n, const bool* stop)
{
    float* d = nullptr;
    for (int it = 0; it < 8; ++it) {
        cudaMalloc(&d, n * sizeof(float));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        if (stop[it]) break;
        cudaFree(d);
    }
    return d;
}
