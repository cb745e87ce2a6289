// soundness: must-apply
// why: stddev's shape: eval(x, y, n) deduces T from its pointer arguments, float at one call and double at the other: each arithmetic, the launch moves the same way for both
// options: --target cuda
// edit: L007 "256"
#include <cstdio>

template <typename T>
__global__ void twice(const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * 2;
}

template <typename T>
void eval(const T *x, T *y, int n)
{
    twice<T><<<(n + 511) / 512, 512>>>(x, y, n);
}

int main()
{
    const int n = 5000;
    float *hf = new float[n], *fx, *fy;
    double *hd = new double[n], *dx, *dy;
    for (int i = 0; i < n; i++) {
        hf[i] = (float)(i % 100);
        hd[i] = (double)(i % 77);
    }
    cudaMalloc(&fx, n * sizeof(float));
    cudaMalloc(&fy, n * sizeof(float));
    cudaMalloc(&dx, n * sizeof(double));
    cudaMalloc(&dy, n * sizeof(double));
    cudaMemcpy(fx, hf, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, hd, n * sizeof(double), cudaMemcpyHostToDevice);
    eval(fx, fy, n);
    eval(dx, dy, n);
    bool ok = cudaGetLastError() == cudaSuccess;
    cudaMemcpy(hf, fy, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, dy, n * sizeof(double), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n && ok; i++) ok = hf[i] == 2.0f * (i % 100) && hd[i] == 2.0 * (i % 77);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
