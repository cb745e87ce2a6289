// The repeat count and the size come from argv, parsed once into locals the loops never
// write: each loop may run zero times, so each pair moves under its first iteration's
// condition (a size_t counter's first value converted as the loop converts it).
#include <cstdlib>
#define CHECK(x) do { if ((x) != cudaSuccess) exit(1); } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
int main(int argc, char** argv) {
    const int repeat = atoi(argv[1]);
    int n = (int)strtol(argv[2], nullptr, 10);
    size_t bytes = n * sizeof(float);
    for (int i = 0; i < repeat; i++) {
        float* d;
        CHECK(cudaMalloc(&d, bytes));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(cudaFree(d));
    }
    for (size_t r = 1; r <= repeat / 2; ++r) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        float* p;
        cudaMallocHost(&p, bytes);
        twice<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaStreamSynchronize(s);
        cudaFreeHost(p);
        cudaStreamDestroy(s);
    }
    return 0;
}
