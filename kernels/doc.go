// Package kernels holds the CUDA C sources of gpusql's GPU operators
// (*.cu, one file per operator, named as the planner and executors name it)
// and, in builds with the `cuda` tag, their PTX embedded into the binary.
// `make ptx` compiles each kernels/X.cu to kernels/ptx/X.ptx for compute_80,
// which the driver JITs for Ampere and Hopper; no toolkit is needed to run.
//
// Without the cuda tag the package holds no code: nothing else may depend on
// it then.
package kernels
