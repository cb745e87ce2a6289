// soundness: must-apply
// why: floydwarshall's shape: the node count is parsed once from argv and rounded up, the byte count assigned once after its declaration, the buffer declared NULL and allocated by its one assignment; its size is known only at run time, so the allocation decides (pinned from 256 KiB on, else malloc as written) and the free matches: every copy reads and writes the same bytes either way
// edit: R007 ">= 262144 && cudaMallocHost(&dist, bytes) == cudaSuccess;"
// edit: R007 "cudaFreeHost(dist); else free(dist);"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void relax(unsigned int* dist, unsigned int nodes, unsigned int k)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= nodes) return;
    unsigned int through = dist[y * nodes + k] + dist[k * nodes + x];
    if (through < dist[y * nodes + x]) dist[y * nodes + x] = through;
}
int main(int argc, char** argv)
{
    unsigned int nodes = argc > 1 ? atoi(argv[1]) : 300;
    if (nodes % 64 != 0) nodes = (nodes / 64 + 1) * 64;
    unsigned int* dist = NULL;
    unsigned int bytes;
    bytes = nodes * nodes * sizeof(unsigned int);
    dist = (unsigned int*)malloc(bytes);
    unsigned int* want = (unsigned int*)malloc(bytes);
    for (unsigned int i = 0; i < nodes * nodes; ++i) dist[i] = want[i] = (i * 7919u) % 1000u + 1u;
    for (unsigned int i = 0; i < nodes; ++i) dist[i * nodes + i] = want[i * nodes + i] = 0;
    unsigned int* d;
    CHECK(cudaMalloc(&d, bytes));
    for (unsigned int k = 0; k < nodes; ++k) {
        CHECK(cudaMemcpy(d, dist, bytes, cudaMemcpyHostToDevice));
        relax<<<dim3((nodes + 63) / 64, nodes), 64>>>(d, nodes, k);
        CHECK(cudaMemcpy(dist, d, bytes, cudaMemcpyDeviceToHost));
    }
    for (unsigned int k = 0; k < nodes; ++k)
        for (unsigned int y = 0; y < nodes; ++y)
            for (unsigned int x = 0; x < nodes; ++x) {
                unsigned int through = want[y * nodes + k] + want[k * nodes + x];
                if (through < want[y * nodes + x]) want[y * nodes + x] = through;
            }
    int bad = 0;
    for (unsigned int i = 0; i < nodes * nodes; ++i) if (dist[i] != want[i]) ++bad;
    CHECK(cudaFree(d));
    free(want);
    free(dist);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
