app: main.cu
	nvcc --ptxas-options=-dlcm=cg -o $@ $<
