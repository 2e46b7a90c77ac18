package planner

import "testing"

// TestEstRoundsRemembered: estRounds answers from its memo exactly what
// the simulation gives, for inputs that differ in one field each (a key
// that left one out would hand one input's answer to another).
func TestEstRoundsRemembered(t *testing.T) {
	prof, err := LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	type in struct {
		groups, width int64
		layout        GPUGroupLayout
		replicas      int
	}
	ins := []in{{35, 2, GroupShared, 4}, {35, 2, GroupShared, 8}, {35, 3, GroupShared, 4}, {36, 2, GroupShared, 4},
		{35, 2, GroupGlobal, 4}, {600000, 2, GroupGlobal, 1}}
	for round := range 2 {
		for _, c := range ins {
			want := simulateRounds(c.groups, c.width, int64(prof.Banks), c.layout, c.replicas, prof.WarpSize)
			if got := estRounds(prof, c.groups, c.width, c.layout, c.replicas); got != want {
				t.Errorf("round %d, %+v: estRounds %v, simulation %v", round, c, got, want)
			}
		}
	}
	if a, b := estRounds(prof, 35, 2, GroupShared, 4), estRounds(prof, 35, 2, GroupShared, 8); a == b {
		t.Errorf("4 and 8 replicas of 35 groups both estimate %v rounds: the inputs do not tell the answers apart", a)
	}
}
