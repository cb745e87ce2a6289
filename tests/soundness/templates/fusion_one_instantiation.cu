// soundness: must-apply
// why: a chain of two template kernels in run<T>, which only run<float> instantiates: the fused kernel is written for float
// options: --target cuda
// edit: F001 "float *z, float b"
#include <cstdio>

template <typename T>
__global__ void scale(const T *x, T *y, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}

template <typename T>
__global__ void shift(const T *y, T *z, T b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + b;
}

template <typename T>
void run(const T *__restrict__ x, T *__restrict__ y, T *__restrict__ z, int n)
{
    scale<T><<<(n + 255) / 256, 256>>>(x, y, 3, n);
    shift<T><<<(n + 255) / 256, 256>>>(y, z, 1, n);
}

int main()
{
    const int n = 10000;
    float *h = new float[n], *x, *y, *z;
    for (int i = 0; i < n; i++) h[i] = (float)(i % 50);
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    run<float>(x, y, z, n);
    float *gy = new float[n], *gz = new float[n];
    cudaMemcpy(gy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(gz, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n && ok; i++) ok = gy[i] == 3.0f * h[i] && gz[i] == 3.0f * h[i] + 1.0f;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
