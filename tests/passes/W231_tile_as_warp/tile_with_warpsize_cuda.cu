// cu2hip-options: --target cuda
// A 32-thread tile indexed as if it were a hardware warp (threadIdx.x / warpSize): on
// CDNA a wavefront holds two tiles. Reported; the tile's own operations are fine.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *out, int v) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) out[threadIdx.x / warpSize] = v;
}
