#include "histogram.h"

__device__ int bin_of(float value) {
  int b = static_cast<int>(value * kBins);
  return b < 0 ? 0 : (b >= kBins ? kBins - 1 : b);
}
