// soundness: must-apply
// why: sqrtf, expf and fminf are device library functions that do not see the block: the kernel stays block-size agnostic
// edit: L007 "256"
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fminf(sqrtf(x[i]), expf(x[i]));
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
