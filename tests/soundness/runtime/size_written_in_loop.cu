// soundness: must-refuse
// why: the size doubles at every iteration through a variable declared before the loop; hoisted, later iterations overrun the first allocation
// no-edit: R001
// expect: R002 "'m' is written in the loop"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(int n)
{
    int m = n;
    for (int it = 0; it < 8; ++it) {
        float* d;
        cudaMalloc(&d, m * sizeof(float));
        twice<<<(m + 255) / 256, 256>>>(d, m);
        m = m * 2;
        cudaFree(d);
    }
}
