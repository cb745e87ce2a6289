#include <cuda_runtime.h>

// Every branch is translated, whichever one the compiler would take.
#if defined(USE_GRAPHS)
cudaGraph_t g_graph;
cudaGraphExec_t g_exec;
#elif defined(USE_STREAMS)
cudaStream_t g_stream;
#else
cudaEvent_t g_event;
#endif

void sync_all() {
#ifdef USE_STREAMS
  cudaStreamSynchronize(g_stream);
#else
  cudaDeviceSynchronize();
#endif
}
