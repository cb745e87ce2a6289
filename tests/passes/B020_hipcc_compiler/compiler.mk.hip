NVCC = hipcc
HOSTCXX := g++

app: main.o
	$(NVCC) -o $@ $^

tool: tool.cu
	@hipcc -o $@ $< && echo built
	cd sub && ${NVCC} -c x.cu
