// soundness: must-refuse
// why: a function-like macro of n gives the block
// no-edit: L001
// no-edit: L007
// expect: L002 "is a call"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


#define THREADS(n) ((n) > 1024 ? 1024 : (n))

void run(float* x, int n)
{
    scale<<<1, THREADS(n)>>>(x, n);
}
