// soundness: must-refuse
// why: the kernel calls a helper that calls another helper that reads blockDim.x: block dependence propagates through known calls
// no-edit: L007
// expect: L009 "which uses blockDim"
__device__ float inner(float v) { return v * blockDim.x; }
__device__ float outer(float v) { return inner(v) + 1.0f; }
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = outer(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
