app: main.cu
	nvcc -Xnvlink --suppress-stack-size-warning -o $@ $<
