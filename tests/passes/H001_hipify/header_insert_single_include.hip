
#include <hip/hip_runtime.h>
#include <stdio.h>

void report() {
  printf("%s\n", hipGetErrorString(hipGetLastError()));
}
