// Pattern 4: a loop of short launches and nothing else, on a stream the function creates
// (R012 captures the sequence once as a graph and launches the graph per iteration).
// The kernel stages through shared memory, so that the fusion pass leaves the four
// launches apart: what is measured is the dispatch of four launches against one graph.
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
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t cu2hip_graph = nullptr;
  cudaGraphExec_t cu2hip_graph_exec = nullptr;
  bool cu2hip_graph_ok = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
  if (cu2hip_graph_ok) {
    add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
    add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
    add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
    add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
    cu2hip_graph_ok = cudaStreamEndCapture(s, &cu2hip_graph) == cudaSuccess && cu2hip_graph != nullptr;
    cu2hip_graph_ok = cu2hip_graph_ok && cudaGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, 0) == cudaSuccess;
  }
  for (int it = 0; it < ITERS; ++it) {
    if (!cu2hip_graph_ok || cudaGraphLaunch(cu2hip_graph_exec, s) != cudaSuccess) {
      cu2hip_graph_ok = false;
      add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
      add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
      add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
      add_staged<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 0.25f, n);
    }
  }
  if (cu2hip_graph_exec != nullptr) cudaGraphExecDestroy(cu2hip_graph_exec);
  if (cu2hip_graph != nullptr) cudaGraphDestroy(cu2hip_graph);
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamDestroy(s));
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
