// soundness: must-refuse
// why: one instantiation's block is its caller's parameter
// no-edit: L001
// no-edit: L007
// expect: L002 "a template argument of launch"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   template <int BS> void launch(float* x, int n) { scale<<<(n + BS - 1) / BS, BS>>>(x, n); }

   void run(float* x, int n) { launch<128>(x, n); }
   template <int W> void wide(float* x, int n) { launch<W>(x, n); }
   void run_wide(float* x, int n) { wide<1024>(x, n); }
