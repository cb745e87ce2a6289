#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report() {
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
