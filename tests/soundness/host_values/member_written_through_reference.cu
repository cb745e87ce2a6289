// soundness: must-refuse
// why: a reference to b.x writes the dim3's x
// no-edit: L001
// no-edit: L007
// expect: L002 "bound to a reference that is not const"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(128);
    unsigned int& bx = b.x;
    bx = 1024;
    scale<<<(n + 1023) / 1024, b>>>(x, n);
}
