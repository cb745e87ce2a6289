// cuBLAS's legacy API (cublas.h: no handle, scalars by value, results returned,
// errors through cublasGetError): y = a*x + y after x = s*x, then dot(x, y) and the
// index of the largest |y|, checked against a host computation. The inputs are small
// integers, so every result is exact in single precision.
#include <cublas.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUBLAS_CHECK(what)                                                          \
    do {                                                                            \
        cublasStatus s_ = cublasGetError();                                         \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__,    \
                    what, (int)s_);                                                 \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define STATUS_CHECK(call)                                                          \
    do {                                                                            \
        cublasStatus s_ = (call);                                                   \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__,    \
                    #call, (int)s_);                                                \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

int main()
{
    const int n = 1000;
    const float s = 3.0f, a = -2.0f;
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 7 - 3);       // -3..3
        y[i] = static_cast<float>((i * 5) % 11 - 5);  // -5..5
    }

    // Host reference.
    std::vector<float> rx(n), ry(n);
    double rdot = 0.0;
    int rmax = 0;
    for (int i = 0; i < n; ++i) {
        rx[i] = s * x[i];
        ry[i] = a * rx[i] + y[i];
        rdot += (double)rx[i] * ry[i];
        if (std::fabs(ry[i]) > std::fabs(ry[rmax])) rmax = i;   // the first largest, as BLAS's amax
    }

    STATUS_CHECK(cublasInit());
    float *dx = nullptr, *dy = nullptr;
    STATUS_CHECK(cublasAlloc(n, sizeof(float), (void **)&dx));
    STATUS_CHECK(cublasAlloc(n, sizeof(float), (void **)&dy));
    STATUS_CHECK(cublasSetVector(n, sizeof(float), x.data(), 1, dx, 1));
    STATUS_CHECK(cublasSetVector(n, sizeof(float), y.data(), 1, dy, 1));

    cublasSscal(n, s, dx, 1);
    CUBLAS_CHECK("cublasSscal");
    cublasSaxpy(n, a, dx, 1, dy, 1);
    CUBLAS_CHECK("cublasSaxpy");
    float dot = cublasSdot(n, dx, 1, dy, 1);
    CUBLAS_CHECK("cublasSdot");
    int imax = cublasIsamax(n, dy, 1) - 1;   // BLAS counts from 1
    CUBLAS_CHECK("cublasIsamax");

    STATUS_CHECK(cublasGetVector(n, sizeof(float), dy, 1, out.data(), 1));
    STATUS_CHECK(cublasFree(dx));
    STATUS_CHECK(cublasFree(dy));
    STATUS_CHECK(cublasShutdown());

    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (out[i] != ry[i]) {
            if (bad < 5) fprintf(stderr, "y[%d] = %g, expected %g\n", i, out[i], ry[i]);
            ++bad;
        }
    if (dot != (float)rdot) {
        fprintf(stderr, "dot = %g, expected %g\n", dot, rdot);
        ++bad;
    }
    if (imax != rmax) {
        fprintf(stderr, "isamax = %d, expected %d\n", imax, rmax);
        ++bad;
    }
    printf("%s: cublas legacy scal/axpy/dot/amax over %d elements (dot %g)\n", bad ? "FAIL" : "PASS", n,
           (double)dot);
    return bad ? 1 : 0;
}
