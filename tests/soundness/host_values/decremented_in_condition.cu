// soundness: must-refuse
// why: --threads in a loop condition changes it
// no-edit: L001
// no-edit: L007
// expect: L002 "'threads' is incremented or decremented"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 1024;
    while (n < threads && --threads > 64) {}
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
