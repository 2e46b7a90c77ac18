package columnar

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFile writes a fixture into the test's temporary folder.
func writeFile(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// cell renders row r of column c as text: NULL, the string, a date as
// YYYY-MM-DD, a decimal with its scale, a number.
func cell(t *Table, c, r int) string {
	col := t.Columns[c]
	if col.IsNull(r) {
		return "NULL"
	}
	switch col.Type.ID {
	case String:
		return col.StringAt(r)
	case Vector:
		return VectorText(col.VectorAt(r))
	case Float64:
		return fmt.Sprint(col.F64[r])
	case Date:
		return civilString(col.I32[r])
	case Decimal:
		v, s := col.I64[r], col.Type.Scale
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		if s == 0 {
			return fmt.Sprintf("%s%d", sign, v)
		}
		return fmt.Sprintf("%s%d.%0*d", sign, v/Pow10[s], s, v%Pow10[s])
	}
	return fmt.Sprint(col.Int64At(r))
}

// civilString is the inverse of daysFromCivil (H. Hinnant's civil_from_days).
func civilString(days int32) string {
	z := int(days) + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// rows renders a table as "a|b|c" lines.
func rows(t *Table) []string {
	out := make([]string, t.Rows)
	for r := range out {
		cells := make([]string, len(t.Columns))
		for c := range cells {
			cells[c] = cell(t, c, r)
		}
		out[r] = strings.Join(cells, "|")
	}
	return out
}

// tableImage is everything observable about a table, to check that a
// failed or successful load left an old snapshot exactly as it was.
type tableImage struct {
	Rows   int
	Cols   []Column
	Dicts  [][]string
	Stats  [][]ChunkStats
	Values []string
}

func image(t *Table) tableImage {
	im := tableImage{Rows: t.Rows, Stats: t.Stats, Values: rows(t)}
	im.Stats = make([][]ChunkStats, len(t.Stats))
	for i, s := range t.Stats {
		im.Stats[i] = append([]ChunkStats(nil), s...)
	}
	for _, c := range t.Columns {
		cp := *c
		cp.I32 = append([]int32(nil), c.I32...)
		cp.I64 = append([]int64(nil), c.I64...)
		cp.F64 = append([]float64(nil), c.F64...)
		cp.F32 = append([]float32(nil), c.F32...)
		cp.Offsets = append([]int64(nil), c.Offsets...)
		cp.Valid = append([]uint64(nil), c.Valid...)
		cp.Dict = nil
		im.Cols = append(im.Cols, cp)
		var d []string
		if c.Dict != nil {
			d = append(d, c.Dict.Values...)
		}
		im.Dicts = append(im.Dicts, d)
	}
	return im
}

func sameImage(t *testing.T, before tableImage, tb *Table) {
	t.Helper()
	if after := image(tb); !reflect.DeepEqual(before, after) {
		t.Errorf("the old table changed:\nbefore %+v\nafter  %+v", before.Values, after.Values)
	}
}

func mustLoad(t *testing.T, tb *Table, path string, opts DelimitedOptions) *Table {
	t.Helper()
	nt, err := LoadDelimited(tb, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return nt
}

func eqLines(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\ngot  %q\nwant %q", got, want)
	}
}

// setBlockSize shrinks the loader's blocks for one test.
func setBlockSize(t *testing.T, n int) {
	old := loadBlockSize
	loadBlockSize = n
	t.Cleanup(func() { loadBlockSize = old })
}
