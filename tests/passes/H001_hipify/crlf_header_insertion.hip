#include <hip/hip_runtime.h>
// CRLF and no #include: the inserted header line uses CRLF too.
void sync() {
	hipDeviceSynchronize();
}
