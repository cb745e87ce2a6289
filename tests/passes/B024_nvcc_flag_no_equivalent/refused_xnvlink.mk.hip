app: main.cu
	hipcc -Xnvlink --suppress-stack-size-warning -o $@ $<
