package sql

import (
	"errors"
	"regexp/syntax"
	"strconv"
	"strings"
)

// RegexpError is a pattern MySQL's regular expression library (ICU)
// refuses too, with the code and text MySQL gives it (check_icu_status):
// SELECT REGEXP_SUBSTR('a', '(') is 3691 "Mismatched parenthesis in
// regular expression.", not a generic failure.
type RegexpError struct {
	Code uint16
	Msg  string
}

func (e *RegexpError) Error() string                         { return e.Msg }
func (e *RegexpError) MySQLError() (code uint16, msg string) { return e.Code, e.Msg }

// icuError is MySQL's error for the RE2 compile error err, nil where
// gpusql's RE2 refuses a pattern for a reason ICU does not share (a
// lookaround, a count past 1000) or ICU's answer is not known here.
func icuError(err error, pattern string) *RegexpError {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch se.Code {
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
		return &RegexpError{3691, "Mismatched parenthesis in regular expression."} // ER_REGEXP_MISMATCHED_PAREN
	case syntax.ErrMissingBracket:
		return &RegexpError{3696, "The regular expression contains an unclosed bracket expression."} // ER_REGEXP_MISSING_CLOSE_BRACKET
	case syntax.ErrTrailingBackslash: // not ErrInvalidEscape: RE2 says so of \1, a backreference ICU has
		return &RegexpError{3689, "Unrecognized escape sequence in regular expression."} // ER_REGEXP_BAD_ESCAPE_SEQUENCE
	case syntax.ErrInvalidCharRange:
		// [z-a]; RE2 words an unknown [:class:] the same way, which ICU
		// calls an illegal argument instead.
		if !strings.HasPrefix(se.Expr, "[:") {
			return &RegexpError{3697, "The regular expression contains an invalid range."} // ER_REGEXP_INVALID_RANGE
		}
		if e := unknownPosixClass(se.Expr); e != nil {
			return e
		}
	case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
		if e := repeatWithoutOperand(pattern); e != nil {
			return e
		}
	case syntax.ErrInvalidRepeatSize:
		if maxBelowMin(se.Expr) {
			// MySQL's text has the typo.
			return &RegexpError{3693, "The maximum is less than the minumum in a {min,max} interval."} // ER_REGEXP_MAX_LT_MIN
		}
	}
	return nil
}

// maxBelowMin reports whether a repetition {m,n} RE2 refused has n < m
// (its other reason, a count past 1000, ICU accepts).
func maxBelowMin(expr string) bool {
	i := strings.LastIndexByte(expr, '{')
	if i < 0 || !strings.HasSuffix(expr, "}") {
		return false
	}
	lo, hi, ok := strings.Cut(expr[i+1:len(expr)-1], ",")
	m, err1 := strconv.Atoi(lo)
	n, err2 := strconv.Atoi(hi)
	return ok && err1 == nil && err2 == nil && n < m
}
