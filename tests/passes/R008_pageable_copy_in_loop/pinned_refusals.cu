// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void keep(float* p);
float* saved;

// Each buffer is copied in a loop, and each is refused for the reason its function names.
void aliased(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    float* end = h + n;
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
}
void stored(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    saved = h;
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
void passed(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    keep(h);
}
float* returned(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    return h;
}
void freed_conditionally(float* d, int n, bool done) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    if (done) free(h);
}
void early_return(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) {
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        if (h[0] < 0) return;
    }
    free(h);
}
void reallocated(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    h = (float*)realloc(h, 2 * n * sizeof(float));
    free(h);
}
void to_a_kernel(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<1, 1>>>(h, 1);
    free(h);
}
void zeroed(float* d, int n) {
    float* h = new float[n]();
    for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    delete[] h;
}
void in_a_lambda(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    auto fill = [&](float v) { for (int i = 0; i < n; ++i) h[i] = v; };
    for (int it = 0; it < 10; ++it) { fill(it); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }
    free(h);
}
void per_iteration(float* d, int n) {
    for (int j = 0; j < 3; ++j) {
        float* h = (float*)malloc(n * sizeof(float));
        for (int it = 0; it < 10; ++it) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        free(h);
    }
}
float* made_here(float* d, int n) {     // freed by the caller, with free(): pinned memory would meet free()
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    float* out = h;
    return out;
}
void not_freed(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}
void jumps(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) {
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        if (h[0] < 0) goto out;
    }
    free(h);
out:
    printf("done\n");
}
// Not copied in a loop: nothing to say.
void once(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
}
void reset_before_free(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaDeviceReset();
    printf("%f\n", h[0]);
    free(h);
}
// A reset through a function of the file, or through a macro, is a reset too.
void tear_down() { cudaDeviceReset(); }
#define SHUTDOWN tear_down()
void reset_through_call(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    tear_down();
    free(h);
}
void reset_through_macro(float* d, int n) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    SHUTDOWN;
    free(h);
}
// Every use keeps nothing, but the size is not known and has a call: tested at run time, it
// would be evaluated twice (the test, then the allocation), and the call may give another size.
int next_size();
void size_unknown(float* d) {
    float* h = (float*)malloc(next_size() * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, 1024 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", h[0]);
    free(h);
}
// 4 KiB: the pinned allocation costs more than the copies save: no rewrite, and nothing to report.
void small_buffer(float* d) {
    const int n = 1024;
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", h[0]);
    free(h);
}
