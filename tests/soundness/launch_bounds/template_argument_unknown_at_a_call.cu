// soundness: must-refuse
// why: one instantiation's block is a constexpr function's result, which cu2hip does not evaluate (a template parameter of a calling template, given 1024 at its one call, is known: tests/soundness/templates/nested_template_arguments.cu)
// no-edit: L001
// no-edit: L007
// expect: L002 "a template argument of launch"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   constexpr int widest() { return 1024; }
   template <int BS> void launch(float* x, int n) { scale<<<(n + BS - 1) / BS, BS>>>(x, n); }

   void run(float* x, int n) { launch<128>(x, n); }
   void run_wide(float* x, int n) { launch<widest()>(x, n); }
