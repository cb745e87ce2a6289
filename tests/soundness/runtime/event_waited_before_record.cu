// soundness: must-refuse
// why: each iteration makes stream t wait on a fresh event, which is complete, before recording it; hoisted, the wait would be on the previous iteration's record and order t behind work the original does not wait for
// no-edit: R003
// expect: R004 "used before the iteration records it"
__global__ void k(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] = 1; }
void f(float* x, int n, cudaStream_t t) {
    for (int i = 0; i < 4; ++i) {
        cudaEvent_t e;
        cudaEventCreate(&e);
        cudaStreamWaitEvent(t, e, 0);
        k<<<1, 64, 0, t>>>(x, n);
        cudaEventRecord(e, t);
        cudaEventDestroy(e);
    }
}
