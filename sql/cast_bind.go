package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	"gpusql/storage/columnar"
)

// castExpr binds CAST(x AS type) / CONVERT(x, type).
func (b *binder) castExpr(n *ast.FuncCastExpr, sc *scope, pos int) (Expr, error) {
	if n.FunctionType == ast.CastConvertFunction && n.Tp == nil {
		return nil, b.errf(pos, "unsupported: CONVERT ... USING")
	}
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	var t columnar.Type
	switch n.Tp.GetType() {
	case mysql.TypeLonglong, mysql.TypeLong, mysql.TypeInt24, mysql.TypeShort, mysql.TypeTiny:
		t = columnar.TInt64
		if mysql.HasUnsignedFlag(n.Tp.GetFlag()) {
			t = columnar.TUint64
		}
	case mysql.TypeNewDecimal:
		p, s := n.Tp.GetFlen(), n.Tp.GetDecimal()
		if p <= 0 {
			p = 10
		}
		if s < 0 {
			s = 0
		}
		if err := b.castDecimalSpecError(n.Tp, pos); err != nil {
			return nil, err
		}
		t = columnar.TDecimal(p, s)
	case mysql.TypeDouble:
		t = columnar.TFloat64
	case mysql.TypeFloat:
		if n.Tp.GetFlen() > 24 { // FLOAT(25..53) is a DOUBLE
			return castTo(e, columnar.TFloat64), nil
		}
		// MySQL 8.0.17+: single precision. The executor rounds the
		// double to a float32 (a cast from Float64 to a Single type),
		// which prints with FLT_DIG digits (columnar.FormatFloat32).
		return &Cast{E: castTo(e, columnar.TFloat64), T: columnar.TFloat(0, 0), Text: overflowText(n, sc)}, nil
	case mysql.TypeVarString, mysql.TypeString, mysql.TypeVarchar, mysql.TypeBlob:
		if w := n.Tp.GetFlen(); w >= 0 {
			return castToChars(e, w, n.Tp.GetCharset() == "binary"), nil
		}
		if n.Tp.GetCharset() == "binary" {
			return binaryString(castTo(e, columnar.TString)), nil
		}
		t = columnar.TString
	case mysql.TypeDate:
		t = columnar.TDate
	case mysql.TypeJSON:
		t = columnar.TJSON
	case mysql.TypeTiDBVectorFloat32:
		vt, bad := vectorType(n.Tp.GetFlen())
		if bad != "" {
			return nil, b.errf(pos, "unsupported: %s", bad)
		}
		if !castable(e.Type(), vt) {
			return nil, b.errf(pos, "type mismatch: cannot cast %s to %s", e.Type(), vt)
		}
		if c, ok := e.(*Const); ok {
			if err := vectorConstError(c, vt); err != nil {
				return nil, b.errf(pos, "%v", err)
			}
		}
		t = vt
	case mysql.TypeDatetime, mysql.TypeTimestamp:
		fsp := n.Tp.GetDecimal()
		if fsp > columnar.MaxFsp {
			return nil, b.errf(pos, "too big precision %d for CAST to DATETIME (at most 6)", fsp)
		}
		t = columnar.TDatetime(max(fsp, 0))
	case mysql.TypeDuration:
		fsp := n.Tp.GetDecimal()
		if fsp > columnar.MaxFsp {
			return nil, b.errf(pos, "too big precision %d for CAST to TIME (at most 6)", fsp)
		}
		t = columnar.TTime(max(fsp, 0))
		if !castable(e.Type(), t) {
			return nil, b.errf(pos, "type mismatch: cannot cast %s to %s", e.Type(), t)
		}
	case mysql.TypeYear:
		t = columnar.TYear
	default:
		return nil, b.errf(pos, "unsupported: CAST to %s", n.Tp.String())
	}
	if isJSON(e) && (t.IsInteger() || t.ID == columnar.Decimal || t.ID == columnar.Float64) {
		// A JSON string casts by its text: CAST(JSON '"12"' AS SIGNED)
		// is 12 in MySQL, not the 0 of the quoted text.
		e = &Func{Name: "json_unquote", Args: []Expr{e}, T: columnar.TString}
	}
	if t.ID == columnar.Decimal {
		return b.castDecimal(e, t, pos), nil
	}
	if e.Type().ID == columnar.Time && isTemporal(t) {
		return nil, b.errf(pos, "unsupported: CAST of a TIME to %s (MySQL adds today's date: write TIMESTAMP(CURRENT_DATE, t))", t)
	}
	if c, ok := e.(*Const); ok && t.Year && !c.Null && (c.T.ID == columnar.Float64 || c.T.ID == columnar.String) {
		// CAST(... AS YEAR) reads a DOUBLE by rint and a string by its
		// leading integer (Item_typecast_year), where storing one into a
		// YEAR column (convertToYear, which folding would use) truncates
		// the DOUBLE and rounds the string: the executor casts it.
		return &Cast{E: e, T: t}, nil
	}
	if et := e.Type(); et.ID == columnar.Decimal && et.IsWide() && t.ID == columnar.Int64 && t.Width == 0 && t.Bit == 0 {
		// Past the range it saturates, not NULL (exec/cpu/cast_decimal_signed.go).
		return &Cast{E: e, T: t, Written: true}, nil
	}
	if e.Type().ID == columnar.Float64 && t.IsBigUnsigned() {
		// Past BIGINT's range a DOUBLE is LLONG_MAX or LLONG_MIN's bits,
		// where a store into BIGINT UNSIGNED takes up to 2^64: the
		// executor casts it (exec/cpu castDoubleUnsigned).
		return &Cast{E: e, T: t, Written: true}, nil
	}
	x := castTo(e, t)
	if c, ok := x.(*Cast); ok && t.IsInteger() && c.E.Type().ID == columnar.String {
		x = &Cast{E: c.E, T: c.T, Written: true} // strtoll10's bits (Cast.Written)
	}
	return x, nil
}

