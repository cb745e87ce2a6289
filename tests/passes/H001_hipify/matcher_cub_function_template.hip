// cu2hip-options: --hip-kernel-execution-syntax --only hipify

#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>

// cubFunctionTemplateDecl: a template parameter of a cub type; cubNamespacePrefix: a
// typedef of one; the kernel name of a template launch: all become hipcub's.
template <hipcub::BlockReduceAlgorithm kAlgorithm, int kThreads>
__global__ void block_sum(const int* in, int* out) {
  typedef hipcub::BlockReduce<int, kThreads, kAlgorithm> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  int sum = Reduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = sum;
}

template <typename Pair>
__global__ void set_keys(Pair* pairs) { pairs[threadIdx.x].key = threadIdx.x; }

template <hipcub::BlockScanAlgorithm kScan = hipcub::BLOCK_SCAN_RAKING>
void host_side(int n) {}

void run(const int* in, int* out, hipcub::KeyValuePair<int, float>* pairs) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(block_sum<hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, 128>), dim3(1), dim3(128), 0, 0, in, out);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(set_keys<hipcub::KeyValuePair<int, float>>), dim3(1), dim3(32), 0, 0, pairs);
  host_side<hipcub::BLOCK_SCAN_WARP_SCANS>(4);
}
