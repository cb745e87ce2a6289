// soundness: must-refuse
// why: a macro that increments its argument
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to the macro BUMP, whose body may write it"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


#define BUMP(v) ((v)++)

void run(float* x, int n)
{
    int threads = 1023;
    BUMP(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
