// soundness: must-refuse
// why: a global that is not const is changed by another function
// no-edit: L001
// no-edit: L007
// expect: L002 "is a global variable that is not const"
int threads = 128;

__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void tune() { threads = 1024; }

void run(float* x, int n)
{
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
