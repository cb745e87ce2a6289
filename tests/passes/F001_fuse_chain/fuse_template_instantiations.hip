#include <hip/hip_runtime.h>
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

// cu2hip: fused_scale_shift does the work of scale, shift, scale, shift, launched one after another in run
__global__ void fused_scale_shift(const float *x, float *y, float a, int n, float *z, const double *x_, double *y_, double a_, double *z_)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x_v = x[i];
        float y_v;
        float z_v;
        double x__v = x_[i];
        double y__v;
        double z__v;
        {   // scale
            y_v = a * x_v + float(2);
        }
        {   // shift
            z_v = static_cast<float>(y_v) - float(1);
        }
        {   // scale
            y__v = a_ * x__v + double(2);
        }
        {   // shift
            z__v = static_cast<double>(y__v) - double(1);
        }
        y[i] = y_v;
        z[i] = z_v;
        y_[i] = y__v;
        z_[i] = z__v;
    }
}
void run(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z,
         const double *__restrict__ u, double *__restrict__ v, double *__restrict__ w, int n) {
    fused_scale_shift<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n, z, u, v, 0.5, w);
}
