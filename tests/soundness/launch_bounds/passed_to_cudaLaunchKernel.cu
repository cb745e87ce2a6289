// soundness: must-refuse
// why: the kernel is launched through cudaLaunchKernel with a block from the device
// no-edit: L001
// expect: L002 "scale"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       int threads = 0;
       cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, 0);
       void* args[] = {&x, &n};
       cudaLaunchKernel((void*)scale, dim3(1), dim3(threads), args, 0, 0);
       scale<<<(n + 127) / 128, 128>>>(x, n);
   }
