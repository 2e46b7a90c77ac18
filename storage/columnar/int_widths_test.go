package columnar

import (
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// intWidthCases are the integer types with a declared width, their names
// and their ranges from MySQL's "Integer Types" table.
var intWidthCases = []struct {
	typ    Type
	name   string
	lo, hi int64
}{
	{TIntWidth(8), "TINYINT", -128, 127},
	{TIntWidth(16), "SMALLINT", -32768, 32767},
	{TIntWidth(24), "MEDIUMINT", -8388608, 8388607},
	{TIntWidth(32), "INT", -2147483648, 2147483647},
	{TUintWidth(8), "TINYINT UNSIGNED", 0, 255},
	{TUintWidth(16), "SMALLINT UNSIGNED", 0, 65535},
	{TUintWidth(24), "MEDIUMINT UNSIGNED", 0, 16777215},
	{TUintWidth(32), "INT UNSIGNED", 0, 4294967295},
}

func TestIntWidthBoundsAndNames(t *testing.T) {
	for _, c := range intWidthCases {
		lo, hi, ok := c.typ.IntBounds()
		if !ok || lo != c.lo || hi != c.hi || c.typ.String() != c.name {
			t.Errorf("%+v: %s [%d, %d] %v, want %s [%d, %d]", c.typ, c.typ, lo, hi, ok, c.name, c.lo, c.hi)
		}
	}
	for _, typ := range []Type{TInt64, TUint64, TYear, TBool, TDecimal(5, 0)} {
		if _, _, ok := typ.IntBounds(); ok {
			t.Errorf("%s has integer bounds", typ)
		}
	}
}

// TestIntWidthAppend: text (LOAD DATA's slow path), AppendInt64 and Arrow
// arrays (Parquet) take each type's extremes and refuse one past them.
func TestIntWidthAppend(t *testing.T) {
	for _, c := range intWidthCases {
		for _, v := range []int64{c.lo, c.hi, c.lo - 1, c.hi + 1} {
			fits := v >= c.lo && v <= c.hi
			text := strconv.FormatInt(v, 10)
			err := NewBuilder(c.typ).AppendText([]byte(text))
			if fits != (err == nil) || err != nil && !strings.Contains(err.Error(), "out of range for "+c.name) {
				t.Errorf("%s AppendText(%s): %v", c.name, text, err)
			}
			if c.typ.Physical() == PhysInt32 {
				if err := NewBuilder(c.typ).AppendInt64(v); fits != (err == nil) {
					t.Errorf("%s AppendInt64(%d): %v", c.name, v, err)
				}
			}
			ab := array.NewInt64Builder(memory.DefaultAllocator)
			ab.AppendValues([]int64{0, v}, nil)
			arr := ab.NewArray()
			bad, err := appendArrow(NewBuilder(c.typ), arr)
			if fits != (err == nil) || err != nil && bad != 1 {
				t.Errorf("%s appendArrow(int64 %d): row %d, %v", c.name, v, bad, err)
			}
			arr.Release()
			ab.Release()
		}
	}
	// An int32 array into TINYINT is checked (INT's own is a plain copy).
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	defer ib.Release()
	ib.AppendValues([]int32{1, 127, 128}, nil)
	arr := ib.NewArray()
	defer arr.Release()
	if bad, err := appendArrow(NewBuilder(TIntWidth(8)), arr); err == nil || bad != 2 {
		t.Errorf("int32 array into TINYINT: row %d, %v", bad, err)
	}
}
