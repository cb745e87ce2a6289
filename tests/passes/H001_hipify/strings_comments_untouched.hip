#include <hip/hip_runtime.h>
#include <cstdio>

// cudaMalloc in a line comment stays cudaMalloc.
/* cudaFree(p); cudaStream_t s; cublasSgemm(...) in a block comment stay too. */
int main() {
  float* p = nullptr;
  const char* msg = "cudaMalloc failed: cudaErrorMemoryAllocation";
  const char* raw = R"(cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice))";
  char wide[] = "__shfl_down_sync(0xffffffff, v, 16)";
  if (hipMalloc(&p, 16) != hipSuccess) {  // cudaMalloc again, in a trailing comment
    fprintf(stderr, "%s (cudaGetErrorString)\n", msg);
    return 1;
  }
  hipFree(p);  /* cudaFree */
  return raw[0] + wide[0] == 0;
}
