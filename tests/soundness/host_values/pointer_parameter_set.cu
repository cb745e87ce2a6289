// soundness: must-refuse
// why: set(&threads) writes through the pointer parameter
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'threads' is taken"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void set(int* t) { *t = 1024; }

void run(float* x, int n)
{
    int threads = 128;
    set(&threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
