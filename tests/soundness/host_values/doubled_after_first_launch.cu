// soundness: must-refuse
// why: the second launch, after threads *= 2, uses 256 threads: a bound of 128 fails it
// no-edit: L001
// no-edit: L007
// expect: L002 "'threads' is assigned (*=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128;
    for (int pass = 0; pass < 2; ++pass) {
        scale<<<(n + threads - 1) / threads, threads>>>(x, n);
        threads *= 2;
    }
}
