// soundness: must-apply
// why: the kernel reaches sq<float> and then twice through known calls, and none sees the block
// edit: L007 "256"
__device__ float twice(float v) { return 2.0f * v; }
template <typename T>
__device__ T sq(T v) { return twice(v) * v; }
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = sq<float>(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
