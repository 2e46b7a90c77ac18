package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without a GPU, bench conflicts still reports every layout's estimated
// rounds and the remap's build figures; the remap serializes far less
// than plain atomics under heavy skew.
func TestBenchConflictsEstimates(t *testing.T) {
	jsonPath := filepath.Join(t.TempDir(), "c.json")
	var out, errb bytes.Buffer
	code := benchMain([]string{"conflicts", "--rows", "20000", "--theta", "0,2", "--window", "0,4", "--json", jsonPath}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep conflictReport
	b, err := os.ReadFile(jsonPath)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("reading %s: %v", jsonPath, err)
	}
	// Per θ: sum plain, replicated, remapped for 2 windows; join plain,
	// replicated, remapped.
	if len(rep.Results) != 2*7 {
		t.Fatalf("%d results, want 14:\n%s", len(rep.Results), out.String())
	}
	rounds := map[string]float64{}
	for _, r := range rep.Results {
		if r.Theta == 2 && r.Window == 0 {
			rounds[r.Op+" "+r.Layout] = r.Rounds
		}
		if r.Layout == "remapped" && (r.Copies < 1 || r.Copies > 8.5 || r.RemapSecPer100M <= 0) {
			t.Errorf("%+v: copies per value outside [1, budget] or no remap time", r)
		}
	}
	if rounds["sum remapped"] >= rounds["sum plain"]/3 || rounds["join remapped"] != 1 {
		t.Errorf("θ=2 rounds per warp %v: want the remapped SUM under a third of plain, the remapped join conflict-free", rounds)
	}
	if !strings.Contains(errb.String(), "no GPU") && !strings.Contains(out.String(), "G rows/s") {
		t.Errorf("neither kernel figures nor a no-GPU note:\n%s\n%s", out.String(), errb.String())
	}
}

func TestBenchConflictsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--theta", "x"}, {"--distinct", "0"}, {"--budget", "4,,8"}} {
		var out, errb bytes.Buffer
		if code := benchMain(append([]string{"conflicts"}, args...), &out, &errb); code != 2 || !strings.Contains(errb.String(), "bench conflicts") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
