NVCC = /usr/local/cuda/bin/nvcc
HOSTCXX := g++

app: main.o
	$(NVCC) -o $@ $^

tool: tool.cu
	@nvcc -o $@ $< && echo built
	cd sub && ${NVCC} -c x.cu
