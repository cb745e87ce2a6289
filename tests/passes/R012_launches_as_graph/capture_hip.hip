// cu2hip-options: --ignore L,F --rocm-version 6.0

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// Launches only, on a stream the function creates, loop-invariant arguments: one graph.
void run(int n, int steps) {
    hipStream_t s;
    CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    float* d;
    CHECK(hipMalloc(&d, n * sizeof(float)));
    const float* src = d;
    hipGraph_t cu2hip_graph = nullptr;
    hipGraphExec_t cu2hip_graph_exec = nullptr;
    bool cu2hip_graph_ok = hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal) == hipSuccess;
    if (cu2hip_graph_ok) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        twice<<<(n + 255) / 256, 256, 0,
                s>>>(d + n / 2, n / 2);
        cu2hip_graph_ok = hipStreamEndCapture(s, &cu2hip_graph) == hipSuccess && cu2hip_graph != nullptr;
        cu2hip_graph_ok = cu2hip_graph_ok && hipGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, nullptr, nullptr, 0) == hipSuccess;
    }
    for (int it = 0; it < steps; ++it) {
        if (!cu2hip_graph_ok || hipGraphLaunch(cu2hip_graph_exec, s) != hipSuccess) {
            cu2hip_graph_ok = false;
            twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
            half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
            twice<<<(n + 255) / 256, 256, 0,
                    s>>>(d + n / 2, n / 2);
        }
    }
    if (cu2hip_graph_exec != nullptr) hipGraphExecDestroy(cu2hip_graph_exec);
    if (cu2hip_graph != nullptr) hipGraphDestroy(cu2hip_graph);
    CHECK(hipStreamSynchronize(s));
    CHECK(hipFree(d));
    CHECK(hipStreamDestroy(s));
}
