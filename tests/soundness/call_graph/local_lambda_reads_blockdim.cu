// soundness: must-refuse
// why: a lambda local to the kernel reads blockDim.x and is called per element
// no-edit: L007
// expect: L009 "k keeps 128"
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        auto f = [](float v) { return v * blockDim.x; };
        x[i] = f(x[i]);
    }
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
