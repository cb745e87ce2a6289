// Driver API with a module loaded at run time: the kernel is compiled to PTX
// with NVRTC, loaded with cuModuleLoadData into the device's primary context and
// launched with cuLaunchKernel. The result is copied back and checked.
#include <cuda.h>
#include <nvrtc.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CU_CHECK(call)                                                              \
    do {                                                                            \
        CUresult r_ = (call);                                                       \
        if (r_ != CUDA_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: CUresult %d\n", __FILE__, __LINE__, (int)r_);   \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define NVRTC_CHECK(call)                                                           \
    do {                                                                            \
        nvrtcResult r_ = (call);                                                    \
        if (r_ != NVRTC_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, nvrtcGetErrorString(r_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static const char* kSource = R"(
extern "C" __global__ void scale_add(float* y, const float* x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
)";

static std::string compile_to_ptx(const char* src, const char* name)
{
    nvrtcProgram prog;
    NVRTC_CHECK(nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr));
    const char* opts[] = {"--gpu-architecture=compute_90"};
    nvrtcResult res = nvrtcCompileProgram(prog, 1, opts);
    if (res != NVRTC_SUCCESS) {
        size_t log_size = 0;
        NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &log_size));
        std::string log(log_size, '\0');
        NVRTC_CHECK(nvrtcGetProgramLog(prog, &log[0]));
        fprintf(stderr, "compilation of %s failed:\n%s\n", name, log.c_str());
        exit(1);
    }
    size_t ptx_size = 0;
    NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptx_size));
    std::string ptx(ptx_size, '\0');
    NVRTC_CHECK(nvrtcGetPTX(prog, &ptx[0]));
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));
    return ptx;
}

int main()
{
    CU_CHECK(cuInit(0));
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, 0));
    char name[128];
    CU_CHECK(cuDeviceGetName(name, sizeof(name), dev));
    int sms = 0;
    CU_CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    printf("device: %s, %d SMs\n", name, sms);

    CUcontext ctx;
    CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_CHECK(cuCtxSetCurrent(ctx));

    std::string ptx = compile_to_ptx(kSource, "scale_add.cu");
    CUmodule module;
    CUfunction kernel;
    CU_CHECK(cuModuleLoadData(&module, ptx.c_str()));
    CU_CHECK(cuModuleGetFunction(&kernel, module, "scale_add"));

    int n = 100000;
    size_t bytes = n * sizeof(float);
    std::vector<float> hx(n), hy(n, 0.0f);
    for (int i = 0; i < n; ++i) hx[i] = static_cast<float>(i % 1000) * 0.5f;

    CUdeviceptr d_x, d_y;
    CU_CHECK(cuMemAlloc(&d_x, bytes));
    CU_CHECK(cuMemAlloc(&d_y, bytes));
    CU_CHECK(cuMemcpyHtoD(d_x, hx.data(), bytes));

    float a = 4.0f, b = -1.0f;
    void* args[] = {&d_y, &d_x, &a, &b, &n};
    unsigned block = 256, grid = (n + block - 1) / block;
    CU_CHECK(cuLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuCtxSynchronize());
    CU_CHECK(cuMemcpyDtoH(hy.data(), d_y, bytes));

    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want = a * hx[i] + b;
        if (std::fabs(hy[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
            if (bad < 8) fprintf(stderr, "y[%d] = %f, want %f\n", i, hy[i], want);
            ++bad;
        }
    }

    CU_CHECK(cuMemFree(d_x));
    CU_CHECK(cuMemFree(d_y));
    CU_CHECK(cuModuleUnload(module));
    CU_CHECK(cuDevicePrimaryCtxRelease(dev));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
