// Where HIP differs from CUDA in more than the name: pinned host buffers allocated
// through typed pointers (CUDA's T** overloads of cudaHostAlloc / cudaMallocHost),
// managed memory prefetched and advised to a device (CUDA 13 takes a cudaMemLocation,
// CUDA 12 a device id), float4 operators of the program's own (helper_math style), and
// a float atomicMax written with atomicCAS, which CUDA lacks and HIP provides.
// Every result is compared with a CPU reference.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

inline __host__ __device__ float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

inline __host__ __device__ void operator+=(float4 &a, float4 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  a.w += b.w;
}

// CUDA has no atomicMax on float: the usual compare-and-swap loop.
__device__ float atomicMax(float *address, float val) {
  int *as_int = (int *)address;
  int old = *as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

// out[i] = a[i] + b[i], then out[i] += a[i]: 2a + b per component.
__global__ void vec_add(const float4 *a, const float4 *b, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 r = a[i] + b[i];
    r += a[i];
    out[i] = r;
  }
}

__global__ void max_of(const float *x, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(result, x[i]);
}

__global__ void scale(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 3 - i;
}

static float input(int i) { return (float)((i * 37) % 101) - 50.0f + 0.25f * (float)(i % 4); }

int main() {
  const int n = 1 << 12;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  int bad = 0;
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // Pinned host buffers through typed pointers.
  float4 *h_a, *h_b, *h_out;
  float *h_x;
  CHECK(cudaMallocHost(&h_a, n * sizeof(float4)));
  CHECK(cudaMallocHost(&h_b, n * sizeof(float4)));
  CHECK(cudaHostAlloc(&h_out, n * sizeof(float4), cudaHostAllocDefault));
  CHECK(cudaHostAlloc(&h_x, n * sizeof(float), cudaHostAllocPortable));
  for (int i = 0; i < n; ++i) {
    h_a[i] = make_float4(input(i), input(i + 1), input(i + 2), input(i + 3));
    h_b[i] = make_float4(0.5f * i, -0.25f * i, 1.0f, (float)(i % 7));
    h_x[i] = input(3 * i + 1);
  }

  float4 *d_a, *d_b, *d_out;
  float *d_x, *d_max;
  CHECK(cudaMalloc(&d_a, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_b, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_max, sizeof(float)));
  const float lowest = -1.0e30f;
  CHECK(cudaMemcpyAsync(d_a, h_a, n * sizeof(float4), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_b, h_b, n * sizeof(float4), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_max, &lowest, sizeof(float), cudaMemcpyHostToDevice, stream));
  vec_add<<<blocks, threads, 0, stream>>>(d_a, d_b, d_out, n);
  CHECK(cudaGetLastError());
  max_of<<<blocks, threads, 0, stream>>>(d_x, d_max, n);
  CHECK(cudaGetLastError());
  float got_max = 0.0f;
  CHECK(cudaMemcpyAsync(h_out, d_out, n * sizeof(float4), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(&got_max, d_max, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  for (int i = 0; i < n; ++i) {
    float4 want = make_float4(2 * h_a[i].x + h_b[i].x, 2 * h_a[i].y + h_b[i].y, 2 * h_a[i].z + h_b[i].z,
                              2 * h_a[i].w + h_b[i].w);
    if (std::fabs(h_out[i].x - want.x) > 1e-4f || std::fabs(h_out[i].y - want.y) > 1e-4f ||
        std::fabs(h_out[i].z - want.z) > 1e-4f || std::fabs(h_out[i].w - want.w) > 1e-4f) {
      if (bad < 5) fprintf(stderr, "vec_add[%d] differs\n", i);
      ++bad;
    }
  }
  float want_max = lowest;
  for (int i = 0; i < n; ++i) want_max = std::fmax(want_max, h_x[i]);
  if (got_max != want_max) {
    fprintf(stderr, "max %f, want %f\n", got_max, want_max);
    ++bad;
  }

  // Managed memory, prefetched to the device where the device supports it.
  int *data;
  CHECK(cudaMallocManaged(&data, n * sizeof(int)));
  for (int i = 0; i < n; ++i) data[i] = i % 50;
  int concurrent = 0;
  CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  if (concurrent) {
#if defined(CUDART_VERSION) && CUDART_VERSION < 13000
    CHECK(cudaMemAdvise(data, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device));
    CHECK(cudaMemPrefetchAsync(data, n * sizeof(int), device, stream));
#else
    cudaMemLocation gpu = {cudaMemLocationTypeDevice, device};
    CHECK(cudaMemAdvise(data, n * sizeof(int), cudaMemAdviseSetPreferredLocation, gpu));
    CHECK(cudaMemPrefetchAsync(data, n * sizeof(int), gpu, 0, stream));
#endif
  }
  scale<<<blocks, threads, 0, stream>>>(data, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i) {
    if (data[i] != (i % 50) * 3 - i) {
      if (bad < 5) fprintf(stderr, "data[%d] = %d, want %d\n", i, data[i], (i % 50) * 3 - i);
      ++bad;
    }
  }

  CHECK(cudaFree(data));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_max));
  CHECK(cudaFreeHost(h_a));
  CHECK(cudaFreeHost(h_b));
  CHECK(cudaFreeHost(h_out));
  CHECK(cudaFreeHost(h_x));
  CHECK(cudaStreamDestroy(stream));
  if (bad) {
    printf("FAIL: %d errors\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
