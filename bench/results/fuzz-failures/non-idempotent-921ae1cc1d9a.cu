#include<cublas.h>
cublasSdot