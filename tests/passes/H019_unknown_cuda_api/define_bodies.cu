// cu2hip-options: --rocm-version 6.3
// `#define` bodies are code too: an unknown name is reported there, whether or not the
// body also names a known API; a macro's own parameters are not.
#define WAIT_ALL() cudaDeviceWaitAll()
#define ALLOC(ptr, n) cudaMalloc(ptr, n); cudaMemAdviseFrobnicate(ptr, n)
#define FREE(ptr) cudaFree(ptr)
#define SCALE(cudaFactor, x) ((cudaFactor) * (x))
#define LIMIT CU_FROBNICATE_LIMIT
