# cu2hip-options: --offload-arch gfx942
app: main.cu
	hipcc --offload-arch=gfx942 -o $@ $<
