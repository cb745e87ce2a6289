// cu2hip-options: --rocm-version 5.2
#include <cuda_runtime.h>
#include <nccl.h>

// RCCL keeps NCCL's names: only the header changes.
void all_reduce(float *buf, size_t n, ncclComm_t comm, cudaStream_t s) {
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
}
