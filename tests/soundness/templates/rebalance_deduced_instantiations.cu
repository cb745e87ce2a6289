// soundness: must-refuse
// why: eval(x, y, n) deduces T from its pointer arguments: float for one call and Tagged, whose operator* adds the block size, for the other: the one launch text must not move
// options: --target cuda
// no-edit: L007
// expect: L009 "the file's Tagged::operator* uses blockDim"
#include <cstdio>
#include <cstring>

struct Tagged {
    float v;
    __host__ __device__ Tagged operator*(int k) const
    {
#ifdef __CUDA_ARCH__
        return Tagged{v * k + blockDim.x};
#else
        return Tagged{v * k};
#endif
    }
};

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

bool check(const float *got, int n, float extra)
{
    for (int i = 0; i < n; i++)
        if (got[i] != 2.0f * (i % 100) + extra) return false;
    return true;
}

int main()
{
    const int n = 5000;
    float *h = new float[n];
    for (int i = 0; i < n; i++) h[i] = (float)(i % 100);
    float *fx, *fy;
    Tagged *tx, *ty;
    cudaMalloc(&fx, n * sizeof(float));
    cudaMalloc(&fy, n * sizeof(float));
    cudaMalloc(&tx, n * sizeof(Tagged));
    cudaMalloc(&ty, n * sizeof(Tagged));
    cudaMemcpy(fx, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(tx, h, n * sizeof(Tagged), cudaMemcpyHostToDevice);
    eval(fx, fy, n);
    eval(tx, ty, n);
    bool ok = cudaGetLastError() == cudaSuccess;
    cudaMemcpy(h, fy, n * sizeof(float), cudaMemcpyDeviceToHost);
    ok = ok && check(h, n, 0.0f);
    cudaMemcpy(h, ty, n * sizeof(Tagged), cudaMemcpyDeviceToHost);
    ok = ok && check(h, n, 512.0f);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
