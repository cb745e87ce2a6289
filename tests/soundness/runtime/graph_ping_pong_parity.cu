// soundness: must-apply
// why: iso2dfd's time loop swaps two buffers by the counter's parity (`(k % 2) ? d_prev : d_next`): each launch reads one buffer and writes the other, so the result is right only if every iteration gets the buffers of its own parity; 37 iterations from 0 (2 graphs of 16, 5 after the loop) and 21 from 3 with `(k & 1) == 0` (one graph, 5 after) are captured with each launch's parity written in
// edit: R012 "cudaGraphLaunch("
// edit: R012 "((((unsigned int)(0 + cu2hip_graph_k"
// edit: R012 "((((unsigned int)(k - 15 + cu2hip_graph_k"
// edit: R012 "(((int)(3 + cu2hip_graph_k"
// edit: R012 "(((int)(k - 15 + cu2hip_graph_k"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void step(int* out, const int* in, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = (3 * in[i] + i + 1) % 1000003; }
static void host_steps(int* a, int* b, int n, int from, int to, bool and_form)
{
    for (int k = from; k < to; ++k) {
        bool first = and_form ? (k & 1) == 0 : (k % 2) != 0;
        int* out = first ? a : b;
        int* in = first ? b : a;
        for (int i = 0; i < n; ++i) out[i] = (3 * in[i] + i + 1) % 1000003;
    }
}
int main(int argc, char** argv)
{
    const unsigned int nIterations = argc > 1 ? atoi(argv[1]) : 37;
    const int n = 1 << 12;
    const size_t bytes = n * sizeof(int);
    int *h_prev = (int*)malloc(bytes), *h_next = (int*)malloc(bytes);
    int *w_prev = (int*)malloc(bytes), *w_next = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) { h_prev[i] = w_prev[i] = i % 17; h_next[i] = w_next[i] = i % 5; }
    int *d_prev, *d_next;
    CHECK(cudaMalloc(&d_prev, bytes));
    CHECK(cudaMalloc(&d_next, bytes));
    CHECK(cudaMemcpy(d_prev, h_prev, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_next, h_next, bytes, cudaMemcpyHostToDevice));
    for (unsigned int k = 0; k < nIterations; k += 1) {
        step<<<(n + 255) / 256, 256>>>((k % 2) ? d_prev : d_next,
                                       (k % 2) ? d_next : d_prev, n);
    }
    int* d_a = d_prev;
    int* d_b = d_next;
    for (int k = 3; k < 24; ++k)
        step<<<(n + 255) / 256, 256>>>((k & 1) == 0 ? d_a : d_b, (k & 1) == 0 ? d_b : d_a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_prev, d_prev, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_next, d_next, bytes, cudaMemcpyDeviceToHost));
    host_steps(w_prev, w_next, n, 0, (int)nIterations, false);
    host_steps(w_prev, w_next, n, 3, 24, true);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += (h_prev[i] != w_prev[i]) + (h_next[i] != w_next[i]);
    CHECK(cudaFree(d_prev));
    CHECK(cudaFree(d_next));
    free(h_prev); free(h_next); free(w_prev); free(w_next);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
