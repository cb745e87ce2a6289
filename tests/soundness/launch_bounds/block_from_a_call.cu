// soundness: must-refuse
// why: the block is what a function returns at run time
// no-edit: L001
// no-edit: L007
// expect: L002 "is a call"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   int pick_block(int n) { return n > 4096 ? 1024 : 128; }

   void run(float* x, int n) { scale<<<(n + 1023) / 1024, pick_block(n)>>>(x, n); }
