>
#include"caffe2/core/common_cudnn.h"
\
#include"caffe2/core/common_cudnn.h"
