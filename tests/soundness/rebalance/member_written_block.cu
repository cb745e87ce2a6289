// soundness: must-apply
// why: b.x = 1024 after dim3 b(64): the launch is 1024 threads, the bound 1024, not the initializer's 64; no launch of 64 threads to move, and the member's assignment is not rewritten
// edit: L001 "__launch_bounds__(1024)"
// output-lacks: "__launch_bounds__(64)"
// no-edit: L007
// expect: L009 "whose members are assigned one by one"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       dim3 b(64);
       b.x = 1024;
       scale<<<(n + 1023) / 1024, b>>>(x, n);
   }
