app: main.cu
	hipcc --ptxas-options=-dlcm=cg -o $@ $<
