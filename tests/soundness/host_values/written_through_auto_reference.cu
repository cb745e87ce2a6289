// soundness: must-refuse
// why: auto& r binds threads, then r += 896
// no-edit: L001
// no-edit: L007
// expect: L002 "bound to a reference that is not const"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128;
    auto& r = threads;
    r += 896;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
