// soundness: must-refuse
// why: eval<T> is called with float and with Tagged, whose operator* adds the block size: the one launch text must not move for either
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
bool eval(int n, float extra)
{
    T *h = new T[n];
    for (int i = 0; i < n; i++) h[i] = T{(float)(i % 100)};
    T *x, *y;
    cudaMalloc(&x, n * sizeof(T));
    cudaMalloc(&y, n * sizeof(T));
    cudaMemcpy(x, h, n * sizeof(T), cudaMemcpyHostToDevice);
    twice<T><<<(n + 511) / 512, 512>>>(x, y, n);
    cudaMemcpy(h, y, n * sizeof(T), cudaMemcpyDeviceToHost);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n && ok; i++) {
        float got;
        memcpy(&got, &h[i], sizeof got);
        ok = got == 2.0f * (i % 100) + extra;
    }
    cudaFree(x);
    cudaFree(y);
    delete[] h;
    return ok;
}

int main()
{
    bool ok = eval<float>(5000, 0.0f) && eval<Tagged>(5000, 512.0f);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
