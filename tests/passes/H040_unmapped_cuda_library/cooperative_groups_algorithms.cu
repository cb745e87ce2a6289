// cu2hip-options: --rocm-version 5.2
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

// What HIP's cooperative groups have is translated and not reported; the algorithms
// and a tile's meta-group queries, which HIP 5.2 lacks, are.
__global__ void sum(const float *x, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = cg::reduce(tile, x[block.thread_rank()], cg::plus<float>());
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = v;
  // cg::reduce in a comment, "cg::reduce" in a string: neither is code.
  const char *s = "cg::reduce";
  (void)s;
}
