// cu2hip-options: --rocm-version 6.2
#include <cuda_runtime.h>

void instantiate(cudaGraph_t graph) {
  cudaGraphExec_t exec;
  // CUDA 12's three-argument form takes flags: HIP names it hipGraphInstantiateWithFlags.
  cudaGraphInstantiate(&exec, graph, 0);
  // The five-argument form (error node, log buffer) keeps its name.
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  cudaGraphLaunch(exec, 0);
  cudaGraphExecDestroy(exec);
}
