package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// String codecs and set functions of MySQL 8 (the "native functions" a
// spot check found missing), bound as the library of functions_more.go:
// exec/cpu/rowfunc_codec.go evaluates them row by row, the GPU refuses
// them by name. NULL in any argument gives NULL unless said otherwise.
// Argument counts are checked with MySQL's wording (ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT).
//
//	name          args (after casts)                  result
//	unhex         s VARCHAR                           VARCHAR (binary): the bytes of hex pairs; an odd
//	                                                  count reads the first digit alone; a non-hex
//	                                                  character gives NULL
//	bin, oct      x                                   bound as conv(x, 10, 2 | 8): BIN(-1) is 64 ones
//	ord           s VARCHAR                           BIGINT: the first character's bytes as a
//	                                                  big-endian number (ORD('€') = 14844588), 0 for ''
//	bit_length    s VARCHAR                           BIGINT, 8 * bytes
//	quote         s VARCHAR                           VARCHAR 's' with \ ' NUL ^Z escaped by a
//	                                                  backslash; QUOTE(NULL) is the word NULL
//	soundex       s VARCHAR                           VARCHAR, MySQL's original Soundex (vowels dropped
//	                                                  before duplicates, no length cap, padded to 4)
//	find_in_set   s, list VARCHAR                     BIGINT 1-based index of s among list's
//	                                                  comma-separated items, 0 if absent or s has ','
//	make_set      bits BIGINT, s1..sn VARCHAR         VARCHAR: the si whose bit i-1 is set, joined by
//	                                                  ','; NULL si are skipped; NULL bits gives NULL
//	export_set    bits BIGINT, on, off VARCHAR        VARCHAR: on/off for bits 0..n-1 (n at most 64,
//	              [, sep VARCHAR [, n BIGINT]]        default 64), joined by sep (default ',')
//	char_func     n1..nk BIGINT, charset VARCHAR      VARCHAR: each ni's low 32 bits as 1-4
//	                                                  big-endian bytes, NULL ni skipped; with
//	                                                  USING utf8mb4 a result that is not UTF-8 is NULL
//
// SHA(s) is sha1.
func init() {
	for _, n := range []string{"unhex", "ord", "bit_length", "quote", "soundex", "find_in_set",
		"make_set", "export_set", "char_func"} {
		moreFuncs[n] = true
	}
}

// nativeArity checks the argument count with MySQL's message for a
// built-in function.
func (c *call) nativeArity(lo, hi int) error {
	if len(c.args) < lo || (hi >= 0 && len(c.args) > hi) {
		return c.b.errf(c.pos, "Incorrect parameter count in the call to native function '%s'", c.name)
	}
	return nil
}

// codecMoreFunc binds the functions listed above.
func (c *call) codecMoreFunc() (Expr, bool, error) {
	switch c.name {
	case "unhex", "quote", "soundex":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, c.str(c.args[0]))
	case "ord", "bit_length":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, c.str(c.args[0]))
	case "sha":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		c.name = "sha1"
		return c.fn(columnar.TString, c.str(c.args[0]))
	case "bin", "oct":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		base := int64(2)
		if c.name == "oct" {
			base = 8
		}
		c.name = "conv"
		return c.fn(columnar.TString, c.str(c.args[0]), &Const{T: columnar.TInt64, I: 10}, &Const{T: columnar.TInt64, I: base})
	case "find_in_set":
		if err := c.nativeArity(2, 2); err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, c.str(c.args[0]), c.str(c.args[1]))
	case "make_set":
		if err := c.nativeArity(2, -1); err != nil {
			return nil, true, err
		}
		return c.bitsThenStrings(c.args[1:])
	case "export_set":
		if err := c.nativeArity(3, 5); err != nil {
			return nil, true, err
		}
		if len(c.args) < 4 {
			c.args = append(c.args, &Const{T: columnar.TString, S: ","})
		}
		if len(c.args) < 5 {
			c.args = append(c.args, &Const{T: columnar.TInt64, I: 64})
		}
		n, err := c.wholeNumber(c.args[4])
		if err != nil {
			return nil, true, err
		}
		e, ok, err := c.bitsThenStrings(c.args[1:4])
		if f, isFunc := e.(*Func); isFunc {
			f.Args = append(f.Args, n)
		}
		return e, ok, err
	case "char_func":
		return c.charFunc()
	}
	return nil, false, nil
}

// wholeNumber converts an argument MySQL reads as an integer: numbers and
// strings (as CAST(s AS SIGNED) reads them) alike.
func (c *call) wholeNumber(e Expr) (Expr, error) {
	if e.Type().ID == columnar.String && !e.Type().JSON {
		return castTo(e, columnar.TInt64), nil
	}
	return c.integer(e)
}

// bitsThenStrings binds (bits BIGINT, strs... VARCHAR). Bits are read as a
// 64-bit pattern: a BIGINT UNSIGNED argument keeps its bits.
func (c *call) bitsThenStrings(strs []Expr) (Expr, bool, error) {
	bits := c.args[0]
	if !bits.Type().IsBigUnsigned() {
		var err error
		if bits, err = c.wholeNumber(bits); err != nil {
			return nil, true, err
		}
	}
	out := []Expr{bits}
	for _, s := range strs {
		out = append(out, c.str(s))
	}
	return c.fn(columnar.TString, out...)
}

// charFunc binds CHAR(n, ... [USING charset]). The parser appends the
// charset (NULL without USING) as the last argument.
func (c *call) charFunc() (Expr, bool, error) {
	c.name = "char"
	if len(c.args) < 2 {
		return nil, true, c.b.errf(c.pos, "Incorrect parameter count in the call to native function 'char'")
	}
	cs := c.args[len(c.args)-1]
	charset := "binary"
	if k, ok := cs.(*Const); ok && !k.Null {
		charset = strings.ToLower(k.S)
	}
	switch charset {
	case "binary", "utf8mb4", "utf8", "utf8mb3":
	default:
		return nil, true, c.b.errf(c.pos, "unsupported: CHAR(... USING %s); binary, utf8mb4 and utf8mb3 are supported", charset)
	}
	out := []Expr{}
	for _, a := range c.args[:len(c.args)-1] {
		n, err := c.wholeNumber(a)
		if err != nil {
			return nil, true, err
		}
		out = append(out, n)
	}
	out = append(out, &Const{T: columnar.TString, S: charset})
	c.name = "char_func"
	return c.fn(columnar.TString, out...)
}
