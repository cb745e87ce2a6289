// soundness: must-refuse
// why: run<T> is instantiated for float and for int: a fused kernel written for one type would compute the other's chain in the wrong type (3 * 0.5 truncated in int)
// options: --target cuda
// no-edit: F001
// expect: F002 "several types"
#include <cstdio>

template <typename T>
__global__ void scale(const T *x, T *y, float a, int n)
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
    scale<T><<<(n + 255) / 256, 256>>>(x, y, 1.5f, n);
    shift<T><<<(n + 255) / 256, 256>>>(y, z, 1, n);
}

template <typename T>
bool check(int n)
{
    T *h = new T[n], *x, *y, *z;
    for (int i = 0; i < n; i++) h[i] = (T)(i % 50);
    cudaMalloc(&x, n * sizeof(T));
    cudaMalloc(&y, n * sizeof(T));
    cudaMalloc(&z, n * sizeof(T));
    cudaMemcpy(x, h, n * sizeof(T), cudaMemcpyHostToDevice);
    run<T>(x, y, z, n);
    T *gz = new T[n];
    cudaMemcpy(gz, z, n * sizeof(T), cudaMemcpyDeviceToHost);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n && ok; i++) ok = gz[i] == (T)((T)(1.5f * h[i]) + (T)1);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    return ok;
}

int main()
{
    bool ok = check<float>(10000) && check<int>(10000);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
