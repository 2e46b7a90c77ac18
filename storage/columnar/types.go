// Package columnar holds tables as typed column vectors: fixed-width values,
// strings as int32 codes into an order-preserving dictionary, NULLs as validity
// bitmaps, and per-chunk statistics that the planner reads.
package columnar

import (
	"fmt"
	"math"

	"gpusql/internal/decimal"
)

// TypeID names a SQL type as the engine stores it.
type TypeID uint8

const (
	Int32    TypeID = iota + 1 // INT: int32
	Int64                      // BIGINT: int64
	Float64                    // DOUBLE: float64
	Decimal                    // DECIMAL(p,s): int64 scaled by 10^s; above 18 digits 256-bit words (IsWide)
	Date                       // DATE: int32 days since 1970-01-01
	Bool                       // BOOLEAN: int32 0 or 1
	String                     // VARCHAR: int32 code into a sorted dictionary
	Vector                     // VECTOR(n): n float32 per row (vector.go)
	Datetime                   // DATETIME(fsp), TIMESTAMP(fsp): int64 µs since 1970-01-01 00:00:00 UTC (datetime.go)
	Time                       // TIME(fsp): int64 µs, signed, within ±838:59:59 (time.go)
)

// Type is a column type; Precision and Scale matter for Decimal, Width and
// Binary for String (see FitString), Dim for Vector.
type Type struct {
	ID        TypeID
	Precision int
	Scale     int
	Width     int  // VARCHAR(n)/CHAR(n): at most n characters; 0: no limit
	Binary    bool // BINARY, VARBINARY, BLOB: bytes, not UTF-8 text
	Char      bool // CHAR(n): trailing spaces are not kept; BINARY(n) (Binary too): padded with 0x00 to n bytes
	Dim       int  `json:",omitempty"` // VECTOR(n): every value has n elements; 0: any number
	// Timestamp marks TIMESTAMP(fsp) (Scale is fsp for Datetime): stored
	// as DATETIME is, named and range-checked as MySQL's TIMESTAMP.
	Timestamp bool `json:",omitempty"`
	// JSON marks a JSON column (ID String): values are stored as MySQL's
	// normalized text (internal/mysqljson), checked and normalized by
	// FitString, so every string path (dictionary, loaders, Arrow,
	// persistence) carries them unchanged.
	JSON bool `json:",omitempty"`
	// Year marks a YEAR column (ID Int32): 0 or 1901..2155, converted in
	// and printed as MySQL does (year.go).
	Year bool `json:",omitempty"`
	// Unsigned marks an unsigned integer column (ID Int64). With Width 8,
	// 16, 24 or 32 it is TINYINT, SMALLINT, MEDIUMINT or INT UNSIGNED:
	// values 0 to 2^Width-1, exact as int64, so signed arithmetic on them
	// is right. With Width 0 it is BIGINT UNSIGNED: the int64 vector holds
	// uint64 bit patterns, read by the type (values of 2^63 and more look
	// negative).
	//
	// A signed integer of ID Int32 uses Width the same way: 8, 16 or 24
	// is TINYINT, SMALLINT or MEDIUMINT, 0 is INT. The width only bounds
	// what a store accepts (IntBounds) and names the type; values are
	// int32 and compare, compute and travel to the GPU as INT's do.
	Unsigned bool `json:",omitempty"`
	// Members marks an ENUM or (with Set) a SET column (ID String): its
	// members in declaration order, each followed by "\x00" (a
	// comparable Type). Values are stored as their member strings (a SET
	// as its members in declaration order joined by commas), checked and
	// made canonical by FitString (enum.go).
	Members string `json:",omitempty"`
	Set     bool   `json:",omitempty"`
	// Bit marks BIT(Bit) (ID Int64, Unsigned, Width 0): values 0 to
	// 2^Bit-1 held as BIGINT UNSIGNED's are, so they compute as numbers
	// (b + 0, BIN(b), HEX(b)), printed as MySQL sends them: the value's
	// big-endian bytes, (Bit+7)/8 of them (bit.go).
	Bit int `json:",omitempty"`
	// Single marks a FLOAT column (ID Float64): stores round to single
	// precision and it prints as a float32 (float_column.go). A Float64
	// with Precision M > 0 is FLOAT(M,D) / DOUBLE(M,D), D in Scale.
	Single bool `json:",omitempty"`
	// ZeroFill is the display width of an integer or DECIMAL column
	// declared ZEROFILL, whose values print zero-padded to it (zerofill.go).
	ZeroFill int `json:",omitempty"`
	// Lob is the size class of a TEXT or BLOB column (ID String, Width
	// 0, not Char): the bytes of MySQL's length prefix, 1 for TINYTEXT /
	// TINYBLOB, 3 for MEDIUM, 4 for LONG; 0 is TEXT / BLOB (prefix 2), so
	// types saved before the field existed read as what they were. It
	// only names the type (LobName, LobMaxBytes); values are stored alike.
	Lob int `json:",omitempty"`
}

