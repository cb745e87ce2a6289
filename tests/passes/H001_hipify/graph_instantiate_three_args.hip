// cu2hip-options: --rocm-version 6.2
#include <hip/hip_runtime.h>

void instantiate(hipGraph_t graph) {
  hipGraphExec_t exec;
  // CUDA 12's three-argument form takes flags: HIP names it hipGraphInstantiateWithFlags.
  hipGraphInstantiateWithFlags(&exec, graph, 0);
  // The five-argument form (error node, log buffer) keeps its name.
  hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  hipGraphLaunch(exec, 0);
  hipGraphExecDestroy(exec);
}
