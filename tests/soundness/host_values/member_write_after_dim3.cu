// soundness: must-apply
// why: b.x = 256 after dim3 b(1, 1, 1): the launch is 256 threads, the bound 256; the initializer's bound of 1 would make every launch fail
// edit: L001 "__launch_bounds__(256)"
// output-lacks: "__launch_bounds__(1)"
// no-edit: L007
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(1, 1, 1);
    b.x = 256;
    scale<<<(n + 255) / 256, b>>>(x, n);
}
