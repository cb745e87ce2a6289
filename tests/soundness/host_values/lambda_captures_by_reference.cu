// soundness: must-refuse
// why: a lambda that captures by reference sets the block
// no-edit: L001
// no-edit: L007
// expect: L002 "it is captured by reference by the lambda"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, bool wide)
{
    int threads = 128;
    auto widen = [&]() { threads = 1024; };
    if (wide) widen();
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
