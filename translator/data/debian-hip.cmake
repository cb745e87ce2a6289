# A CMake toolchain file for CMake's HIP language on Debian's ROCm packages (Debian 12:
# CMake 3.25, clang 15, libamdhip64-dev 5.2), shipped with cu2hip: `cu2hip toolchain-file`
# prints its path. Passed as -DCMAKE_TOOLCHAIN_FILE=... or through the CMAKE_TOOLCHAIN_FILE
# environment variable (CMake >= 3.21, as the tests do), the translated projects build with
#   cmake -S out -B b -DCMAKE_HIP_ARCHITECTURES=gfx90a && cmake --build b
# Why it is needed (nothing in the projects themselves):
#   - CMake before 3.28 looks for hip-lang-config.cmake under <ROCm root>/lib/cmake only;
#     Debian installs it under lib/<multiarch>/cmake. A root whose lib/cmake links there
#     stands in (made in each build folder, try_compile's included).
#   - Debian names the compiler clang++-NN, which CMake does not search for.
#   - Debian's clang finds the HIP headers and device libraries only when told (hipcc
#     passes --rocm-path and --hip-device-lib-path itself).
file(GLOB _cu2hip_hip_lang /usr/lib/*/cmake/hip-lang/hip-lang-config.cmake)
if(_cu2hip_hip_lang)
  list(GET _cu2hip_hip_lang 0 _cu2hip_hip_lang)
  get_filename_component(_cu2hip_cmake_dir "${_cu2hip_hip_lang}" DIRECTORY)
  get_filename_component(_cu2hip_cmake_dir "${_cu2hip_cmake_dir}" DIRECTORY)
  get_filename_component(_cu2hip_bitcode "${_cu2hip_cmake_dir}/../amdgcn/bitcode" ABSOLUTE)
  set(_cu2hip_root "${CMAKE_BINARY_DIR}/cu2hip-rocm-root")
  if(NOT EXISTS "${_cu2hip_root}/lib/cmake")
    file(MAKE_DIRECTORY "${_cu2hip_root}/lib")
    file(CREATE_LINK "${_cu2hip_cmake_dir}" "${_cu2hip_root}/lib/cmake" SYMBOLIC)
  endif()
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_cu2hip_root}" CACHE PATH "")
  list(APPEND CMAKE_PREFIX_PATH "${_cu2hip_cmake_dir}")
  set(CMAKE_HIP_FLAGS_INIT "--rocm-path=/usr --hip-device-lib-path=${_cu2hip_bitcode}")
endif()
if(NOT CMAKE_HIP_COMPILER)
  # hipcc's own clang (Debian 13 has several LLVMs; ROCm's is the one hipcc names).
  execute_process(COMMAND hipcc --version OUTPUT_VARIABLE _cu2hip_hipcc ERROR_QUIET)
  if(_cu2hip_hipcc MATCHES "clang version ([0-9]+)" AND EXISTS "/usr/lib/llvm-${CMAKE_MATCH_1}/bin/clang++")
    set(CMAKE_HIP_COMPILER "/usr/lib/llvm-${CMAKE_MATCH_1}/bin/clang++" CACHE FILEPATH "")
  endif()
endif()
if(NOT CMAKE_HIP_COMPILER)
  file(GLOB _cu2hip_clangs /usr/lib/llvm-*/bin/clang++)
  if(_cu2hip_clangs)
    list(SORT _cu2hip_clangs COMPARE NATURAL ORDER DESCENDING)
    list(GET _cu2hip_clangs 0 _cu2hip_clang)
    set(CMAKE_HIP_COMPILER "${_cu2hip_clang}" CACHE FILEPATH "")
  endif()
endif()
