// soundness: must-refuse
// why: the functor's operator() reads blockDim.x, so the kernel's result depends on the block size it is launched with
// no-edit: L007
// expect: L009 "cannot follow"
struct ByBlock
{
    __device__ float operator()(float v) const { return v * blockDim.x; }
};

template <typename F>
__global__ void apply(float* x, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = f(x[i]);
}

void run(float* x, int n)
{
    apply<<<(n + 127) / 128, 128>>>(x, n, ByBlock());
}
