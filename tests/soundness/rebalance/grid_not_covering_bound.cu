// soundness: must-refuse
// why: 4 blocks of 128 cover 512 of the n elements: a recomputed grid would cover them all
// no-edit: L007
// expect: L009 "fewer than the guard's bound"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x) { scale<<<4, 128>>>(x, 4096); }
