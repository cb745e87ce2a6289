// The repeat count and the size come from argv, parsed once into locals the loops never
// write: each loop may run zero times, so each pair moves under its first iteration's
// condition (a size_t counter's first value converted as the loop converts it).

#include <hip/hip_runtime.h>
#include <cstdlib>
#define CHECK(x) do { if ((x) != hipSuccess) exit(1); } while (0)
__global__ void __launch_bounds__(256) twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
int main(int argc, char** argv) {
    const int repeat = atoi(argv[1]);
    int n = (int)strtol(argv[2], nullptr, 10);
    size_t bytes = n * sizeof(float);
    float* d;
    if (0 < repeat) { CHECK(hipMalloc(&d, bytes)); }
    int cu2hip_graph_pending = 0;
    hipGraph_t cu2hip_graph = nullptr;
    hipGraphExec_t cu2hip_graph_exec = nullptr;
    hipStream_t cu2hip_graph_stream = nullptr;
    bool cu2hip_graph_ok = hipStreamCreateWithFlags(&cu2hip_graph_stream, hipStreamNonBlocking) == hipSuccess &&
            hipStreamBeginCapture(cu2hip_graph_stream, hipStreamCaptureModeThreadLocal) == hipSuccess;
    if (cu2hip_graph_ok) {
        for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {
            twice<<<(n + 255) / 256, 256, 0, cu2hip_graph_stream>>>(d, n);
        }
        cu2hip_graph_ok = hipStreamEndCapture(cu2hip_graph_stream, &cu2hip_graph) == hipSuccess && cu2hip_graph != nullptr;
        cu2hip_graph_ok = cu2hip_graph_ok && hipGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, nullptr, nullptr, 0) == hipSuccess;
    }
    for (int i = 0; i < repeat; i++) {
        if (!cu2hip_graph_ok) {
            twice<<<(n + 255) / 256, 256>>>(d, n);
        } else if (++cu2hip_graph_pending == 16) {
            cu2hip_graph_pending = 0;
            if (hipGraphLaunch(cu2hip_graph_exec, 0) != hipSuccess) {
                cu2hip_graph_ok = false;
                for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {
                    twice<<<(n + 255) / 256, 256>>>(d, n);
                }
            }
        }
    }
    for (int cu2hip_graph_k = 0; cu2hip_graph_k < cu2hip_graph_pending; ++cu2hip_graph_k) {
        twice<<<(n + 255) / 256, 256>>>(d, n);
    }
    if (cu2hip_graph_exec != nullptr) hipGraphExecDestroy(cu2hip_graph_exec);
    if (cu2hip_graph != nullptr) hipGraphDestroy(cu2hip_graph);
    if (cu2hip_graph_stream != nullptr) hipStreamDestroy(cu2hip_graph_stream);
    if (0 < repeat) { CHECK(hipFree(d)); }
    hipStream_t s;
    if ((size_t)1 <= (repeat / 2)) hipStreamCreate(&s);
    float* p;
    if ((size_t)1 <= (repeat / 2)) hipHostMalloc(&p, bytes, hipHostMallocDefault);
    for (size_t r = 1; r <= repeat / 2; ++r) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        hipStreamSynchronize(s);
    }
    if ((size_t)1 <= (repeat / 2)) hipStreamDestroy(s);
    if ((size_t)1 <= (repeat / 2)) hipHostFree(p);
    return 0;
}
