// soundness: must-apply
// why: dim3 b(TX*TY) is a variable of TX * TY threads (tree-sitter reads a function taking a TX*), and both are macros
// options: --no-rebalance
// edit: L001 "__launch_bounds__(256)"
#define TX 16
#define TY 16

__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(TX*TY);
    scale<<<(n + TX * TY - 1) / (TX * TY), b>>>(x, n);
}
