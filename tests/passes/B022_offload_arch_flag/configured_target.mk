# cu2hip-options: --offload-arch gfx942
app: main.cu
	nvcc -arch=native -o $@ $<
