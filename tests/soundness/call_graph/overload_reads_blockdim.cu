// soundness: must-refuse
// why: one overload of the helper reads blockDim.x; a call is resolved by name, so any overload may be the one called
// no-edit: L007
// expect: L009 "which uses blockDim"
__device__ float scale(float v) { return v * blockDim.x; }
__device__ double scale(double v) { return 2.0 * v; }
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = scale(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
