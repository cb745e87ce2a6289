// soundness: must-refuse
// why: a member function takes the block by reference
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to the member function cfg.read"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


struct Config { void read(int& t) const { t = 1024; } };

void run(float* x, int n)
{
    Config cfg;
    int threads = 128;
    cfg.read(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
