#include "launch.cuh"

bool wide(int *d, int *h) { return launch<1024>(d, h, 2); }
