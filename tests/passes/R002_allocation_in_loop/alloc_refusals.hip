// cu2hip-options: --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

void keep(float* p);
float* saved[4];
// Each refusal names its missing fact.
void refusals(float* out, int n, int iters, bool early) {
    for (int it = 0; it < 10; ++it) {        // passed to the program's own function
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        keep(d);
        CHECK(hipFree(d));
    }
    for (int it = 0; it < 4; ++it) {         // stored elsewhere
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        saved[it] = d;
        CHECK(hipFree(d));
    }
    for (int it = 0; it < 10; ++it) {        // a size that changes per iteration
        float* d;
        CHECK(hipMalloc(&d, (n + it) * sizeof(float)));
        twice<<<1, 256>>>(d, n);
        CHECK(hipFree(d));
    }
    int m = n;
    for (int it = 0; it < 10; ++it) {        // a size written in the loop
        float* d;
        CHECK(hipMalloc(&d, m * sizeof(float)));
        twice<<<1, 256>>>(d, m);
        m *= 2;
        CHECK(hipFree(d));
    }
    for (int it = 0; it < 10; ++it) {        // a break that skips the free
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        twice<<<1, 256>>>(d, n);
        if (early) break;
        CHECK(hipFree(d));
    }
    while (iters-- > 0) {                    // may run zero times
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        twice<<<1, 256>>>(d, n);
        CHECK(hipFree(d));
    }
    for (int it = 0; it < 10; ++it) {        // a conditional free
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        twice<<<1, 256>>>(d, n);
        if (it % 2) CHECK(hipFree(d));
    }
}
