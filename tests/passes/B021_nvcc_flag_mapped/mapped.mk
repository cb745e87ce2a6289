NVCC = nvcc
FLAGS = --use_fast_math -use_fast_math -rdc=true --relocatable-device-code=false -dc -x cu \
        -Xcompiler -fopenmp,-Wall --compiler-options "-O2 -g" -Xcompiler=-fPIC --linker-options=-rpath,/opt \
        -Xptxas -v --resource-usage -keep --default-stream per-thread -ftz=true -prec-div=false \
        -prec-sqrt=true -fmad=false --std=c++17 -std c++14 --output-file app --compile --optimize 2
app: main.cu
	$(NVCC) $(FLAGS) $<
