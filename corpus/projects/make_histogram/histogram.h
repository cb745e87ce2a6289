// The library's interface (histogram.cu, binning.cu).
#pragma once

constexpr int kBins = 64;

// The bin of a value in [0, 1): a device function of binning.cu, called across
// translation units (relocatable device code).
__device__ int bin_of(float value);

// counts[b] = the number of x[i] in bin b, for i < n (counts: kBins device ints).
void histogram(const float *x, int n, int *counts);
