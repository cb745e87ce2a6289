// soundness: must-refuse
// why: parse(threads) sets 1024 through its int& parameter; the initializer says 128
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to parse, whose parameter 1 is a non-const reference"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void parse(int& t) { t = 1024; }

void run(float* x, int n)
{
    int threads = 128;
    parse(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
