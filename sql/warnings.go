package sql

import (
	"context"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
)

// Warnings as MySQL gives them (SHOW WARNINGS, @@warning_count): a
// statement that finishes may leave notes of what it did to values it
// could not take as written. gpusql keeps MySQL's for reading values:
//
//	1292  Truncated incorrect DOUBLE value: '1abc'     a string read as a number ('1abc' + 1,
//	      Truncated incorrect INTEGER value: '12abc'   CAST('12abc' AS SIGNED), CAST(s AS DECIMAL);
//	      Truncated incorrect DECIMAL value: 'x'       an integer past BIGINT clamped)
//	      Incorrect datetime value: 'x'               a string cast to DATE / DATETIME (TIME:
//	                                                  Incorrect time value) that is none: NULL
//	1365  Division by 0                                x / 0, x DIV 0, x % 0 (the value is NULL)
//	1411  Incorrect datetime value: 'x' for function str_to_date
//	1260  Row 1 was cut by GROUP_CONCAT()             a GROUP_CONCAT past @@group_concat_max_len
//	1105  Cast to unsigned converted negative integer  CAST('-1' AS UNSIGNED) (and its signed twin;
//	      to its positive complement                   exec/cpu/cast_integer_text.go)
//
// The binder notes those of constants it folds; the CPU executor notes one
// per row it reads (exec/cpu), and the planner keeps plans that could note
// any on the CPU (planner/warning_refusal.go). Writes in strict mode fail
// instead, as MySQL's do. Each connection keeps the warnings of its last
// statement (UserVars), and the error it failed with; SHOW WARNINGS, a
// diagnostic statement, reads them
// without replacing them, where a SELECT @@warning_count reads the count
// and then, as any other statement, starts a new list.

// Warning is one row of SHOW WARNINGS.
type Warning struct {
	Level   string // Warning, Note or Error
	Code    uint16
	Message string
}

// MySQL's warning codes gpusql gives.
const (
	WarnTruncatedValue   uint16 = 1292 // ER_TRUNCATED_WRONG_VALUE
	WarnDivisionByZero   uint16 = 1365 // ER_DIVISION_BY_ZERO
	WarnDatetimeForFunc  uint16 = 1411 // ER_WRONG_VALUE_FOR_TYPE
	NoteDataTruncated    uint16 = 1265 // WARN_DATA_TRUNCATED (a Note for a rounded DECIMAL)
	WarnCutGroupConcat   uint16 = 1260 // ER_CUT_VALUE_GROUP_CONCAT
	WarnUnknownError     uint16 = 1105 // ER_UNKNOWN_ERROR: a CAST that reinterpreted a string's 64 bits
	NoteUnknownTable     uint16 = 1051 // ER_BAD_TABLE_ERROR, a Note under IF EXISTS
	NoteTableExists      uint16 = 1050 // ER_TABLE_EXISTS_ERROR, a Note under IF NOT EXISTS
	WarnDatetimeOverflow uint16 = 1441 // ER_DATETIME_FUNCTION_OVERFLOW
)

// DatetimeOverflowText is 1441's text as date_add_interval words it for
// a DATE or DATETIME leaving 0000..9999 (it names "datetime" for both).
const DatetimeOverflowText = "Datetime function: datetime field overflow"

// TimeOverflowText is 1441's text for a TIME + INTERVAL past ±838:59:59.
const TimeOverflowText = "Datetime function: time field overflow"

// MaxWarnings is @@max_error_count: the warnings a statement keeps; it
// counts them all (@@warning_count).
const MaxWarnings = 1024

// Warnings collects one statement's warnings; executor workers add to it
// at once. A nil *Warnings discards them.
type Warnings struct {
	mu     sync.Mutex
	list   []Warning
	count  atomic.Int64 // past MaxWarnings, rows only count (no lock)
	errors int64
	once   map[any]bool
	// pending holds an attempt's AddOnce warnings (NewAttempt) until
	// Merge notes them in the statement's list, once each.
	pending   []onceWarning
	isAttempt bool
}

type onceWarning struct {
	key  any
	code uint16
	msg  string
}

// NewAttempt is a list for the warnings of one attempt at part of a
// statement (a spilled partition that may give up and run again):
// Merge notes them in the statement's list when the attempt succeeds; a
// failed attempt's are dropped with it.
func NewAttempt() *Warnings { return &Warnings{isAttempt: true} }

// Take moves what attempt w holds into a new attempt and leaves w empty:
// an executor worker notes a morsel's warnings in its own list and hands
// them over when the morsel is done, to be merged in row order. Only the
// goroutine that adds to w may call it.
func (w *Warnings) Take() *Warnings {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := &Warnings{list: w.list, pending: w.pending, isAttempt: true}
	t.count.Store(w.count.Swap(0))
	w.list, w.pending = nil, nil
	return t
}

// Merge notes the warnings of attempt a in w.
func (w *Warnings) Merge(a *Warnings) {
	if w == nil || a == nil {
		return
	}
	a.mu.Lock()
	list, pending, count := a.list, a.pending, a.count.Load()
	a.mu.Unlock()
	for _, x := range list {
		w.Add(x.Code, x.Message)
	}
	if extra := count - int64(len(list)); extra > 0 {
		w.count.Add(extra) // past MaxWarnings: counted, not kept
	}
	for _, p := range pending {
		w.AddOnce(p.key, p.code, p.msg)
	}
}

// Add notes a warning.
func (w *Warnings) Add(code uint16, msg string) { w.add("Warning", code, msg) }

