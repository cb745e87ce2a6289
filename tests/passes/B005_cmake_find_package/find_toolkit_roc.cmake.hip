# cu2hip-options: --roc
find_package(hip REQUIRED)
find_package(rocblas REQUIRED)
find_package(rocrand REQUIRED)
find_package(rocsparse REQUIRED)
find_package(rocsolver REQUIRED)
target_link_libraries(app PRIVATE roc::rocblas roc::rocrand roc::rocsparse roc::rocsolver)
