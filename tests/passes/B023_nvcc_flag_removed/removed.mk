NVCC = nvcc
FLAGS = -O2 -lineinfo --generate-line-info --threads 0 -t 4 --expt-relaxed-constexpr --expt-extended-lambda \
        --extended-lambda -Wno-deprecated-gpu-targets -cudart=static --cudart shared -ccbin g++-12 \
        --forward-unknown-to-host-compiler --allow-unsupported-compiler --display-error-number \
        -src-in-ptx -prec-div=true
LIBS = -lcudadevrt
app: main.cu
	$(NVCC) $(FLAGS) -o $@ $< $(LIBS)
