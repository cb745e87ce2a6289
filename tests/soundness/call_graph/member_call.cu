// soundness: must-refuse
// why: a member function of the argument reads the block size
// no-edit: L007
// expect: L009 "cannot follow"
struct Scaler
{
    float a;
    __device__ float apply(float v) const { return a * v * blockDim.x; }
};
__global__ void k(float* x, int n, Scaler s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = s.apply(x[i]);
}

void run(float* x, int n, Scaler s)
{
    k<<<(n + 127) / 128, 128>>>(x, n, s);
}
