// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <cub/cub.cuh>

// cubFunctionTemplateDecl: a template parameter of a cub type; cubNamespacePrefix: a
// typedef of one; the kernel name of a template launch: all become hipcub's.
template <cub::BlockReduceAlgorithm kAlgorithm, int kThreads>
__global__ void block_sum(const int* in, int* out) {
  typedef cub::BlockReduce<int, kThreads, kAlgorithm> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  int sum = Reduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = sum;
}

template <typename Pair>
__global__ void set_keys(Pair* pairs) { pairs[threadIdx.x].key = threadIdx.x; }

template <cub::BlockScanAlgorithm kScan = cub::BLOCK_SCAN_RAKING>
void host_side(int n) {}

void run(const int* in, int* out, cub::KeyValuePair<int, float>* pairs) {
  block_sum<cub::BLOCK_REDUCE_WARP_REDUCTIONS, 128><<<1, 128>>>(in, out);
  set_keys<cub::KeyValuePair<int, float>><<<1, 32>>>(pairs);
  host_side<cub::BLOCK_SCAN_WARP_SCANS>(4);
}
