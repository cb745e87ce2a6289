// soundness: must-refuse
// why: threads <<= 3 launches 1024 threads, not 128
// no-edit: L001
// no-edit: L007
// expect: L002 "'threads' is assigned (<<=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128;
    threads <<= 3;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
