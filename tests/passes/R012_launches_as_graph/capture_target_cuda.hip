// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// Launches only, on a stream the function creates, loop-invariant arguments: one graph.
void run(int n, int steps) {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    const float* src = d;
    cudaGraph_t cu2hip_graph = nullptr;
    cudaGraphExec_t cu2hip_graph_exec = nullptr;
    bool cu2hip_graph_ok = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
    if (cu2hip_graph_ok) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        twice<<<(n + 255) / 256, 256, 0,
                s>>>(d + n / 2, n / 2);
        cu2hip_graph_ok = cudaStreamEndCapture(s, &cu2hip_graph) == cudaSuccess && cu2hip_graph != nullptr;
        cu2hip_graph_ok = cu2hip_graph_ok && cudaGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, 0) == cudaSuccess;
    }
    for (int it = 0; it < steps; ++it) {
        if (!cu2hip_graph_ok || cudaGraphLaunch(cu2hip_graph_exec, s) != cudaSuccess) {
            cu2hip_graph_ok = false;
            twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
            half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
            twice<<<(n + 255) / 256, 256, 0,
                    s>>>(d + n / 2, n / 2);
        }
    }
    if (cu2hip_graph_exec != nullptr) cudaGraphExecDestroy(cu2hip_graph_exec);
    if (cu2hip_graph != nullptr) cudaGraphDestroy(cu2hip_graph);
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
}
