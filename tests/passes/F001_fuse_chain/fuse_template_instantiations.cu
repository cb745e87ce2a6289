// cu2hip-options: --ignore L
// Template kernels launched with arithmetic types fuse: each stage of the fused kernel has its
// launch's types written out (T(2), static_cast<T>), float and double stages side by side.
template <typename T>
__global__ void scale(const T *x, T *y, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + T(2);
}
template <typename T>
__global__ void shift(const T *y, T *z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = static_cast<T>(y[i]) - T(1);
}
void run(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z,
         const double *__restrict__ u, double *__restrict__ v, double *__restrict__ w, int n) {
    scale<float><<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);
    shift<float><<<(n + 255) / 256, 256>>>(y, z, n);
    scale<double><<<(n + 255) / 256, 256>>>(u, v, 0.5, n);
    shift<double><<<(n + 255) / 256, 256>>>(v, w, n);
}
