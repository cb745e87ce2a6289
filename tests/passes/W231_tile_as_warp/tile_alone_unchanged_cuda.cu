// cu2hip-options: --target cuda
// 32-thread tiles used as tiles (their own rank, size and shuffles): the same on every
// target. Nothing to do.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename Tile>
__device__ int tile_sum(const Tile &tile, int v) {
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  return v;
}

__global__ void k(int *out, int v) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[256 / 32];
  auto tile = cg::tiled_partition<32>(block);
  v = tile_sum(tile, v);
  if (tile.thread_rank() == 0) partial[block.thread_rank() / 32] = v;
}