// AddNote notes a Note (MySQL's lowest level: 1265 for a value rounded
// as it is stored, 1051 for DROP TABLE IF EXISTS of a table that is not
// there).
func (w *Warnings) AddNote(code uint16, msg string) { w.add("Note", code, msg) }

// add counts a warning or note and keeps the first MaxWarnings.
func (w *Warnings) add(level string, code uint16, msg string) {
	if w == nil {
		return
	}
	if w.count.Add(1) > MaxWarnings {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.list) < MaxWarnings {
		w.list = append(w.list, Warning{Level: level, Code: code, Message: msg})
	}
}

// AddError notes the error a statement failed with (SHOW ERRORS, and
// @@error_count; @@warning_count counts it too, as MySQL's does).
func (w *Warnings) AddError(code uint16, msg string) {
	if w == nil {
		return
	}
	w.count.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.errors++
	if len(w.list) < MaxWarnings {
		w.list = append(w.list, Warning{Level: "Error", Code: code, Message: msg})
	}
}

// Errors is @@error_count.
func (w *Warnings) Errors() int64 {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.errors
}

// AddOnce notes a warning once for key (a literal every executor worker
// converts).
func (w *Warnings) AddOnce(key any, code uint16, msg string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	if w.isAttempt {
		w.pending = append(w.pending, onceWarning{key, code, msg})
		w.mu.Unlock()
		return
	}
	if w.once == nil {
		w.once = map[any]bool{}
	}
	seen := w.once[key]
	w.once[key] = true
	w.mu.Unlock()
	if !seen {
		w.Add(code, msg)
	}
}

// List is a copy of the warnings kept.
func (w *Warnings) List() []Warning {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Warning(nil), w.list...)
}

// Count is @@warning_count: every warning noted, kept or not.
func (w *Warnings) Count() int64 {
	if w == nil {
		return 0
	}
	return w.count.Load()
}

// WarningsMark is what a Warnings held at one moment (Mark).
type WarningsMark struct {
	kept          int
	count, errors int64
	once          map[any]bool
}

// Mark notes the warnings so far; Rewind forgets those noted after it: an
// executor that gives up an attempt at the memory limit and runs its input
// again (to spill) notes the input's warnings once.
func (w *Warnings) Mark() WarningsMark {
	if w == nil {
		return WarningsMark{}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return WarningsMark{kept: len(w.list), count: w.count.Load(), errors: w.errors, once: maps.Clone(w.once)}
}

// Rewind forgets the warnings noted since m.
func (w *Warnings) Rewind(m WarningsMark) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = w.list[:min(m.kept, len(w.list))]
	w.count.Store(m.count)
	w.errors = m.errors
	w.once = m.once
}

// TruncatedValue is 1292's text for a string read as a number of typeName
// (DOUBLE, INTEGER, DECIMAL).
func TruncatedValue(typeName, s string) string {
	return "Truncated incorrect " + typeName + " value: '" + s + "'"
}

// NumberTypeName is the name MySQL's 1292 gives a conversion to t.
func NumberTypeName(integer, decimal bool) string {
	switch {
	case integer:
		return "INTEGER"
	case decimal:
		return "DECIMAL"
	}
	return "DOUBLE"
}

// TruncatesNumber reports whether reading s as a number drops some of it,
// which MySQL warns of: anything but spaces around one number (for an
// integer, digits only), and the empty string.
func TruncatesNumber(s string, integer bool) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return true
	}
	i := 0
	if t[0] == '+' || t[0] == '-' {
		i++
	}
	digits := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if !integer {
		if i < len(t) && t[i] == '.' {
			i++
			for i < len(t) && t[i] >= '0' && t[i] <= '9' {
				i, digits = i+1, digits+1
			}
		}
		if digits > 0 && i < len(t) && (t[i] == 'e' || t[i] == 'E') {
			j := i + 1
			if j < len(t) && (t[j] == '+' || t[j] == '-') {
				j++
			}
			k := j
			for k < len(t) && t[k] >= '0' && t[k] <= '9' {
				k++
			}
			if k > j {
				i = k
			}
		}
	}
	return digits == 0 || i != len(t)
}

// WarningError is a warning a statement in strict mode fails with.
type WarningError struct{ Warning Warning }

func (e *WarningError) Error() string { return e.Warning.Message }

type warningsKey struct{}

// WithWarnings returns ctx carrying the running statement's warnings.
func WithWarnings(ctx context.Context, w *Warnings) context.Context {
	return context.WithValue(ctx, warningsKey{}, w)
}

// WarningsFrom is the running statement's warnings (nil: none collected).
func WarningsFrom(ctx context.Context) *Warnings {
	w, _ := ctx.Value(warningsKey{}).(*Warnings)
	return w
}

// BeginWarnings starts the list of the connection's next statement and
// returns it.
func (u *UserVars) BeginWarnings() *Warnings {
	w := &Warnings{}
	u.mu.Lock()
	u.pendingWarnings = w
	u.mu.Unlock()
	return w
}

// EndWarnings ends the running statement: its list becomes the one SHOW
// WARNINGS reads, unless the statement was diagnostic (SHOW WARNINGS
// itself), which leaves the last one.
func (u *UserVars) EndWarnings(diagnostic bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !diagnostic && u.pendingWarnings != nil {
		u.lastWarnings = u.pendingWarnings
	}
	u.pendingWarnings = nil
}

// LastWarnings are the warnings of the connection's last statement.
func (u *UserVars) LastWarnings() *Warnings {
	if u == nil {
		return nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.lastWarnings
}
