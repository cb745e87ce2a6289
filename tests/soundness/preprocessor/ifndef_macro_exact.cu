// soundness: must-apply
// why: every launch is exactly TPB: __launch_bounds__(TPB) is right for any -DTPB
// options: --no-rebalance
// edit: L001 "__launch_bounds__(TPB)"
// output-has: "__launch_bounds__(TPB) scale("
#ifndef TPB
#define TPB 128
#endif
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    scale<<<(n + TPB - 1) / TPB, TPB>>>(x, n);
}
