// soundness: must-refuse
// why: an extern __device__ function defined in another translation unit (with -rdc) may read the block size
// no-edit: L007
// expect: L009 "cannot follow"
extern __device__ float ext(float v);
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = ext(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
