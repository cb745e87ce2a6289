#include <stdio.h>

void report() {
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
