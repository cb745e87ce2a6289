// cu2hip-options: --ignore L009
#include <cuda_runtime.h>

// CRLF line endings and tab indentation are kept byte for byte.
__global__ void fill(float* a, float v) {
	a[threadIdx.x] = v;	// trailing tab comment
}

void run(float* a) {
	cudaStream_t s;
	cudaStreamCreate(&s);
	fill<<<1,	64, 0, s>>>(a, 1.0f);
	cudaStreamSynchronize(s);	
	cudaStreamDestroy(s);
}
