// soundness: must-refuse
// why: a template taking T&& writes its argument
// no-edit: L001
// no-edit: L007
// expect: L002 "whose parameter 1 is a forwarding reference"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


template <class T> void tune(T&& t) { t = 1024; }

void run(float* x, int n)
{
    int threads = 128;
    tune(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
