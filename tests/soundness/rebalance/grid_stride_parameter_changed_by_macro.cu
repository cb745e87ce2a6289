// soundness: must-refuse
// why: NEXT expands to pass++: the loop counts its passes in a parameter, hidden in a macro
// no-edit: L007,L008
// expect: L009 "the macro NEXT"
#define NEXT pass++
__global__ void passes(int* out, int n, int pass)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = NEXT;
    }
}

void run(int* out, int n) { passes<<<8, 512>>>(out, n, 0); }
