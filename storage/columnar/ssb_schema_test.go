package columnar

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Test fixtures shared by the loader tests and benchmarks: the SSB schema
// (read from the project's schema.sql) and a generator of lineorder-shaped
// .tbl text.

const (
	ssbSchemaPath = "../../../shared/ssb/schema.sql"
	ssbSampleDir  = "../../../shared/testdata/ssb-dbgen-sf1-sample"
)

var (
	createRE = regexp.MustCompile(`(?is)create table (\w+) \((.*?)\);`)
	colRE    = regexp.MustCompile(`(?i)^(\w+)\s+(bigint|int|varchar\((\d+)\))$`)
)

// ssbSchema parses the CREATE TABLE statements of schema.sql: INT is
// Int32, BIGINT Int64, VARCHAR(n) String.
func ssbSchema(tb testing.TB) map[string][]Field {
	text, err := os.ReadFile(ssbSchemaPath)
	if err != nil {
		tb.Skipf("SSB schema not found: %v", err)
	}
	out := map[string][]Field{}
	for _, m := range createRE.FindAllStringSubmatch(string(text), -1) {
		var fields []Field
		for _, col := range strings.Split(m[2], ",") {
			c := colRE.FindStringSubmatch(strings.TrimSpace(strings.Join(strings.Fields(col), " ")))
			if c == nil {
				tb.Fatalf("schema.sql: cannot read column %q", col)
			}
			f := Field{Name: c[1], Nullable: true}
			switch {
			case strings.EqualFold(c[2], "bigint"):
				f.Type = TInt64
			case strings.EqualFold(c[2], "int"):
				f.Type = TInt32
			default:
				w, _ := strconv.Atoi(c[3])
				f.Type = Type{ID: String, Width: w}
			}
			fields = append(fields, f)
		}
		out[m[1]] = fields
	}
	return out
}

// lineorderFields is the SSB lineorder schema without needing schema.sql.
func lineorderFields() []Field {
	names := []string{"lo_orderkey", "lo_linenumber", "lo_custkey", "lo_partkey", "lo_suppkey",
		"lo_orderdate", "lo_orderpriority", "lo_shippriority", "lo_quantity", "lo_extendedprice",
		"lo_ordtotalprice", "lo_discount", "lo_revenue", "lo_supplycost", "lo_tax", "lo_commitdate", "lo_shipmode"}
	types := []Type{TInt64, TInt32, TInt32, TInt32, TInt32, TInt32, {ID: String, Width: 15}, {ID: String, Width: 1}, TInt32,
		TInt64, TInt64, TInt32, TInt64, TInt64, TInt32, TInt32, {ID: String, Width: 10}}
	f := make([]Field, len(names))
	for i := range names {
		f[i] = Field{Name: names[i], Type: types[i], Nullable: true}
	}
	return f
}

// writeLineorderTbl writes rows of dbgen-like lineorder text (value
// domains of SSB at SF1, trailing '|') and returns the file size.
func writeLineorderTbl(tb testing.TB, path string, rows int) int64 {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	prio := []string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"}
	mode := []string{"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}
	date := func() int {
		y, m, d := 1992+r.IntN(7), 1+r.IntN(12), 1+r.IntN(28)
		return y*10000 + m*100 + d
	}
	order, line := 1, 1
	var buf []byte
	for i := 0; i < rows; i++ {
		if line > 1+r.IntN(7) {
			order, line = order+1+r.IntN(3), 1
		}
		q := 1 + r.IntN(50)
		price := q * (90000 + r.IntN(110000))
		disc := r.IntN(11)
		buf = fmt.Appendf(buf[:0], "%d|%d|%d|%d|%d|%d|%s|0|%d|%d|%d|%d|%d|%d|%d|%d|%s|\n",
			order, line, 1+r.IntN(30000), 1+r.IntN(200000), 1+r.IntN(2000), date(),
			prio[r.IntN(len(prio))], q, price, price*(1+r.IntN(6)), disc, price*(100-disc)/100,
			60000+r.IntN(60000), r.IntN(9), date(), mode[r.IntN(len(mode))])
		w.Write(buf)
		line++
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	return st.Size()
}
