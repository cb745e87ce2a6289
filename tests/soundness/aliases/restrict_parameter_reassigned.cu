// soundness: must-refuse
// why: __restrict__ promises distinct memory on entry only; z = x + 1 breaks it: fused, thread i writes x[i + 1] (through z) before thread i + 1 has read x[i + 1] for produce, which the two launches one after another never do
// no-edit: F001
// expect: F002 "'z' is assigned"
__global__ void produce(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void consume(const float* y, float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
}

void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    z = x + 1;
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
}
