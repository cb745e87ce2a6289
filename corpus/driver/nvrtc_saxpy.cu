// NVRTC with C++ templates: a templated saxpy kernel is compiled at run time,
// its float and double instantiations are requested with name expressions and
// looked up by their lowered (mangled) names, then launched with the driver API.
#include <cuda.h>
#include <nvrtc.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define NVRTC_CHECK(call)                                                           \
    do {                                                                            \
        nvrtcResult r_ = (call);                                                    \
        if (r_ != NVRTC_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, nvrtcGetErrorString(r_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define CU_CHECK(call)                                                              \
    do {                                                                            \
        CUresult r_ = (call);                                                       \
        if (r_ != CUDA_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: CUresult %d\n", __FILE__, __LINE__, (int)r_);   \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static const char* kSaxpySource = R"(
template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}
)";

struct Compiled {
    std::string ptx;
    std::vector<std::string> lowered;  // one per requested name expression
};

static Compiled compile(const char* src, const std::vector<std::string>& names)
{
    nvrtcProgram prog;
    NVRTC_CHECK(nvrtcCreateProgram(&prog, src, "saxpy.cu", 0, nullptr, nullptr));
    for (const auto& n : names) NVRTC_CHECK(nvrtcAddNameExpression(prog, n.c_str()));

    const char* opts[] = {"--gpu-architecture=compute_90", "--std=c++17"};
    nvrtcResult status = nvrtcCompileProgram(prog, 2, opts);
    if (status != NVRTC_SUCCESS) {
        size_t size = 0;
        NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &size));
        std::vector<char> log(size + 1, '\0');
        NVRTC_CHECK(nvrtcGetProgramLog(prog, log.data()));
        fprintf(stderr, "NVRTC: %s\n%s\n", nvrtcGetErrorString(status), log.data());
        exit(1);
    }

    Compiled out;
    size_t ptx_size = 0;
    NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptx_size));
    out.ptx.resize(ptx_size);
    NVRTC_CHECK(nvrtcGetPTX(prog, &out.ptx[0]));
    for (const auto& n : names) {
        const char* lowered = nullptr;
        NVRTC_CHECK(nvrtcGetLoweredName(prog, n.c_str(), &lowered));
        out.lowered.emplace_back(lowered);  // copy: the string dies with the program
    }
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));
    return out;
}

template <typename T>
static int run_saxpy(CUfunction fn, T a, int n, double tol)
{
    std::vector<T> x(n), y(n), ref(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<T>(i % 512) / static_cast<T>(8);
        y[i] = static_cast<T>(n - i) / static_cast<T>(16);
        ref[i] = a * x[i] + y[i];
    }
    CUdeviceptr dx, dy;
    const size_t bytes = n * sizeof(T);
    CU_CHECK(cuMemAlloc(&dx, bytes));
    CU_CHECK(cuMemAlloc(&dy, bytes));
    CU_CHECK(cuMemcpyHtoD(dx, x.data(), bytes));
    CU_CHECK(cuMemcpyHtoD(dy, y.data(), bytes));

    void* args[] = {&a, &dx, &dy, &n};
    CU_CHECK(cuLaunchKernel(fn, 64, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuCtxSynchronize());
    CU_CHECK(cuMemcpyDtoH(y.data(), dy, bytes));
    CU_CHECK(cuMemFree(dx));
    CU_CHECK(cuMemFree(dy));

    int bad = 0;
    for (int i = 0; i < n; ++i) {
        if (std::fabs((double)y[i] - (double)ref[i]) > tol * (1.0 + std::fabs((double)ref[i]))) {
            if (bad < 4) fprintf(stderr, "[%d] got %g want %g\n", i, (double)y[i], (double)ref[i]);
            ++bad;
        }
    }
    return bad;
}

int main()
{
    const std::vector<std::string> names = {"saxpy<float>", "saxpy<double>"};
    Compiled c = compile(kSaxpySource, names);

    CU_CHECK(cuInit(0));
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_CHECK(cuCtxSetCurrent(ctx));

    CUmodule mod;
    CU_CHECK(cuModuleLoadData(&mod, c.ptx.c_str()));
    CUfunction f32, f64;
    CU_CHECK(cuModuleGetFunction(&f32, mod, c.lowered[0].c_str()));
    CU_CHECK(cuModuleGetFunction(&f64, mod, c.lowered[1].c_str()));

    int bad = 0;
    bad += run_saxpy<float>(f32, 2.5f, 50000, 1e-6);
    bad += run_saxpy<double>(f64, -0.75, 50000, 1e-12);

    CU_CHECK(cuModuleUnload(mod));
    CU_CHECK(cuDevicePrimaryCtxRelease(dev));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
