// soundness: must-refuse
// why: grow() doubles the global size inside the loop; hoisted, the one allocation would keep the first size while the launches use the larger ones
// no-edit: R001
// expect: R002 "'g_count' is not a local"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
int g_count = 1024;
void grow() { g_count *= 2; }
void run()
{
    for (int it = 0; it < 4; ++it) {
        float* d;
        cudaMalloc(&d, g_count * sizeof(float));
        twice<<<(g_count + 255) / 256, 256>>>(d, g_count);
        grow();
        cudaFree(d);
    }
}
