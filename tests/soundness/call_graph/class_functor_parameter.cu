// soundness: must-refuse
// why: a functor parameter of class type calls its operator(), which reads the block size
// no-edit: L007
// expect: L009 "cannot follow"
struct Scale
{
    float a;
    __device__ float operator()(float v) const { return a * v + threadIdx.x; }
};
__global__ void k(float* x, int n, Scale s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = s(x[i]);
}

void run(float* x, int n, Scale s)
{
    k<<<(n + 127) / 128, 128>>>(x, n, s);
}
