// soundness: must-refuse
// why: a static local is changed on every call
// no-edit: L001
// no-edit: L007
// expect: L002 "'threads' is assigned (+=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    static int threads = 64;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    threads += 64;
}
