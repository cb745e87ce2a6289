// Pattern 4b: a loop of one short launch on the default stream and nothing else, the
// repeat loop of most benchmark programs (`for (i < repeat) k<<<g, b>>>(...)`). R012
// captures 16 launches in a row as one graph on a stream of its own and launches the
// graph on the default stream every 16th iteration. What is measured: the dispatch of 16
// launches against one graph of 16, plus the capture and instantiation, once.
#define ITERS 1000   // fixed: a count the compile line could change would leave the loop unproven
#include "common.cuh"

__global__ void __launch_bounds__(256) add_staged(float* acc, const float* in, float a, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) acc[i] += a * t[threadIdx.x];
}

static void run_pattern(float* acc, const float* in, int n) {
  int cu2hip_graph_pending = 0;
  cudaGraph_t cu2hip_graph = nullptr;
  cudaGraphExec_t cu2hip_graph_exec = nullptr;
  cudaStream_t cu2hip_graph_stream = nullptr;
  bool cu2hip_graph_ok = cudaStreamCreateWithFlags(&cu2hip_graph_stream, cudaStreamNonBlocking) == cudaSuccess &&
      cudaStreamBeginCapture(cu2hip_graph_stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
  if (cu2hip_graph_ok) {
    for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {
      add_staged<<<(n + 255) / 256, 256, 0, cu2hip_graph_stream>>>(acc, in, 0.25f, n);
    }
    cu2hip_graph_ok = cudaStreamEndCapture(cu2hip_graph_stream, &cu2hip_graph) == cudaSuccess && cu2hip_graph != nullptr;
    cu2hip_graph_ok = cu2hip_graph_ok && cudaGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, 0) == cudaSuccess;
  }
  for (int it = 0; it < ITERS; ++it) {
    if (!cu2hip_graph_ok) {
      add_staged<<<(n + 255) / 256, 256>>>(acc, in, 0.25f, n);
    } else if (++cu2hip_graph_pending == 16) {
      cu2hip_graph_pending = 0;
      if (cudaGraphLaunch(cu2hip_graph_exec, 0) != cudaSuccess) {
        cu2hip_graph_ok = false;
        for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {
          add_staged<<<(n + 255) / 256, 256>>>(acc, in, 0.25f, n);
        }
      }
    }
  }
  for (int cu2hip_graph_k = 0; cu2hip_graph_k < cu2hip_graph_pending; ++cu2hip_graph_k) {
    add_staged<<<(n + 255) / 256, 256>>>(acc, in, 0.25f, n);
  }
  if (cu2hip_graph_exec != nullptr) cudaGraphExecDestroy(cu2hip_graph_exec);
  if (cu2hip_graph != nullptr) cudaGraphDestroy(cu2hip_graph);
  if (cu2hip_graph_stream != nullptr) cudaStreamDestroy(cu2hip_graph_stream);
  CHECK(cudaDeviceSynchronize());
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
