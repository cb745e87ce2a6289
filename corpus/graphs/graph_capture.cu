// CUDA graph built by stream capture: reset a work buffer with a device-to-device
// copy, then a chain of three small elementwise kernels, captured once and
// launched several times. The accumulated result is checked exactly.
#include "graph_capture_kernels.cuh"
#include <vector>

static cudaGraphExec_t capture_step(cudaStream_t s, float* work, const float* init, float* acc,
                                    int n, cudaGraph_t* graph_out)
{
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemcpyAsync(work, init, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
    LAUNCH_1D(scale_inplace, n, s, work, 2.0f, n);
    LAUNCH_1D(add_scalar, n, s, work, 1.0f, n);
    LAUNCH_1D(accumulate, n, s, acc, work, n);
    CHECK(cudaStreamEndCapture(s, &graph));

    cudaGraphExec_t exec;
#if CUDART_VERSION >= 12000
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
#else
    CHECK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
#endif
    *graph_out = graph;
    return exec;
}

int main()
{
    const int n = 10000, launches = 5;
    std::vector<float> h_init(n);
    for (int i = 0; i < n; ++i) h_init[i] = static_cast<float>(i % 100) - 50.0f;

    float *d_init, *d_work, *d_acc;
    CHECK(cudaMalloc(&d_init, n * sizeof(float)));
    CHECK(cudaMalloc(&d_work, n * sizeof(float)));
    CHECK(cudaMalloc(&d_acc, n * sizeof(float)));
    CHECK(cudaMemcpy(d_init, h_init.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_acc, 0, n * sizeof(float)));

    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t graph;
    cudaGraphExec_t exec = capture_step(stream, d_work, d_init, d_acc, n, &graph);

    size_t num_nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &num_nodes));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, stream));
    for (int it = 0; it < launches; ++it) CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    std::vector<float> h_acc(n);
    CHECK(cudaMemcpy(h_acc.data(), d_acc, n * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    if (num_nodes != 4) {
        fprintf(stderr, "captured graph has %zu nodes, expected 4\n", num_nodes);
        ++bad;
    }
    for (int i = 0; i < n; ++i) {
        float want = launches * (2.0f * h_init[i] + 1.0f);
        if (h_acc[i] != want) {
            if (bad < 8) fprintf(stderr, "acc[%d] = %f, want %f\n", i, h_acc[i], want);
            ++bad;
        }
    }
    printf("%d graph launches took %.3f ms\n", launches, ms);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_init));
    CHECK(cudaFree(d_work));
    CHECK(cudaFree(d_acc));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
