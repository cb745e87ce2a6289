// CRLF and no #include: the inserted header line uses CRLF too.
void sync() {
	cudaDeviceSynchronize();
}
