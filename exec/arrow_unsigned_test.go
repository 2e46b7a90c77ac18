package exec

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"gpusql/storage/columnar"
)

// TestUnsignedRecord: INT UNSIGNED and BIGINT UNSIGNED columns become
// Arrow uint32 and uint64 arrays (2^64-1 stays 18446744073709551615, NULL
// stays NULL), and their text and Go values are the unsigned numbers.
func TestUnsignedRecord(t *testing.T) {
	small := columnar.NewColumn(columnar.TUint32, 2, true)
	small.SetValid(0)
	small.I64[0] = 4294967295
	big := columnar.NewColumn(columnar.TUint64, 2, true)
	big.SetValid(0)
	big.I64[0] = -1 // the bits of 2^64-1
	r := &Result{Rows: 2, Columns: []*columnar.Column{small, big}, Names: []string{"a", "b"}}
	rec := r.Record()
	defer rec.Release()
	if rec.Schema().Field(0).Type.ID() != arrow.UINT32 || rec.Schema().Field(1).Type.ID() != arrow.UINT64 {
		t.Fatalf("schema %s", rec.Schema())
	}
	a, b := rec.Column(0).(*array.Uint32), rec.Column(1).(*array.Uint64)
	if a.Value(0) != 4294967295 || !a.IsNull(1) || b.Value(0) != 18446744073709551615 || !b.IsNull(1) {
		t.Errorf("arrays %v %v", a, b)
	}
	if got := FormatValue(big, 0); got != "18446744073709551615" {
		t.Errorf("FormatValue = %s", got)
	}
	if got, ok := Value(big, 0).(uint64); !ok || got != 18446744073709551615 {
		t.Errorf("Value = %v", Value(big, 0))
	}
}
