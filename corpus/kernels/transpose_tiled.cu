// Matrix transpose through a statically sized shared-memory tile (padded by
// one column against bank conflicts), checked against a naive transpose and
// against the host. The matrix is not a multiple of the tile size.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define TILE_DIM 32
#define BLOCK_ROWS 8

// in: rows x cols, out: cols x rows, both row-major
__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];

	int col = blockIdx.x * TILE_DIM + threadIdx.x;
	int row0 = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
		int row = row0 + j;
		if (row < rows && col < cols)
			tile[threadIdx.y + j][threadIdx.x] = in[(size_t)row * cols + col];
	}

	__syncthreads();

	// Swap the block's roles: threadIdx.x now walks the input rows.
	int out_col = blockIdx.y * TILE_DIM + threadIdx.x;
	int out_row0 = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
		int out_row = out_row0 + j;
		if (out_row < cols && out_col < rows)
			out[(size_t)out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
	}
}

__global__ void transpose_naive(const float* in, float* out, int rows, int cols)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row < rows && col < cols)
		out[(size_t)col * rows + row] = in[(size_t)row * cols + col];
}

static int compare(const std::vector<float>& got, const std::vector<float>& in, int rows, int cols, const char* name)
{
	int bad = 0;
	for (int r = 0; r < rows; ++r) {
		for (int c = 0; c < cols; ++c) {
			float want = in[(size_t)r * cols + c];
			float have = got[(size_t)c * rows + r];
			if (have != want) {	// a copy: must be bit-exact
				if (bad < 5)
					fprintf(stderr, "%s: out[%d][%d] = %g, want %g\n", name, c, r, have, want);
				++bad;
			}
		}
	}
	return bad;
}

int main()
{
	const int rows = 1000, cols = 700;
	const size_t count = (size_t)rows * cols;
	std::vector<float> h_in(count), h_out(count);
	for (size_t i = 0; i < count; ++i)
		h_in[i] = (float)(i % 9973) * 0.5f - 100.0f;

	float *d_in, *d_out;
	CHECK(cudaMalloc(&d_in, count * sizeof(float)));
	CHECK(cudaMalloc(&d_out, count * sizeof(float)));
	CHECK(cudaMemcpy(d_in, h_in.data(), count * sizeof(float), cudaMemcpyHostToDevice));

	int bad = 0;

	dim3 block(TILE_DIM, BLOCK_ROWS);
	dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
	CHECK(cudaMemset(d_out, 0, count * sizeof(float)));
	transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h_out.data(), d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
	bad += compare(h_out, h_in, rows, cols, "tiled");

	dim3 nblock(16, 16);
	dim3 ngrid((cols + nblock.x - 1) / nblock.x, (rows + nblock.y - 1) / nblock.y);
	CHECK(cudaMemset(d_out, 0, count * sizeof(float)));
	transpose_naive<<<ngrid, nblock>>>(d_in, d_out, rows, cols);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h_out.data(), d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
	bad += compare(h_out, h_in, rows, cols, "naive");

	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_out));
	if (bad) {
		printf("FAIL: %d mismatches\n", bad);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
