#include "scale.cuh"

bool more(float *d, float *h) { return twice<1024>(d, h, 77777); }
