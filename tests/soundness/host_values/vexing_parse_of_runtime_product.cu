// soundness: must-refuse
// why: dim3 b(TX*ty) is a variable of TX * ty threads, and ty is the caller's
// no-edit: L001
// no-edit: L007
// expect: L002 "'ty' is a parameter of run"
#define TX 16

__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, int ty)
{
    dim3 b(TX*ty);
    scale<<<(n + 1023) / 1024, b>>>(x, n);
}
