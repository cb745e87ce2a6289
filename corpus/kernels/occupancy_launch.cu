// Launch configuration chosen at run time: cudaFuncGetAttributes reports the
// kernel's limits, cudaOccupancyMaxPotentialBlockSize proposes a block size and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor sizes a persistent grid. The
// kernel is a grid-stride sum of squares with a 32-wide warp shuffle reduction;
// a second launch with a fixed configuration must agree.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
	do {                                                                            \
		cudaError_t e_ = (call);                                                    \
		if (e_ != cudaSuccess) {                                                    \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
			exit(1);                                                                \
		}                                                                           \
	} while (0)

#define MAX_THREADS 512
#define MAX_WARPS (MAX_THREADS / 32)

__global__ void __launch_bounds__(MAX_THREADS) sum_squares(const float* x, int n, float* partial)
{
	extern __shared__ float warp_sums[];
	unsigned mask = 0xffffffff;
	float v = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
#ifdef USE_FAST_PATH
		v = __fmaf_rn(x[i], x[i], v);
#else
		v += x[i] * x[i];
#endif
	}
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_down_sync(mask, v, offset);

	int lane = threadIdx.x % 32;
	int warp = threadIdx.x / 32;
	if (lane == 0) warp_sums[warp] = v;
	__syncthreads();

	if (warp == 0) {
		int nwarps = blockDim.x / 32;
		v = lane < nwarps ? warp_sums[lane] : 0.0f;
		for (int offset = 16; offset > 0; offset >>= 1)
			v += __shfl_down_sync(mask, v, offset);
		if (lane == 0) partial[blockIdx.x] = v;
	}
}

struct LaunchConfig {
	int grid;
	int block;
	size_t smem;
};

static LaunchConfig choose_config(int device)
{
	cudaFuncAttributes attr;
	CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(sum_squares)));
	printf("sum_squares: %d registers, max %d threads per block, %zu bytes static smem\n",
	       attr.numRegs, attr.maxThreadsPerBlock, attr.sharedSizeBytes);

	const size_t smem = MAX_WARPS * sizeof(float);
	int min_grid = 0, block = 0;
	CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, sum_squares, smem, MAX_THREADS));
	if (block > attr.maxThreadsPerBlock) block = attr.maxThreadsPerBlock;
	block = (block / 32) * 32;  // whole warps only

	int per_sm = 0;
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_squares, block, smem));
	int sms = 0;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
	LaunchConfig cfg{per_sm * sms, block, smem};
	printf("block %d, %d blocks/SM x %d SMs -> grid %d\n", block, per_sm, sms, cfg.grid);
	return cfg;
}

static double run(const float* d_x, int n, const LaunchConfig& cfg, cudaStream_t stream)
{
	float* d_partial = nullptr;
	CHECK(cudaMalloc(&d_partial, cfg.grid * sizeof(float)));
	sum_squares<<<dim3(cfg.grid), dim3(cfg.block), cfg.smem, stream>>>(d_x, n, d_partial);
	CHECK(cudaGetLastError());
	std::vector<float> partial(cfg.grid);
	CHECK(cudaMemcpyAsync(partial.data(), d_partial, cfg.grid * sizeof(float),
	                      cudaMemcpyDeviceToHost, stream));
	CHECK(cudaStreamSynchronize(stream));
	CHECK(cudaFree(d_partial));
	double total = 0.0;
	for (float p : partial) total += p;
	return total;
}

int main()
{
	int device = 0;
	CHECK(cudaSetDevice(device));
	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, device));
	printf("%s: warp size %d, %d SMs\n", prop.name, prop.warpSize, prop.multiProcessorCount);

	const int n = 1 << 20;
	std::vector<float> hx(n);
	double want = 0.0;
	for (int i = 0; i < n; ++i) {
		hx[i] = 0.25f * static_cast<float>(i % 17) - 2.0f;
		want += (double)hx[i] * hx[i];
	}
	float* d_x = nullptr;
	CHECK(cudaMalloc(&d_x, n * sizeof(float)));
	CHECK(cudaMemcpy(d_x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	cudaStream_t stream;
	CHECK(cudaStreamCreate(&stream));

	LaunchConfig tuned = choose_config(device);
	LaunchConfig fixed{120, 256, MAX_WARPS * sizeof(float)};
	double got_tuned = run(d_x, n, tuned, stream);
	double got_fixed = run(d_x, n, fixed, stream);

	CHECK(cudaStreamDestroy(stream));
	CHECK(cudaFree(d_x));

	int bad = 0;
	if (tuned.grid <= 0 || tuned.block <= 0 || tuned.block > MAX_THREADS) {
		fprintf(stderr, "bad launch configuration %d x %d\n", tuned.grid, tuned.block);
		++bad;
	}
	if (std::fabs(got_tuned - want) > 1e-5 * want) {
		fprintf(stderr, "tuned launch: %f, want %f\n", got_tuned, want);
		++bad;
	}
	if (std::fabs(got_fixed - want) > 1e-5 * want) {
		fprintf(stderr, "fixed launch: %f, want %f\n", got_fixed, want);
		++bad;
	}
	if (bad) {
		printf("FAIL\n");
		return 1;
	}
	printf("PASS\n");
	return 0;
}
