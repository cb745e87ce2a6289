// Only dim3 and vector types: nvcc declared them without any include, hipcc needs the
// HIP runtime header, though nothing here is renamed.
float4 scale(float4 v, float s) { return make_float4(v.x * s, v.y * s, v.z * s, v.w * s); }
int2 pair(int a) { return make_int2(a, a); }
dim3 grid(unsigned n) { return dim3((n + 255) / 256); }
