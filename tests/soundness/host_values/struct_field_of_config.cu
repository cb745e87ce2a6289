// soundness: must-refuse
// why: a field of a config struct is set at run time
// no-edit: L001
// no-edit: L007
// expect: L002 "is a member of a run-time value"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


struct Launch { int threads = 128; };

void run(float* x, int n, bool wide)
{
    Launch cfg;
    if (wide) cfg.threads = 1024;
    scale<<<(n + 1023) / 1024, cfg.threads>>>(x, n);
}
