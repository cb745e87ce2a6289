// soundness: must-refuse
// why: dim3 b(t) of a t that parse() writes is no constant
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
    int t = 128;
    parse(t);
    dim3 b(t);
    scale<<<(n + 1023) / 1024, b>>>(x, n);
}
