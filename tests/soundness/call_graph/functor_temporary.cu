// soundness: must-refuse
// why: F()(v) constructs the template argument's functor and calls it: a ByBlock functor reads blockDim.x
// no-edit: L007
// expect: L009 "cannot follow"
struct ByBlock
{
    __device__ float operator()(float v) const { return v * blockDim.x; }
};

template <typename F>
__global__ void apply(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = F()(x[i]);
}

void run(float* x, int n)
{
    apply<ByBlock><<<(n + 127) / 128, 128>>>(x, n);
}
