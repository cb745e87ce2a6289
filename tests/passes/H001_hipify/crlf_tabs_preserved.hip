// cu2hip-options: --ignore L009
#include <hip/hip_runtime.h>

// CRLF line endings and tab indentation are kept byte for byte.
__global__ void __launch_bounds__(64) fill(float* a, float v) {
	a[threadIdx.x] = v;	// trailing tab comment
}

void run(float* a) {
	hipStream_t s;
	hipStreamCreate(&s);
	fill<<<1,	64, 0, s>>>(a, 1.0f);
	hipStreamSynchronize(s);	
	hipStreamDestroy(s);
}
