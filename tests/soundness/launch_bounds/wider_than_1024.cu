// soundness: must-refuse
// why: a launch of 2048 threads fails on CUDA and HIP: no bound of 2048 is written, and rebalancing must not make it run
// no-edit: L001
// no-edit: L007
// expect: L002 "asks for 2048 threads"
// expect: L009 "fails on CUDA and on HIP"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x) { scale<<<1, 2048>>>(x, 2048); }
