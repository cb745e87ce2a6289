#include<curand_kernel.h>
_(){}\
#include<curand_kernel.h>
