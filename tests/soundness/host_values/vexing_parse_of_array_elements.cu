// soundness: must-refuse
// why: dim3 b(lt[0], lt[1]) is a variable whose sizes are array elements, which the host changes before the launch
// no-edit: L001
// no-edit: L007
// expect: L002 "'lt[0]' is not a constant expression"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, unsigned t)
{
    unsigned lt[2] = {16, 16};
    if (t * t > 256) lt[0] = lt[1] = 32;
    dim3 b(lt[0], lt[1]);
    scale<<<(n + 1023) / 1024, b>>>(x, n);
}
