// cu2hip-options: --ignore L,F
// Sizes known only at run time (a parameter, argv parsed once, a global, a value assigned
// after its declaration): the allocation decides, pinned from 256 KiB on, else as written.
#include <cstdio>
#include <cstdlib>
int rows;
void from_parameter(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", h[0]);
    free(h);
}
void from_global(float* d) {
    double* h = new double[rows];
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, rows * sizeof(double), cudaMemcpyHostToDevice);
    delete[] h;
}
int main(int argc, char** argv) {
    unsigned int nodes = atoi(argv[1]);
    if (nodes % 64 != 0) nodes = (nodes / 64 + 1) * 64;
    unsigned int* m = NULL;
    unsigned int bytes;
    bytes = nodes * nodes * sizeof(unsigned int);
    m = (unsigned int*)malloc(bytes);
    unsigned int* d;
    cudaMalloc(&d, bytes);
    for (unsigned int k = 0; k < nodes; ++k) {
        cudaMemcpy(d, m, bytes, cudaMemcpyHostToDevice);
        cudaMemcpy(m, d, bytes, cudaMemcpyDeviceToHost);
    }
    cudaFree(d);
    free(m);
    return 0;
}
