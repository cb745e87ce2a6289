NVCC = hipcc
FLAGS = -O2 \
 \
 \

LIBS =
app: main.cu
	$(NVCC) $(FLAGS) -o $@ $< $(LIBS)
