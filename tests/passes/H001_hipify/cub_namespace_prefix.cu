#include <cub/cub.cuh>

namespace cb = cub;
using cub::BlockReduce;

template <int kThreads>
__global__ void block_sum(const int* in, int* out) {
  typedef cub::BlockReduce<int, kThreads> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  int sum = Reduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = CUB_MAX(sum, 0);
}

void device_sum(const int* d_in, int* d_out, int n) {
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, d_in, d_out, n);
  ::cub::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, n);
}
