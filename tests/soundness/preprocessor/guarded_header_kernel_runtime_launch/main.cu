#include "scale.cuh"
#include <cstdlib>
int main()
{
    int t = atoi(getenv("T"));
    float* x = nullptr;
    scale<<<4, t>>>(x, 4 * t);
    return 0;
}
