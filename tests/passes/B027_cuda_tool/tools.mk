dump: app
	cuobjdump -sass app > app.sass
	nvidia-smi -L; nvdisasm app.cubin
profile: app
	-nsys profile ./app