// LobMaxBytes is the most bytes a TEXT or BLOB of this type's size class
// holds: 255, 65535, 16777215 or 4294967295.
func (t Type) LobMaxBytes() int64 {
	switch t.Lob {
	case 1, 3, 4:
		return 1<<(8*t.Lob) - 1
	}
	return 65535
}

// LobName is "TEXT" or "BLOB" with the size class's prefix (TINY,
// MEDIUM, LONG).
func (t Type) LobName() string {
	name := "TEXT"
	if t.Binary {
		name = "BLOB"
	}
	return map[int]string{1: "TINY", 3: "MEDIUM", 4: "LONG"}[t.Lob] + name
}

// LobClass is the Lob of the smallest TEXT / BLOB that holds n bytes, as
// MySQL picks it for TEXT(M) / BLOB(M).
func LobClass(n int64) int {
	switch {
	case n <= 255:
		return 1
	case n <= 65535:
		return 0
	case n <= 16777215:
		return 3
	}
	return 4
}

// IsBigUnsigned reports a BIGINT UNSIGNED type, whose int64 values are
// uint64 bit patterns.
func (t Type) IsBigUnsigned() bool { return t.ID == Int64 && t.Unsigned && t.Width == 0 }

// UnsignedMax is the largest value an unsigned integer type holds.
func (t Type) UnsignedMax() uint64 {
	if t.Bit > 0 && t.Bit < 64 {
		return 1<<t.Bit - 1
	}
	switch t.Width {
	case 8, 16, 24, 32:
		return 1<<t.Width - 1
	}
	return math.MaxUint64
}

// IntBounds is the range a store into an integer column of this type
// accepts (MySQL's strict mode refuses the rest as "Out of range"):
// TINYINT -128..127, SMALLINT -32768..32767, MEDIUMINT -8388608..8388607,
// INT the int32 range, the unsigned ones 0..UnsignedMax. ok is false for
// BIGINT, BIGINT UNSIGNED, YEAR and every other type.
func (t Type) IntBounds() (lo, hi int64, ok bool) {
	switch {
	case t.ID == Int32 && !t.Year:
		switch t.Width {
		case 8, 16, 24:
			hi = 1<<(t.Width-1) - 1
			return -hi - 1, hi, true
		}
		return math.MinInt32, math.MaxInt32, true
	case t.ID == Int64 && t.Unsigned && t.Width > 0:
		return 0, int64(t.UnsignedMax()), true
	}
	return 0, 0, false
}

// IsNarrowInt reports TINYINT, SMALLINT or MEDIUMINT (signed), whose
// int32 vector holds values of a narrower range than INT.
func (t Type) IsNarrowInt() bool { return t.ID == Int32 && !t.Year && t.Width != 0 }

// intName is the SQL name of a signed integer of the given width.
func intName(width int) string {
	switch width {
	case 8:
		return "TINYINT"
	case 16:
		return "SMALLINT"
	case 24:
		return "MEDIUMINT"
	case 32:
		return "INT"
	}
	return "BIGINT"
}

// Physical is the Go element type a column of this type is stored as.
type Physical uint8

const (
	PhysInt32 Physical = iota + 1
	PhysInt64
	PhysFloat64
	PhysVector // float32 elements, Type.Dim per row or by offsets (vector.go)
	PhysWide   // decimal.Num: 256-bit two's complement words (wide DECIMAL)
)

// IsWide reports a DECIMAL of more than 18 digits, whose values are
// 256-bit words (internal/decimal) instead of a scaled int64. The GPU
// executor does not take them (the planner keeps such plans on the CPU).
func (t Type) IsWide() bool { return t.ID == Decimal && t.Precision > decimal.NarrowPrecision }

func (t Type) Physical() Physical {
	switch t.ID {
	case Vector:
		return PhysVector
	case Decimal:
		if t.IsWide() {
			return PhysWide
		}
		return PhysInt64
	case Int64, Datetime, Time:
		return PhysInt64
	case Float64:
		return PhysFloat64
	default:
		return PhysInt32
	}
}

