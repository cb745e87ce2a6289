// cu2hip-options: --roc --use-hip-data-types
#include <library_types.h>

// With --roc, the tables map cudaDataType_t to rocBLAS's type; --use-hip-data-types gives
// the variables and parameters declared with it hipDataType, as hipify-clang does.
cudaDataType_t global_type;
static cudaDataType_t types_array[2];
struct Desc { cudaDataType_t field; };
typedef cudaDataType_t DataType;

cudaDataType_t pick(cudaDataType_t in, cudaDataType, const cudaDataType_t fixed, cudaDataType_t* out,
                    cudaDataType& ref) {
  enum cudaDataType_t elaborated = in;
  cudaDataType plain, *pointer;
  for (cudaDataType_t t : {in, fixed}) *out = t;
  return (cudaDataType_t)plain;
}
