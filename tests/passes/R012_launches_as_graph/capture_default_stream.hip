#include <hip/hip_runtime.h>
// cu2hip-options: --ignore L,F
// HeCBench's repeat loop: launches on the default stream only (none named, 0, a dynamic
// shared-memory size), captured on a non-blocking stream of the rewrite's own, the graph
// launched on the default stream.
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { extern __shared__ float t[]; int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { t[threadIdx.x] = x[i]; x[i] = t[threadIdx.x] * 0.5f; } }
void run(float* d, int n, int repeat) {
    hipGraph_t cu2hip_graph = nullptr;
    hipGraphExec_t cu2hip_graph_exec = nullptr;
    hipStream_t cu2hip_graph_stream = nullptr;
    bool cu2hip_graph_ok = hipStreamCreateWithFlags(&cu2hip_graph_stream, hipStreamNonBlocking) == hipSuccess &&
            hipStreamBeginCapture(cu2hip_graph_stream, hipStreamCaptureModeThreadLocal) == hipSuccess;
    if (cu2hip_graph_ok) {
        twice<<<(n + 255) / 256, 256, 0, cu2hip_graph_stream>>>(d, n);
        half<<<(n + 255) / 256, 256, 256 * sizeof(float), cu2hip_graph_stream>>>(d, n);
        twice<<<(n + 255) / 256, 256, 0, cu2hip_graph_stream>>>(d, n);
        cu2hip_graph_ok = hipStreamEndCapture(cu2hip_graph_stream, &cu2hip_graph) == hipSuccess && cu2hip_graph != nullptr;
        cu2hip_graph_ok = cu2hip_graph_ok && hipGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, nullptr, nullptr, 0) == hipSuccess;
    }
    for (int i = 0; i < repeat; i++) {
        if (!cu2hip_graph_ok || hipGraphLaunch(cu2hip_graph_exec, 0) != hipSuccess) {
            cu2hip_graph_ok = false;
            twice<<<(n + 255) / 256, 256>>>(d, n);
            half<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(d, n);
            twice<<<(n + 255) / 256, 256, 0, 0>>>(d, n);
        }
    }
    if (cu2hip_graph_exec != nullptr) hipGraphExecDestroy(cu2hip_graph_exec);
    if (cu2hip_graph != nullptr) hipGraphDestroy(cu2hip_graph);
    if (cu2hip_graph_stream != nullptr) hipStreamDestroy(cu2hip_graph_stream);
}
