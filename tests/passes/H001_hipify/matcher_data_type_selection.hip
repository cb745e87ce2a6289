// cu2hip-options: --roc --use-hip-data-types

#include <hip/hip_runtime.h>
#include <hip/library_types.h>

// With --roc, the tables map cudaDataType_t to rocBLAS's type; --use-hip-data-types gives
// the variables and parameters declared with it hipDataType, as hipify-clang does.
hipDataType global_type;
static rocblas_datatype_ types_array[2];
struct Desc { rocblas_datatype_ field; };
typedef rocblas_datatype_ DataType;

rocblas_datatype_ pick(hipDataType in, hipDataType, const rocblas_datatype_ fixed, rocblas_datatype_* out,
                    rocblas_datatype& ref) {
  enum hipDataType elaborated = in;
  hipDataType plain, *pointer;
  for (hipDataType t : {in, fixed}) *out = t;
  return (rocblas_datatype_)plain;
}
