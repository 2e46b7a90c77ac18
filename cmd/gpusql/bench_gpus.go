package main

import (
	"fmt"
	"io"
	"strings"

	"gpusql/engine"
)

// bench ssb --gpus 0/0,1 times the GPU executor once per device set, as
// the executors "gpu[0]" and "gpu[0,1]": one GPU against two on the same
// data and machine (issue 18).

// gpuExecutors replaces "gpu" in exes by one executor per device set of
// sets ("" keeps it: every visible GPU).
func gpuExecutors(exes []string, sets string) ([]string, error) {
	if strings.TrimSpace(sets) == "" {
		return exes, nil
	}
	var labels []string
	for _, set := range strings.Split(sets, "/") {
		ids, err := engine.ParseGPUs(set)
		if err != nil {
			return nil, err
		}
		if ids == nil {
			labels = append(labels, "gpu")
			continue
		}
		labels = append(labels, "gpu["+strings.TrimSpace(set)+"]")
	}
	var out []string
	found := false
	for _, e := range exes {
		if e == "gpu" {
			out, found = append(out, labels...), true
			continue
		}
		out = append(out, e)
	}
	if !found {
		return nil, fmt.Errorf("device sets given but the gpu executor is not timed (--executor)")
	}
	return out, nil
}

func isGPU(e string) bool { return e == "gpu" || strings.HasPrefix(e, "gpu[") }

// onDevices is the statement and executor that executor label e runs: a
// device set's label plans the query again for that set.
func onDevices(db *engine.DB, text string, prep *engine.Prepared, e string) (*engine.Prepared, string, error) {
	if !strings.HasPrefix(e, "gpu[") {
		return prep, e, nil
	}
	ids, err := engine.ParseGPUs(strings.TrimSuffix(strings.TrimPrefix(e, "gpu["), "]"))
	if err != nil {
		return nil, "", err
	}
	if err := db.SetGPUs(ids); err != nil {
		return nil, "", err
	}
	p, err := db.Prepare(text)
	return p, "gpu", err
}

// firstGPU is the timing of the first GPU executor of q (nil: none).
func firstGPU(exes []string, q *queryReport) *queryTiming {
	for _, e := range exes {
		if isGPU(e) {
			return q.Executors[e]
		}
	}
	return nil
}

// benchExecutors reads an --executor list (auto: gpu,cpu where a GPU is
// usable) and checks that each can run here.
func benchExecutors(list string, stderr io.Writer) ([]string, int) {
	if list == "auto" {
		list = "cpu"
		if ok, _ := engine.GPUStatus(); ok {
			list = "gpu,cpu"
		}
	}
	exes := strings.Split(list, ",")
	for _, e := range exes {
		switch e {
		case "cpu":
		case "gpu":
			if ok, why := engine.GPUStatus(); !ok {
				fmt.Fprintln(stderr, "gpusql bench: gpu:", why)
				return nil, 1
			}
		default:
			fmt.Fprintf(stderr, "gpusql bench: unknown executor %q (want cpu or gpu)\n", e)
			return nil, 2
		}
	}
	return exes, 0
}
