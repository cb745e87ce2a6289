// soundness: must-refuse
// why: a block's local `scale` ends before the kernel itself is passed to cudaLaunchKernel with a block read at run time
// no-edit: L001
// expect: L002 "scale is used as a value here"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

void run(float* x, int n, int threads)
{
    {
        int scale = 128;
        n -= scale;
    }
    void* args[] = {&x, &n};
    void* entry = (void*)scale;
    cudaLaunchKernel(entry, dim3(1), dim3(threads), args, 0, 0);
    scale<<<(n + 127) / 128, 128>>>(x, n);
}
