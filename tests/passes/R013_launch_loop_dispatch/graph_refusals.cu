// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
float scale;

// Loops of launches only that are not captured, each for the fact it lacks.
void default_and_own_stream(float* d, int n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
}
void callers_stream(float* d, int n, cudaStream_t s) {
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
}
void two_streams(float* d, int n) {
    cudaStream_t s, t;
    cudaStreamCreate(&s);
    cudaStreamCreate(&t);
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, t>>>(d, n);
    }
}
void moving_offset(float* d, int n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 0; it < 100; ++it) {
        twice<<<1, 256, 0, s>>>(d + it * 256, 256);
        half<<<1, 256, 0, s>>>(d + it * 256, 256);
    }
}
void size_from_a_global(float* d, int n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    int blocks = (n + 255) / 256;
    for (int it = 0; it < 100; ++it) {
        twice<<<blocks, 256, 0, s>>>(d, n);
        half<<<blocks, 256, 0, s>>>(d, (int)scale);
    }
}
void already_capturing(float* d, int n, cudaGraph_t* out) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
    cudaStreamEndCapture(s, out);
}
// Every missing fact is named: on the default stream and with an argument that changes
// per iteration, a graph of the launches as captured would replay the first iteration's.
void default_stream_moving_step(float* d, int n) {
    for (int t = 0; t < n - 1; ++t) {
        twice<<<(n + 255) / 256, 256>>>(d + t, n - t);
        half<<<(n + 255) / 256, 256>>>(d + t, n - t);
    }
}
// Host work between iterations (a check, a call in the condition): not a loop of launches only.
bool more();
void host_work(float* d, int n) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        CHECK(cudaGetLastError());
    }
    while (more()) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    }
}
