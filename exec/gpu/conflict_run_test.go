package gpu

import (
	"slices"
	"strings"
	"testing"
)

// copyLists inverts a remapped table's slot -> value map: every used slot
// once, under its value, in slot order; unused slots nowhere.
func TestCopyLists(t *testing.T) {
	start, slots := copyLists([]int32{2, -1, 0, 2, 1, -1, 2}, 4)
	if want := []int32{0, 1, 2, 5, 5}; !slices.Equal(start, want) {
		t.Errorf("start %v, want %v", start, want)
	}
	if want := []int32{2, 4, 0, 3, 6}; !slices.Equal(slots, want) {
		t.Errorf("slots %v, want %v", slots, want)
	}
	if s, l := copyLists(nil, 4); s != nil || l != nil {
		t.Errorf("no remap: %v %v, want nil lists", s, l)
	}
}

// A run the kernel could not index safely is refused before any launch.
func TestConflictRunCheck(t *testing.T) {
	ok := ConflictRun{Keys: []int32{0, 3}, Distinct: 4, Measure: []int32{1, 1}, Replicas: 1}
	if err := ok.check(); err != nil {
		t.Fatalf("a valid run: %v", err)
	}
	for _, c := range []struct {
		run  ConflictRun
		want string
	}{
		{ConflictRun{Keys: []int32{4}, Distinct: 4, Measure: []int32{1}}, "key 4 outside the table's 4 entries"},
		{ConflictRun{Keys: []int32{2}, SlotValue: []int32{0, 1}, Distinct: 4, Measure: []int32{1}}, "key 2 outside the table's 2 entries"},
		{ConflictRun{Keys: []int32{0}, SlotValue: []int32{7}, Distinct: 4, Measure: []int32{1}}, "slot 0: value 7"},
		{ConflictRun{Keys: []int32{0}, Distinct: 4}, "0 measures for 1 rows"},
		{ConflictRun{Join: true, Keys: []int32{0}, Distinct: 4, Payload: []int32{1}}, "1 payloads for 4 values"},
		{ConflictRun{Keys: []int32{0}, SlotValue: []int32{0}, Replicas: 2, Distinct: 1, Measure: []int32{1}}, "one copy"},
	} {
		if err := c.run.check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.run, err, c.want)
		}
	}
}
