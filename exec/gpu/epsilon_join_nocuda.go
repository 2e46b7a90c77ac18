//go:build !cuda

package gpu

import "gpusql/exec/cpu"

// EpsilonJoinCount fails: this build has no GPU executor.
func EpsilonJoinCount(g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) ([]int32, int64, error) {
	return nil, 0, errNoCUDA
}

// EpsilonJoinPairs fails: this build has no GPU executor.
func EpsilonJoinPairs(g *cpu.EpsilonGrid, q *cpu.EpsilonQueries, opt cpu.EpsilonOptions, sink cpu.EpsilonSink) (EpsilonStats, error) {
	return EpsilonStats{}, errNoCUDA
}

// EpsilonJoinCountOn needs a GPU.
func EpsilonJoinCountOn(ids []int, g *cpu.EpsilonGrid, q *cpu.EpsilonQueries) ([]int32, int64, error) {
	return nil, 0, errNoCUDA
}

// EpsilonJoinPairsOn needs a GPU.
func EpsilonJoinPairsOn(ids []int, g *cpu.EpsilonGrid, q *cpu.EpsilonQueries, opt cpu.EpsilonOptions, sink cpu.EpsilonSink) (EpsilonStats, error) {
	return EpsilonStats{}, errNoCUDA
}
