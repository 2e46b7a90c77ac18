package columnar

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// A VECTOR column stores its float32 elements row after row in one
// contiguous vector, Column.F32, so that a distance kernel streams it at
// memory bandwidth and the GPU can copy it as one block:
//
//   - VECTOR(n) (Type.Dim = n > 0): row i is F32[i*n : (i+1)*n]; a NULL row
//     holds n zeros. This is the layout the similarity join reads.
//   - VECTOR (Type.Dim = 0, any length per row): row i is
//     F32[Offsets[i] : Offsets[i+1]]; a NULL row is empty.
//
// NULLs are the validity bitmap as for every other type. Text form is
// TiDB's: '[0.5,1,2]', elements printed as the shortest decimal that reads
// back as the same float32.

// MaxVectorDim is the most elements a vector may have (TiDB's limit).
const MaxVectorDim = 16383

// VectorAt returns row i of a Vector column (empty for NULL rows of a
// VECTOR column). The slice aliases the column: do not modify it.
func (c *Column) VectorAt(i int) []float32 {
	if d := c.Type.Dim; d > 0 {
		return c.F32[i*d : (i+1)*d : (i+1)*d]
	}
	return c.F32[c.Offsets[i]:c.Offsets[i+1]:c.Offsets[i+1]]
}

// VectorError says why a text is not a vector value; loaders add the
// file, line and column.
type VectorError struct{ Msg string }

func (e *VectorError) Error() string { return e.Msg }

// ParseVector parses TiDB's text form of a vector, '[1, 2.5, -3e2]' (a JSON
// array of numbers), into float32 elements appended to dst. NaN, infinities
// and numbers past float32's range are rejected; so is a vector of more
// than MaxVectorDim elements.
func ParseVector(dst []float32, text []byte) ([]float32, error) {
	s := bytes.TrimSpace(text)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return dst, invalidVector(text)
	}
	body := bytes.TrimSpace(s[1 : len(s)-1])
	if len(body) == 0 {
		return dst, nil
	}
	start := len(dst)
	for len(body) > 0 {
		tok := body
		rest := []byte(nil)
		if k := bytes.IndexByte(body, ','); k >= 0 {
			tok, rest = body[:k], body[k+1:]
			if len(bytes.TrimSpace(rest)) == 0 {
				return dst, invalidVector(text) // trailing comma
			}
		}
		tok = bytes.TrimSpace(tok)
		v, err := parseVectorElement(tok, text)
		if err != nil {
			return dst, err
		}
		if len(dst)-start == MaxVectorDim {
			return dst, &VectorError{fmt.Sprintf("vector cannot have more than %d dimensions", MaxVectorDim)}
		}
		dst = append(dst, v)
		body = rest
	}
	return dst, nil
}

// parseVectorElement parses one JSON number of a vector's text.
func parseVectorElement(tok, text []byte) (float32, error) {
	if !isJSONNumber(tok) {
		switch t := string(bytes.ToLower(bytes.TrimLeft(tok, "+-"))); t {
		case "nan":
			return 0, &VectorError{"NaN not allowed in vector"}
		case "inf", "infinity":
			return 0, &VectorError{"infinite value not allowed in vector"}
		}
		return 0, invalidVector(text)
	}
	// Rounded once, straight to float32, so the text FormatVector writes
	// reads back to the same bits.
	v, err := strconv.ParseFloat(string(tok), 32)
	if err != nil || math.IsInf(v, 0) {
		return 0, &VectorError{fmt.Sprintf("vector element %s is out of range for float32", tok)}
	}
	return float32(v), nil
}

// isJSONNumber reports whether tok is a JSON number: -?digits[.digits][e[+-]digits].
func isJSONNumber(tok []byte) bool {
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if digits() == 0 {
		return false
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(tok)
}

func invalidVector(text []byte) error {
	return &VectorError{fmt.Sprintf("invalid vector text %s (want [x, y, ...])", quoteField(text))}
}

// CheckVectorDim reports a vector of n elements that does not fit t.
func CheckVectorDim(n int, t Type) error {
	if t.Dim > 0 && n != t.Dim {
		return &VectorError{fmt.Sprintf("vector has %d dimensions, does not fit %s", n, t)}
	}
	return nil
}

// FormatVector appends the text form of v to buf: '[0.5,1,2]'.
func FormatVector(buf []byte, v []float32) []byte {
	buf = append(buf, '[')
	for i, x := range v {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendFloat(buf, float64(x), 'f', -1, 32)
	}
	return append(buf, ']')
}

// VectorText is the text form of v as a string.
func VectorText(v []float32) string { return string(FormatVector(nil, v)) }

// CompareVectors orders vectors as TiDB does: element by element, then a
// shorter vector (a prefix of the other) first.
func CompareVectors(a, b []float32) int {
	for i := range min(len(a), len(b)) {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}
