// soundness: must-refuse
// why: the block size is the caller's argument, so any bound may be too small for a launch
// no-edit: L001
// expect: L002 "scale"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

void run(float* x, int n, int threads)
{
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
