// soundness: must-refuse
// why: with -DTUNED the launch's block is the caller's
// no-edit: L001
// no-edit: L007
// expect: L002 "'threads' is a parameter of run"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, int threads)
{
#ifdef TUNED
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
#else
    scale<<<(n + 255) / 256, 256>>>(x, n);
#endif
}
