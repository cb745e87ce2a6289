#include<cublas.h>
cublasSscal