#include <hip/hip_runtime.h>

// Every branch is translated, whichever one the compiler would take.
#if defined(USE_GRAPHS)
hipGraph_t g_graph;
hipGraphExec_t g_exec;
#elif defined(USE_STREAMS)
hipStream_t g_stream;
#else
hipEvent_t g_event;
#endif

void sync_all() {
#ifdef USE_STREAMS
  hipStreamSynchronize(g_stream);
#else
  hipDeviceSynchronize();
#endif
}
