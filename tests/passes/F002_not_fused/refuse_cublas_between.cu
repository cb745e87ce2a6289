// cu2hip-options: --target cuda --ignore L
// Must not fuse: cuBLAS scales the intermediate between the launches.
#include <cublas_v2.h>
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}
__global__ void twice(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2.0f * a[i];
}
void run(cublasHandle_t h, int n) {
    float *a, *b;
    float two = 2.0f;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    fill<<<(n + 255) / 256, 256>>>(a, n);
    cublasSscal(h, n, &two, a, 1);
    twice<<<(n + 255) / 256, 256>>>(a, b, n);
}
