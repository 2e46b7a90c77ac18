package sql

import (
	"strings"

	"gpusql/storage/columnar"
)

// A constant of UPDATE ... SET that the column cannot take ('abc' into an
// INT, '2020-13-01' into a DATE) is, in strict mode, MySQL's store error
// (1366 Incorrect integer value: 'abc' for column 'i' at row 1, 1264,
// 1292 Incorrect date value) as soon as a row matches, and nothing when
// none does. The binder words the error and sets the value to NULL (the
// statement fails before storing it); the engine raises it once it knows a
// row matched (Update.StoreError).

// storeConstError is strict mode's error for constant e assigned to f,
// or nil where f takes it.
func (b *binder) storeConstError(e Expr, f columnar.Field, pos int) *Error {
	c, ok := e.(*Const)
	if !ok || c.Null || c.T.ID != columnar.String || c.hex || !storeChecked(f.Type) {
		return nil
	}
	c = integerStoreText(c, f.Type)
	if v, ok := convertConst(c, f.Type); ok && strictOK(c, v) && !storeOutOfRange(c, f.Type) {
		return nil
	}
	return b.incorrectValue(pos, c, Column{Name: f.Name, Type: f.Type}, 1)
}

// storeChecked are the column types whose store errors the binder words.
func storeChecked(t columnar.Type) bool {
	switch {
	case t.Year || t.IsWide() || t.IsBigUnsigned():
		return false
	case t.ID == columnar.Int32, t.ID == columnar.Int64, t.ID == columnar.Decimal, t.ID == columnar.Float64, t.ID == columnar.Date:
		return true
	}
	return false
}

// StoreWarning is the warning of a SET constant a lenient UPDATE adjusted,
// for table column Column: Format holds one %d, the row.
type StoreWarning struct {
	Column int
	Code   uint16
	Format string
}

// storeWarning makes w, worded for the row "\x00", a StoreWarning of
// column f of t.
func storeWarning(t *columnar.Table, f columnar.Field, w Warning) StoreWarning {
	k := 0
	for i := range t.Fields {
		if t.Fields[i].Name == f.Name {
			k = i
		}
	}
	format := strings.ReplaceAll(strings.ReplaceAll(w.Message, "%", "%%"), "\x00", "%d")
	return StoreWarning{Column: k, Code: w.Code, Format: format}
}
