// soundness: must-refuse
// why: the kernel reverses a block-sized tile: its result depends on the block size
// no-edit: L007
// expect: L009 "tile keeps 1024 threads per block"
__global__ void tile(float* x)
{
    __shared__ float t[1024];
    t[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    x[blockIdx.x * blockDim.x + threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
}

   void run(float* x, int n) { tile<<<n / 1024, 1024>>>(x); }
