// soundness: must-refuse
// why: *p = 1024 writes threads through a pointer to it
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'threads' is taken"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128;
    int* p = &threads;
    *p = 1024;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
