#include <hip/hip_runtime.h>
// cu2hip-options: --hip-kernel-execution-syntax --ignore L
// The same chain in two functions: one fused kernel, launched from both; then translated to HIP.
__global__ void k1(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
__global__ void k2(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] + 3.0f;
}

// cu2hip: fused_k1_k2 does the work of k1, k2, launched one after another in first
__global__ void fused_k1_k2(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a_v = a[i];
        {   // k1
            a_v = a_v * 2.0f;
        }
        {   // k2
            a_v = a_v + 3.0f;
        }
        a[i] = a_v;
    }
}
void first(float *a, int n, hipStream_t s) {
    hipLaunchKernelGGL(fused_k1_k2, dim3(n / 64 + 1), dim3(64), 0, s, a, n);
    hipStreamSynchronize(s);
}
void second(float *b, int m, hipStream_t s) {
    hipLaunchKernelGGL(fused_k1_k2, dim3(m / 64 + 1), dim3(64), 0, s, b, m);
}
