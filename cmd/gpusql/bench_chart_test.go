package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchChart(t *testing.T) {
	dir := t.TempDir()
	r := &benchReport{SF: 1, Runs: 3, Executors: []string{"gpu", "cpu"}, Queries: []*queryReport{
		{Name: "Q1.1", Executors: map[string]*queryTiming{"gpu": {ColdMs: 9, WarmMs: 1.5}, "cpu": {ColdMs: 40, WarmMs: 35}}},
		{Name: "Q2.1", Executors: map[string]*queryTiming{"gpu": {ColdMs: 12, WarmMs: 2.5}, "cpu": {ColdMs: 90, WarmMs: 80}}},
	}}
	anchors := filepath.Join(dir, "anchors.json")
	os.WriteFile(anchors, []byte(`{"HeavyDB": {"Q1.1": 20, "Q2.1": 31}}`), 0o644)
	out := filepath.Join(dir, "ssb.svg")
	if err := benchChart(out, r, []string{anchors}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "Q1.1", "Q2.1", "GPU warm", "GPU cold", "CPU warm", "HeavyDB", "SSB SF 1"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if err := benchChart(out, r, []string{filepath.Join(dir, "missing.json")}); err == nil {
		t.Error("a missing --compare file was accepted")
	}
}
