// The library's interface: host functions that launch its kernels (src/*.cu) and a
// device buffer owned by host code (src/device_buffer.cpp).
#pragma once
#include <cstddef>

namespace stats {

// y[i] = a * x[i] + y[i] on the device, for i < n.
void scale_add(float a, const float *x, float *y, int n);

// The sum of x[0..n) on the device, into *result (a device pointer).
void sum(const float *x, float *result, int n);

// A device allocation and its copies, in host code only (no kernel in it).
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  float *data() { return data_; }
  void upload(const float *host);
  void download(float *host) const;
  std::size_t size() const { return count_; }

 private:
  float *data_ = nullptr;
  std::size_t count_ = 0;
};

// Stops the program with a message when a runtime call failed.
void check(int status, const char *what);

}  // namespace stats
