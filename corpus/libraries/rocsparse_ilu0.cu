// cuSPARSE incomplete LU factorization ILU(0) of a 5-point Laplacian-like CSR matrix:
// buffer size, analysis (with the zero-pivot check) and factorization, the factors
// checked against a host ILU(0) on the same sparsity pattern. Meant for `--roc`: the
// buffer size, analysis and factorization calls take other arguments in rocSPARSE (H021).
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

#define SPARSE_CHECK(call)                                                          \
    do {                                                                            \
        cusparseStatus_t s_ = (call);                                               \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                        \
            fprintf(stderr, "%s:%d: sparse status %d\n", __FILE__, __LINE__, (int)s_); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

struct Csr {
    int n = 0;
    std::vector<int> row_ptr, col_idx;
    std::vector<float> val;
};

// The 5-point stencil of a g x g grid, made diagonally dominant and unsymmetric so that
// the factors are not trivially related: no zero pivot can occur.
static Csr make_grid(int g)
{
    Csr a;
    a.n = g * g;
    a.row_ptr.push_back(0);
    for (int i = 0; i < g; ++i) {
        for (int j = 0; j < g; ++j) {
            const int row = i * g + j;
            const int cols[5] = {row - g, row - 1, row, row + 1, row + g};
            const bool ok[5] = {i > 0, j > 0, true, j + 1 < g, i + 1 < g};
            for (int k = 0; k < 5; ++k) {
                if (!ok[k]) continue;
                a.col_idx.push_back(cols[k]);
                a.val.push_back(k == 2 ? 6.0f + static_cast<float>(row % 3) : -1.0f - 0.25f * static_cast<float>(k));
            }
            a.row_ptr.push_back(static_cast<int>(a.col_idx.size()));
        }
    }
    return a;
}

// ILU(0) in place on the CSR pattern (sorted columns): for each row i and each k < i in
// the pattern, a_ik /= a_kk, then a_ij -= a_ik * a_kj for every j > k in both rows.
static void host_ilu0(const Csr& a, std::vector<double>& v)
{
    std::vector<int> where(a.n, -1);
    for (int i = 0; i < a.n; ++i) {
        for (int p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) where[a.col_idx[p]] = p;
        for (int p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
            const int k = a.col_idx[p];
            if (k >= i) break;
            int diag = -1;
            for (int q = a.row_ptr[k]; q < a.row_ptr[k + 1]; ++q)
                if (a.col_idx[q] == k) diag = q;
            v[p] /= v[diag];
            for (int q = diag + 1; q < a.row_ptr[k + 1]; ++q) {
                const int j = a.col_idx[q];
                if (where[j] >= 0) v[where[j]] -= v[p] * v[q];
            }
        }
        for (int p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) where[a.col_idx[p]] = -1;
    }
}

int main()
{
    const int g = 24;
    Csr A = make_grid(g);
    const int n = A.n;
    const int nnz = static_cast<int>(A.val.size());

    int *d_row = nullptr, *d_col = nullptr;
    float* d_val = nullptr;
    CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_col, nnz * sizeof(int)));
    CHECK(cudaMalloc(&d_val, nnz * sizeof(float)));
    CHECK(cudaMemcpy(d_row, A.row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_col, A.col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_val, A.val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));

    cusparseHandle_t handle;
    SPARSE_CHECK(cusparseCreate(&handle));
    cusparseMatDescr_t descr;
    SPARSE_CHECK(cusparseCreateMatDescr(&descr));
    SPARSE_CHECK(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
    SPARSE_CHECK(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));
    csrilu02Info_t info;
    SPARSE_CHECK(cusparseCreateCsrilu02Info(&info));

    // cuSPARSE writes the buffer size through an int*, rocSPARSE's counterpart through a
    // size_t* (the translation casts it, H022): two ints leave room for either. (CUDA 13
    // declares the size_t form, cusparseScsrilu02_bufferSizeExt, but exports no symbol.)
    int buffer_size[2] = {0, 0};
    SPARSE_CHECK(cusparseScsrilu02_bufferSize(handle, n, nnz, descr, d_val, d_row, d_col, info, buffer_size));
    void* d_buffer = nullptr;
    CHECK(cudaMalloc(&d_buffer, buffer_size[0] > 0 ? buffer_size[0] : 1));

    SPARSE_CHECK(cusparseScsrilu02_analysis(handle, n, nnz, descr, d_val, d_row, d_col, info,
                                            CUSPARSE_SOLVE_POLICY_USE_LEVEL, d_buffer));
    int pivot = -1;
    if (cusparseXcsrilu02_zeroPivot(handle, info, &pivot) == CUSPARSE_STATUS_ZERO_PIVOT) {
        printf("FAIL: structural zero pivot at A(%d,%d)\n", pivot, pivot);
        return 1;
    }
    SPARSE_CHECK(cusparseScsrilu02(handle, n, nnz, descr, d_val, d_row, d_col, info,
                                   CUSPARSE_SOLVE_POLICY_USE_LEVEL, d_buffer));
    if (cusparseXcsrilu02_zeroPivot(handle, info, &pivot) == CUSPARSE_STATUS_ZERO_PIVOT) {
        printf("FAIL: numerical zero pivot at U(%d,%d)\n", pivot, pivot);
        return 1;
    }

    std::vector<float> got(nnz);
    CHECK(cudaMemcpy(got.data(), d_val, nnz * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<double> want(A.val.begin(), A.val.end());
    host_ilu0(A, want);

    int bad = 0;
    for (int p = 0; p < nnz; ++p) {
        if (std::fabs(got[p] - want[p]) > 1e-4 * (1.0 + std::fabs(want[p]))) {
            if (bad < 8) fprintf(stderr, "factor[%d] = %f, want %f\n", p, got[p], want[p]);
            ++bad;
        }
    }

    SPARSE_CHECK(cusparseDestroyCsrilu02Info(info));
    SPARSE_CHECK(cusparseDestroyMatDescr(descr));
    SPARSE_CHECK(cusparseDestroy(handle));
    for (void* p : {(void*)d_row, (void*)d_col, (void*)d_val, d_buffer}) CHECK(cudaFree(p));

    if (bad) {
        printf("FAIL: %d of %d factor entries differ\n", bad, nnz);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
