// CUDA graph built node by node: a memset node and a fill kernel node feed an
// axpy kernel node, whose output a 1D memcpy node copies into pinned host memory.
// The graph is instantiated once and launched twice; results are checked exactly.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__global__ void fill_index(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = static_cast<float>(i);
}

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

struct Buffers {
    float* x;
    float* y;
    float* host_y;  // pinned
    int n;
};

static cudaGraph_t build_graph(Buffers& b, float& a)
{
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    const unsigned threads = 128;
    const unsigned blocks = (b.n + threads - 1) / threads;

    // y = 0
    cudaMemsetParams mp = {};
    mp.dst = b.y;
    mp.value = 0;
    mp.elementSize = sizeof(float);
    mp.width = b.n;
    mp.height = 1;
    mp.pitch = 0;
    cudaGraphNode_t memset_node;
    CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &mp));

    // x[i] = i
    void* fill_args[] = {&b.x, &b.n};
    cudaKernelNodeParams fill = {};
    fill.func = reinterpret_cast<void*>(fill_index);
    fill.gridDim = dim3(blocks);
    fill.blockDim = dim3(threads);
    fill.sharedMemBytes = 0;
    fill.kernelParams = fill_args;
    fill.extra = nullptr;
    cudaGraphNode_t fill_node;
    CHECK(cudaGraphAddKernelNode(&fill_node, graph, nullptr, 0, &fill));

    // y += a * x, after both of the above. Kernel parameters are copied when the node is added.
    void* axpy_args[] = {&a, &b.x, &b.y, &b.n};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(axpy<float>);
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(threads);
    kp.sharedMemBytes = 0;
    kp.kernelParams = axpy_args;
    kp.extra = nullptr;
    cudaGraphNode_t deps[] = {memset_node, fill_node};
    cudaGraphNode_t axpy_node;
    CHECK(cudaGraphAddKernelNode(&axpy_node, graph, deps, 2, &kp));

    cudaGraphNode_t copy_node;
    CHECK(cudaGraphAddMemcpyNode1D(&copy_node, graph, &axpy_node, 1, b.host_y, b.y,
                                   b.n * sizeof(float), cudaMemcpyDeviceToHost));
    return graph;
}

static int check(const Buffers& b, float a, int round)
{
    int bad = 0;
    for (int i = 0; i < b.n; ++i) {
        float want = a * static_cast<float>(i);
        if (b.host_y[i] != want) {
            if (bad < 8) fprintf(stderr, "round %d: y[%d] = %f, want %f\n", round, i, b.host_y[i], want);
            ++bad;
        }
    }
    return bad;
}

int main()
{
    Buffers b;
    b.n = 5000;
    CHECK(cudaMalloc(&b.x, b.n * sizeof(float)));
    CHECK(cudaMalloc(&b.y, b.n * sizeof(float)));
    CHECK(cudaMallocHost(&b.host_y, b.n * sizeof(float)));
    // garbage in y proves the memset node runs
    CHECK(cudaMemset(b.y, 0x7f, b.n * sizeof(float)));

    float a = 3.0f;
    cudaGraph_t graph = build_graph(b, a);
    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &count));

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));

    int bad = count == 4 ? 0 : 1;
    if (bad) fprintf(stderr, "graph has %zu nodes, expected 4\n", count);
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < b.n; ++i) b.host_y[i] = -1.0f;
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaStreamSynchronize(stream));
        bad += check(b, a, round);
    }

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(b.x));
    CHECK(cudaFree(b.y));
    CHECK(cudaFreeHost(b.host_y));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
