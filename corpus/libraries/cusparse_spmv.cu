// cuSPARSE generic API: y = alpha * A * x + beta * y for a banded CSR matrix
// built on the host, with the SpMV workspace size queried first. Checked
// against a host SpMV.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define CUSPARSE_CHECK(call)                                                        \
    do {                                                                            \
        cusparseStatus_t s_ = (call);                                               \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                        \
            fprintf(stderr, "%s:%d: cusparse status %d\n", __FILE__, __LINE__, (int)s_); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

struct Csr {
    int rows = 0, cols = 0;
    std::vector<int> row_ptr, col_idx;
    std::vector<float> val;
};

// Pentadiagonal matrix with a dominant diagonal and small integer entries.
static Csr make_banded(int n)
{
    Csr a;
    a.rows = a.cols = n;
    a.row_ptr.push_back(0);
    for (int i = 0; i < n; ++i) {
        for (int j = i - 2; j <= i + 2; ++j) {
            if (j < 0 || j >= n) continue;
            a.col_idx.push_back(j);
            a.val.push_back(i == j ? 8.0f : static_cast<float>((i + 2 * j) % 5 - 2));
        }
        a.row_ptr.push_back(static_cast<int>(a.col_idx.size()));
    }
    return a;
}

static void host_spmv(const Csr& a, float alpha, const std::vector<float>& x, float beta,
                      std::vector<float>& y)
{
    for (int i = 0; i < a.rows; ++i) {
        double acc = 0.0;
        for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) acc += (double)a.val[k] * x[a.col_idx[k]];
        y[i] = static_cast<float>(alpha * acc + beta * y[i]);
    }
}

template <typename T>
static T* upload(const std::vector<T>& h)
{
    T* d = nullptr;
    CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main()
{
    const int n = 1000;
    Csr A = make_banded(n);
    const int nnz = static_cast<int>(A.val.size());
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 13) - 6.0f;
        y[i] = static_cast<float>(i % 7);
    }
    const float alpha = 2.0f, beta = -1.0f;

    int* d_row = upload(A.row_ptr);
    int* d_col = upload(A.col_idx);
    float* d_val = upload(A.val);
    float* d_x = upload(x);
    float* d_y = upload(y);

    cusparseHandle_t handle;
    CUSPARSE_CHECK(cusparseCreate(&handle));
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    CUSPARSE_CHECK(cusparseCreateCsr(&matA, n, n, nnz, d_row, d_col, d_val, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vecX, n, d_x, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vecY, n, d_y, CUDA_R_32F));

    size_t buffer_size = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA,
                                           vecX, &beta, vecY, CUDA_R_32F,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &buffer_size));
    void* d_buffer = nullptr;
    CHECK(cudaMalloc(&d_buffer, buffer_size > 0 ? buffer_size : 1));
    CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX,
                                &beta, vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, d_buffer));

    std::vector<float> got(n);
    CHECK(cudaMemcpy(got.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    host_spmv(A, alpha, x, beta, y);

    int bad = 0;
    for (int i = 0; i < n; ++i) {
        if (std::fabs(got[i] - y[i]) > 1e-4f * (1.0f + std::fabs(y[i]))) {
            if (bad < 8) fprintf(stderr, "y[%d] = %f, want %f\n", i, got[i], y[i]);
            ++bad;
        }
    }

    CUSPARSE_CHECK(cusparseDestroySpMat(matA));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vecX));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vecY));
    CUSPARSE_CHECK(cusparseDestroy(handle));
    for (void* p : {(void*)d_row, (void*)d_col, (void*)d_val, (void*)d_x, (void*)d_y, d_buffer})
        CHECK(cudaFree(p));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
