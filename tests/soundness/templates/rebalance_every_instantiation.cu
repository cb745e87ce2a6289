// soundness: must-apply
// why: vol2col's shape: a grid-stride kernel launched as twice<T, T> in eval<T>, which is called with float and double only: each instantiation is arithmetic and moves the same way
// options: --target cuda
// edit: L007 "256"
#include <cstdio>

template <typename T, typename A>
__global__ void twice(const T *x, T *y, unsigned long n)
{
    for (unsigned long i = blockDim.x * blockIdx.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        A v = static_cast<A>(x[i]) * 2;
        y[i] = static_cast<T>(v);
    }
}

template <typename T>
bool eval(unsigned long n)
{
    T *h = new T[n];
    for (unsigned long i = 0; i < n; i++) h[i] = (T)(i % 1000);
    T *x, *y;
    cudaMalloc(&x, n * sizeof(T));
    cudaMalloc(&y, n * sizeof(T));
    cudaMemcpy(x, h, n * sizeof(T), cudaMemcpyHostToDevice);
    twice<T, T><<<40, 512>>>(x, y, n);
    cudaMemcpy(h, y, n * sizeof(T), cudaMemcpyDeviceToHost);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (unsigned long i = 0; i < n && ok; i++) ok = h[i] == (T)(2 * (i % 1000));
    cudaFree(x);
    cudaFree(y);
    delete[] h;
    return ok;
}

int main()
{
    bool ok = eval<float>(100000) && eval<double>(77777);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
