// cu2hip-options: --rocm-version 5.2
#include <hip/hip_runtime.h>
#include <rccl/rccl.h>

// RCCL keeps NCCL's names: only the header changes.
void all_reduce(float *buf, size_t n, ncclComm_t comm, hipStream_t s) {
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
}
