// soundness: must-refuse
// why: BS is 1024 with -DBIG and 128 otherwise: a bound right in one configuration fails the other
// no-edit: L001
// no-edit: L007
// expect: L002 "several or no definitions"
#ifdef BIG
#define BS 1024
#else
#define BS 128
#endif
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    scale<<<(n + BS - 1) / BS, BS>>>(x, n);
}