// castToChars is CAST(e AS CHAR(n)) or CAST(e AS BINARY(n)): MySQL cuts
// the text to its first n characters (BINARY: bytes) with warning 1292
// "Truncated incorrect CHAR(n) value: '...'", also in strict mode (a cast
// is not a store), and pads a shorter BINARY(n) with 0x00 bytes to n. It
// binds as the function cast_char (exec/cpu/rowfunc_cast_char.go) rather
// than as a new Cast flavour: a Cast to VARCHAR(n) is also how INSERT
// converts values, and there a longer value is an error.
func castToChars(e Expr, n int, binary bool) Expr {
	bin := &Const{T: columnar.TInt64}
	if binary {
		bin.I = 1
	}
	return &Func{Name: CastChar, Args: []Expr{castTo(e, columnar.TString), &Const{T: columnar.TInt64, I: int64(n)}, bin}, T: columnar.TString}
}

// binaryString types the text e as a binary string: CAST(x AS BINARY),
// BINARY x and CONVERT(x USING binary) are, in MySQL, byte strings also
// inside a larger expression (CHARSET(CONCAT(BINARY 'a', 'é')) is binary,
// see textResult), where castTo alone would keep e's text type, as
// sameType does not tell text from bytes. The bytes are unchanged: a
// constant is retyped, anything else gets a Cast that the executors pass
// through (their sameType ignores Binary too).
func binaryString(e Expr) Expr {
	t := e.Type()
	if t.Binary {
		return e
	}
	t = columnar.Type{ID: columnar.String, Binary: true}
	if c, ok := e.(*Const); ok {
		k := *c
		k.T = t
		return &k
	}
	return &Cast{E: e, T: t}
}

// CastChar is the function CAST(x AS CHAR(n)) and CAST(x AS BINARY(n))
// bind as: cast_char(x, n, binary).
const CastChar = "cast_char"
