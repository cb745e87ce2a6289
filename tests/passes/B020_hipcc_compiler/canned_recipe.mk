define compile
	@nvcc -lineinfo -c $< -o $@
endef
LIBS_OF_APP = -lcurand
