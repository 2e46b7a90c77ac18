package qgen

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
)

// table is one of the fixed tables the queries read.
type table struct {
	name    string
	cols    []tableCol
	maxRows int
}

type tableCol struct {
	name  string
	typ   Type
	mysql string // the column's type in gpusql's DDL
}

// Each table has a different row limit so joins meet uneven sizes; t4 is
// often empty. INT and BIGINT columns are both "INTEGER" to SQLite.
var tables = []table{
	{"t1", []tableCol{{"a", TInt, "INT"}, {"b", TInt, "BIGINT"}, {"c", TInt, "INT"}, {"s", TStr, "VARCHAR(8)"}, {"d", TDec, "DECIMAL(6,2)"}, {"e", TDate, "DATE"}}, 24},
	{"t2", []tableCol{{"a", TInt, "INT"}, {"b", TInt, "INT"}, {"s", TStr, "VARCHAR(8)"}}, 16},
	{"t3", []tableCol{{"a", TInt, "BIGINT"}, {"c", TInt, "INT"}, {"d", TDec, "DECIMAL(6,2)"}, {"e", TDate, "DATE"}}, 10},
	{"t4", []tableCol{{"a", TInt, "INT"}, {"b", TInt, "INT"}}, 4},
}

// Values are drawn from small pools so that duplicates, zeros, negatives
// and NULLs are common. Strings are lower-case ASCII without trailing
// spaces: gpusql compares strings by bytes, MySQL's default collation
// ignores case and trailing spaces, SQLite's BINARY agrees with both only
// on such strings.
var (
	intPool = []string{"NULL", "NULL", "0", "1", "1", "2", "3", "-1", "-2", "5", "7", "10", "-7", "42", "99", "-50"}
	strPool = []string{"NULL", "''", "'a'", "'ab'", "'abc'", "'b'", "'ba'", "'x'", "'zz'", "'hello'"}
	decPool = []string{"NULL", "0.00", "1.50", "-2.25", "10.00", "3.10", "99.99", "-0.01", "2.00", "1.50"}
)

// valueBound bounds the absolute value of any column value.
const valueBound = 100

// QueriesPerData is how many consecutive seeds share one data set: seed s
// reads the tables of data seed DataSeed(s), so a seed alone reproduces a
// query and its data.
const QueriesPerData = 250

// DataSeed is the data seed of query seed s.
func DataSeed(s int64) int64 { return s / QueriesPerData }

// bigData says whether a data seed makes t1 large (bigRows rows and more,
// integers over -100..100), so that operators meet several batches and
// morsels, many groups and hash tables that grow. Queries over such data
// join t1 only through an equality and read no t1 in subqueries, which
// keeps SQLite's nested loops fast.
func bigData(dataSeed int64) bool { return dataSeed%4 == 3 }

const bigRows = 2000

// wideData says whether a data seed's integers reach the ends of INT
// (every fourth seed): sums, products, negations and ABS of INT columns
// must then be computed in BIGINT.
func wideData(dataSeed int64) bool { return dataSeed%4 == 2 }

var widePool = []string{"NULL", "NULL", "0", "1", "-1", "2147483647", "-2147483648", "2147483646", "-2147483647",
	"1000000000", "-1000000000", "65536", "-65536", "46341", "3", "7"}

// allNull says whether a data seed leaves a column NULL in every row (a
// string column then has an empty dictionary), every fourth seed.
func allNull(dataSeed int64, col string) bool {
	return dataSeed%4 == 1 && (col == "t2.s" || col == "t1.c" || col == "t3.d" || col == "t3.e")
}

// Schema is the statements that create and fill the tables for one data
// seed, in dialect d (the rows are the same in both dialects).
func Schema(dataSeed int64, d Dialect) []string {
	r := rand.New(rand.NewSource(dataSeed))
	var out []string
	for _, t := range tables {
		var defs []string
		for _, c := range t.cols {
			ty := c.mysql
			if d == SQLite {
				ty = map[Type]string{TInt: "INTEGER", TStr: "TEXT", TDec: "DECIMAL(6,2)", TDate: "TEXT"}[c.typ]
			}
			defs = append(defs, c.name+" "+ty)
		}
		out = append(out, fmt.Sprintf("CREATE TABLE %s (%s)", t.name, strings.Join(defs, ", ")))
		n := r.Intn(t.maxRows + 1)
		if r.Intn(8) == 0 {
			n = 0
		}
		big := bigData(dataSeed) && t.name == "t1"
		if big {
			n = bigRows + r.Intn(2*bigRows)
		}
		var rows []string
		for i := 0; i < n; i++ {
			var vals []string
			for _, c := range t.cols {
				v := pickValue(r, c.typ)
				if wideData(dataSeed) && c.typ == TInt {
					v = widePool[r.Intn(len(widePool))]
				}
				if allNull(dataSeed, t.name+"."+c.name) {
					v = "NULL"
				}
				if big && c.typ == TInt && v != "NULL" {
					v = strconv.Itoa(r.Intn(2*valueBound+1) - valueBound)
				}
				vals = append(vals, v)
			}
			rows = append(rows, "("+strings.Join(vals, ", ")+")")
		}
		if len(rows) > 0 {
			out = append(out, fmt.Sprintf("INSERT INTO %s VALUES %s", t.name, strings.Join(rows, ", ")))
		}
	}
	return out
}

func pickValue(r *rand.Rand, t Type) string {
	switch t {
	case TStr:
		return strPool[r.Intn(len(strPool))]
	case TDec:
		return decPool[r.Intn(len(decPool))]
	case TDate:
		return datePool[r.Intn(len(datePool))]
	}
	return intPool[r.Intn(len(intPool))]
}
