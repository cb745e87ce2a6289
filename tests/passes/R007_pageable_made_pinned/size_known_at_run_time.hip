// cu2hip-options: --ignore L,F
// Sizes known only at run time (a parameter, argv parsed once, a global, a value assigned
// after its declaration): the allocation decides, pinned from 256 KiB on, else as written.

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
int rows;
void from_parameter(float* d, int n) {
    float* h = nullptr;
    bool cu2hip_pinned_h = (n * sizeof(float)) >= 262144 && hipHostMalloc(&h, n * sizeof(float), hipHostMallocDefault) == hipSuccess;
    if (!cu2hip_pinned_h) h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost);
    printf("%f\n", h[0]);
    if (cu2hip_pinned_h) hipHostFree(h); else free(h);
}
void from_global(float* d) {
    double* h = nullptr;
    bool cu2hip_pinned_h = (rows * sizeof(double)) >= 262144 && hipHostMalloc(&h, rows * sizeof(double), hipHostMallocDefault) == hipSuccess;
    if (!cu2hip_pinned_h) h = new double[rows];
    for (int it = 0; it < 10; ++it) hipMemcpy(d, h, rows * sizeof(double), hipMemcpyHostToDevice);
    if (cu2hip_pinned_h) hipHostFree(h); else delete[] h;
}
int main(int argc, char** argv) {
    unsigned int nodes = atoi(argv[1]);
    if (nodes % 64 != 0) nodes = (nodes / 64 + 1) * 64;
    unsigned int* m = NULL;
    unsigned int bytes;
    bytes = nodes * nodes * sizeof(unsigned int);
    bool cu2hip_pinned_m;
    cu2hip_pinned_m = (bytes) >= 262144 && hipHostMalloc(&m, bytes, hipHostMallocDefault) == hipSuccess;
    if (!cu2hip_pinned_m) m = (unsigned int*)malloc(bytes);
    unsigned int* d;
    hipMalloc(&d, bytes);
    for (unsigned int k = 0; k < nodes; ++k) {
        hipMemcpy(d, m, bytes, hipMemcpyHostToDevice);
        hipMemcpy(m, d, bytes, hipMemcpyDeviceToHost);
    }
    hipFree(d);
    if (cu2hip_pinned_m) hipHostFree(m); else free(m);
    return 0;
}
