// cu2hip-options: --only hipify
// Code before the runtime include: CMake's HIP language pre-includes no runtime header,
// nvcc did, so the HIP include goes before the first line of code, after this comment.
#include <hip/hip_runtime.h>
static int* table = NULL;
typedef dim3 Grid;
#include <hip/hip_runtime.h>
__global__ void k(int* p) { p[threadIdx.x] = 1; }
void f(int* p) { Grid g(1); k<<<g, 64>>>(table ? table : p); hipDeviceSynchronize(); }
