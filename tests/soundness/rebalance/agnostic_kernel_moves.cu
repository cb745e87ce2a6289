// soundness: must-apply
// why: an elementwise kernel's 1024-thread launch moves to 256 with its grid recomputed
// edit: L007 "256"
// output-has: "(n + 255) / 256"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n) { scale<<<(n + 1023) / 1024, 1024>>>(x, n); }
