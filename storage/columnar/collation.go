package columnar

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// The case-insensitive collations gpusql compares by when a query names
// one (x COLLATE utf8mb4_general_ci, a column declared with it; the binder's
// side is sql/collation.go, unique keys use them in catalog.KeyOf). Strings
// are otherwise compared by their bytes (utf8mb4_bin), which is what the
// reference databases of gpusql's tests do. Each collation turns a string
// into a key whose byte order is the collation's order (CollationKey), so
// comparisons, sorts, hashing and DISTINCT work on keys as on any string.
//
//   - utf8mb4_general_ci (and utf8mb3_/utf8_general_ci): one weight per
//     character, the upper case of its unaccented letter (MySQL's manual:
//     'a' = 'A', Ä = A, Ö = O, Ü = U, ß = s); characters past U+FFFF weigh
//     as U+FFFD; PAD SPACE (trailing spaces do not count).
//   - utf8mb4_unicode_ci (UCA 4.0.0 in MySQL): accent- and case-
//     insensitive multi-level weights (ß = ss), PAD SPACE.
//   - utf8mb4_0900_ai_ci (UCA 9.0.0): the same weights, NO PAD ('a ' is
//     not 'a').
//
// The UCA ones take their weights from golang.org/x/text/collate (the
// root locale's CLDR table at primary strength, so case and accents are
// ignored); its Unicode version is newer than MySQL's, which changes only
// the order of rare scripts.

// Collation kinds.
const (
	collationBytes = iota
	collationGeneralCI
	collationUnicodeCI
	collation0900AICI
)

// ciCollations are the case-insensitive collations gpusql knows by name.
var ciCollations = map[string]int{
	"utf8mb4_general_ci": collationGeneralCI, "utf8mb3_general_ci": collationGeneralCI, "utf8_general_ci": collationGeneralCI,
	"utf8mb4_unicode_ci": collationUnicodeCI, "utf8mb3_unicode_ci": collationUnicodeCI, "utf8_unicode_ci": collationUnicodeCI,
	"utf8mb4_0900_ai_ci": collation0900AICI,
}

// IsCICollation reports whether name is one of the case-insensitive
// collations above.
func IsCICollation(name string) bool { return ciCollations[name] != collationBytes }

// ucaCollators are collators at primary strength, pooled: a Collator keeps
// a buffer and is not safe for concurrent use.
var ucaCollators = sync.Pool{New: func() any { return collate.New(language.Und, collate.Loose) }}

// CollationKey is s's sort key under collation name: two strings are
// equal in the collation when their keys are equal, and ordered as their
// keys' bytes.
func CollationKey(name, s string) string {
	switch ciCollations[name] {
	case collationGeneralCI:
		return generalCIKey(strings.TrimRight(s, " "))
	case collationUnicodeCI:
		return ucaKey(strings.TrimRight(s, " "))
	case collation0900AICI:
		return ucaKey(s)
	}
	return s
}

// CollationMatchKey is s's key under collation name without PAD SPACE's
// trimming: MySQL's INSTR and LOCATE compare a window of the haystack as
// long in bytes as the needle with strnncoll, which compares trailing
// spaces too (INSTR('a  ' COLLATE utf8mb4_general_ci, 'á ') is 0).
func CollationMatchKey(name, s string) string {
	switch ciCollations[name] {
	case collationGeneralCI:
		return generalCIKey(s)
	case collationUnicodeCI, collation0900AICI:
		return ucaKey(s)
	}
	return s
}

func ucaKey(s string) string {
	c := ucaCollators.Get().(*collate.Collator)
	defer ucaCollators.Put(c)
	var buf collate.Buffer
	return string(c.KeyFromString(&buf, s))
}

// generalCIKey maps every character to its weight, written as UTF-8 (so
// the keys' byte order is the weights' order).
func generalCIKey(s string) string {
	var sb strings.Builder
	for _, r := range s {
		sb.WriteRune(generalCIWeight(r))
	}
	return sb.String()
}

// generalCIWeight is a character's utf8mb4_general_ci weight.
func generalCIWeight(r rune) rune {
	switch {
	case r > 0xFFFF:
		return utf8.RuneError
	case r == 'ß':
		return 'S'
	}
	return unicode.ToUpper(baseLetter(r))
}

// baseLetter is r without its accents: the first character of its
// canonical decomposition (Ä -> A).
func baseLetter(r rune) rune {
	if r < utf8.RuneSelf {
		return r
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	d := norm.NFD.Bytes(buf[:n])
	b, _ := utf8.DecodeRune(d)
	return b
}

// CollationFold folds s character by character for LIKE under collation
// name: the LIKE wildcards map to themselves, so a folded pattern matches
// a folded string as the collation's LIKE matches the originals (case and
// accents ignored; ß is ss in the UCA collations, s in general_ci).
func CollationFold(name, s string) string {
	kind := ciCollations[name]
	if kind == collationBytes {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		switch {
		case kind == collationGeneralCI:
			sb.WriteRune(generalCIWeight(r))
		case r == 'ß':
			sb.WriteString("SS")
		default:
			sb.WriteRune(unicode.ToUpper(baseLetter(r)))
		}
	}
	return sb.String()
}

// CollationTag is s prefixed by its key under collation name, escaped so
// that the tags of two strings order as their keys (0x00 is written 0x00
// 0x01 and the key ends with 0x00 0x00), then s itself: MIN and MAX of
// tags by bytes are the tags of the strings with the smallest and largest
// keys. CollationUntag gives s back.
func CollationTag(name, s string) string {
	key := CollationKey(name, s)
	var sb strings.Builder
	sb.Grow(len(key) + len(s) + 4)
	for i := 0; i < len(key); i++ {
		sb.WriteByte(key[i])
		if key[i] == 0 {
			sb.WriteByte(1)
		}
	}
	sb.WriteString("\x00\x00")
	sb.WriteString(s)
	return sb.String()
}

// CollationUntag is the string a CollationTag was made of.
func CollationUntag(tag string) string {
	for i := 0; i+1 < len(tag); i++ {
		if tag[i] == 0 {
			if tag[i+1] == 0 {
				return tag[i+2:]
			}
			i++ // an escaped 0x00
		}
	}
	return tag
}
