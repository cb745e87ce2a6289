// soundness: must-apply
// why: dim3 block(TPB) is exactly TPB threads
// options: --no-rebalance
// edit: L001 "__launch_bounds__(TPB)"
#ifndef TPB
#define TPB 256
#endif
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 block(TPB);
    scale<<<(n + TPB - 1) / TPB, block>>>(x, n);
}