// DecimalScale is the number of fraction digits a value's integer
// representation carries: Scale for DECIMAL, 0 for every other type.
func (t Type) DecimalScale() int {
	if t.ID == Decimal {
		return t.Scale
	}
	return 0
}

// IsInteger reports whether values are whole numbers (codes and dates excluded).
func (t Type) IsInteger() bool { return t.ID == Int32 || t.ID == Int64 }

// IsNumeric reports whether arithmetic applies.
func (t Type) IsNumeric() bool {
	return t.ID == Int32 || t.ID == Int64 || t.ID == Float64 || t.ID == Decimal
}

func (t Type) String() string {
	switch t.ID {
	case Int32:
		if t.Year {
			return "YEAR"
		}
		if t.Width == 0 {
			return "INT"
		}
		return intName(t.Width)
	case Int64:
		if t.Bit > 0 {
			return fmt.Sprintf("BIT(%d)", t.Bit)
		}
		if t.Unsigned && t.ZeroFill > 0 {
			return t.zeroFillName(intName(t.Width))
		}
		if t.Unsigned {
			return intName(t.Width) + " UNSIGNED"
		}
		return "BIGINT"
	case Float64:
		return t.floatName()
	case Decimal:
		if t.ZeroFill > 0 {
			return t.zeroFillName(fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale))
		}
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case Date:
		return "DATE"
	case Bool:
		return "BOOLEAN"
	case Datetime:
		name := "DATETIME"
		if t.Timestamp {
			name = "TIMESTAMP"
		}
		if t.Scale > 0 {
			return fmt.Sprintf("%s(%d)", name, t.Scale)
		}
		return name
	case Time:
		if t.Scale > 0 {
			return fmt.Sprintf("TIME(%d)", t.Scale)
		}
		return "TIME"
	case String:
		if t.JSON {
			return "JSON"
		}
		if t.Members != "" {
			return t.EnumName("ENUM", "SET")
		}
		name := "VARCHAR"
		switch {
		case t.Binary && t.Char:
			name = "BINARY"
		case t.Binary:
			name = "VARBINARY"
		case t.Char:
			name = "CHAR"
		}
		if t.Width > 0 {
			return fmt.Sprintf("%s(%d)", name, t.Width)
		}
		return name
	case Vector:
		if t.Dim > 0 {
			return fmt.Sprintf("VECTOR(%d)", t.Dim)
		}
		return "VECTOR"
	}
	return "UNKNOWN"
}

var (
	TInt32   = Type{ID: Int32}
	TInt64   = Type{ID: Int64}
	TFloat64 = Type{ID: Float64}
	TDate    = Type{ID: Date}
	TBool    = Type{ID: Bool}
	TString  = Type{ID: String}
	TJSON    = Type{ID: String, JSON: true}
	// TUint32 is INT UNSIGNED and TUint64 BIGINT UNSIGNED (see Type.Unsigned).
	TUint32 = Type{ID: Int64, Unsigned: true, Width: 32}
	TUint64 = Type{ID: Int64, Unsigned: true}
)

// TIntWidth returns the signed integer type of width 8, 16, 24 (TINYINT,
// SMALLINT, MEDIUMINT) or 32 (INT).
func TIntWidth(width int) Type {
	if width == 32 {
		return TInt32
	}
	return Type{ID: Int32, Width: width}
}

// TUintWidth returns the unsigned integer type of width 8, 16, 24 or 32.
func TUintWidth(width int) Type { return Type{ID: Int64, Unsigned: true, Width: width} }

// TDatetime returns DATETIME(fsp).
func TDatetime(fsp int) Type { return Type{ID: Datetime, Scale: fsp} }

// TDecimal returns DECIMAL(p,s).
func TDecimal(p, s int) Type { return Type{ID: Decimal, Precision: p, Scale: s} }

// TDecimalScaled is a scaled int64 DECIMAL of scale s and no declared
// precision: the executors' working type where only the scale matters
// (operands brought to one scale). It is never wide.
func TDecimalScaled(s int) Type { return Type{ID: Decimal, Scale: s} }

// Pow10 holds 10^i for decimal scaling.
var Pow10 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000, 100000000000, 1000000000000, 10000000000000,
	100000000000000, 1000000000000000, 10000000000000000, 100000000000000000,
	1000000000000000000}
