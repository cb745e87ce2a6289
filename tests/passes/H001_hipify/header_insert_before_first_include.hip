
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report() {
  printf("%s\n", hipGetErrorString(hipGetLastError()));
}
