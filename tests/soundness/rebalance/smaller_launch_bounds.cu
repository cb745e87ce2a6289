// soundness: must-refuse
// why: the kernel's own __launch_bounds__(128) forbids 256-thread blocks
// no-edit: L007
// expect: L009 "__launch_bounds__(128)"
__global__ void __launch_bounds__(128) scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

void run(float* x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
