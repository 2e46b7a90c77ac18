package engine

import (
	"context"
	"hash/fnv"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gpusql/internal/slt"
	"gpusql/storage/columnar"
)

// TestPlansImmutable checks what the plan cache relies on to share a plan
// between runs and sessions: running a physical plan does not change it.
// Every query of the SLT corpus is planned (with the GPU's part, for the
// h100 profile), its plan fingerprinted through every pointer it holds,
// run on the CPU executor twice (and on the GPU executor twice where this
// build has CUDA and a device answers), and fingerprinted again. A lazily filled
// field (a compiled pattern, a memoized value) would show as a change.
// Table snapshots, columns and dictionaries are data, not plan, and are
// left out, as are functions and synchronization fields.
func TestPlansImmutable(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(*sltDir, "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SLT files (%v)", err)
	}
	executors := []string{"cpu"}
	if ok, _ := GPUStatus(); ok {
		executors = append(executors, "gpu")
	} else {
		t.Log("GPU executor not checked: no device")
	}
	checked := 0
	for _, path := range files {
		f, err := slt.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for _, r := range f.Records {
			if r.Skipped(sltEngineNames...) {
				continue
			}
			if r.Kind == slt.Halt {
				break
			}
			if r.Kind == slt.Query {
				if p, err := db.Prepare(r.SQL); err == nil {
					before := planFingerprint(p.Physical)
					for _, e := range executors {
						for range 2 {
							db.Run(ctx, p, e) //nolint:errcheck // a failing (or refused) run must leave the plan as it is too
						}
					}
					if after := planFingerprint(p.Physical); after != before {
						t.Errorf("%s:%d: running the plan changed it\n%s", path, r.Line, r.SQL)
					}
					checked++
				}
			}
			db.Exec(ctx, r.SQL, filepath.Dir(path)) //nolint:errcheck // the SLT tests check the answers
		}
		db.Close()
	}
	if checked < 1000 {
		t.Errorf("only %d plans checked", checked)
	}
	t.Logf("%d plans unchanged by two runs each", checked)
}

// planFingerprint hashes everything reachable from v but data (see
// TestPlansImmutable); maps hash independently of their order, and a
// pointer already on the path (a cycle) is not followed again.
func planFingerprint(v any) uint64 {
	h := &fingerprinter{onPath: map[uintptr]bool{}}
	return h.value(reflect.ValueOf(v))
}

type fingerprinter struct {
	onPath map[uintptr]bool
}

var dataTypes = map[reflect.Type]bool{
	reflect.TypeOf(columnar.Table{}):      true,
	reflect.TypeOf(columnar.Column{}):     true,
	reflect.TypeOf(columnar.Dictionary{}): true,
}

func mix(a, b uint64) uint64 { return (a ^ b) * 1099511628211 }

func hashString(s string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(s))
	return f.Sum64()
}

func (h *fingerprinter) value(v reflect.Value) uint64 {
	if !v.IsValid() {
		return 1
	}
	k := uint64(v.Kind()) + 7
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return mix(k, 1)
		}
		return mix(k, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mix(k, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return mix(k, v.Uint())
	case reflect.Float32, reflect.Float64:
		return mix(k, math.Float64bits(v.Float()))
	case reflect.String:
		return mix(k, hashString(v.String()))
	case reflect.Pointer:
		if v.IsNil() {
			return mix(k, 0)
		}
		if dataTypes[v.Type().Elem()] {
			return mix(k, uint64(v.Pointer())) // which snapshot, not its rows
		}
		if h.onPath[v.Pointer()] {
			return mix(k, 2)
		}
		h.onPath[v.Pointer()] = true
		defer delete(h.onPath, v.Pointer())
		return mix(k, h.value(v.Elem()))
	case reflect.Interface:
		if v.IsNil() {
			return mix(k, 0)
		}
		return mix(mix(k, hashString(v.Elem().Type().String())), h.value(v.Elem()))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return mix(k, 0)
		}
		x := mix(k, uint64(v.Len()))
		for i := 0; i < v.Len(); i++ {
			x = mix(x, h.value(v.Index(i)))
		}
		return x
	case reflect.Map:
		var sum uint64
		it := v.MapRange()
		for it.Next() {
			sum += mix(h.value(it.Key()), h.value(it.Value()))
		}
		return mix(mix(k, uint64(v.Len())), sum)
	case reflect.Struct:
		t := v.Type()
		if dataTypes[t] || strings.HasPrefix(t.PkgPath(), "sync") || t.PkgPath() == "weak" {
			return k
		}
		x := mix(k, hashString(t.String()))
		for i := 0; i < v.NumField(); i++ {
			x = mix(x, h.value(v.Field(i)))
		}
		return x
	}
	return k // funcs, channels, unsafe pointers
}

// TestPlanFingerprintSeesChanges checks that the fingerprint changes with
// a field deep inside a plan.
func TestPlanFingerprintSeesChanges(t *testing.T) {
	db := open(t)
	mustExec(t, db, "create table t (a int, s varchar(5)); insert into t values (1, 'x')", "")
	p, err := db.Prepare("select s, count(*) from t where a > 0 group by s order by s")
	if err != nil {
		t.Fatal(err)
	}
	before := planFingerprint(p.Physical)
	if planFingerprint(p.Physical) != before {
		t.Fatal("fingerprint not deterministic")
	}
	nodes := p.Physical.Nodes()
	leaf := nodes[len(nodes)-1]
	leaf.Props().EstRows++
	if planFingerprint(p.Physical) == before {
		t.Errorf("changing %T's estimated rows left the fingerprint as it was", leaf)
	}
}
