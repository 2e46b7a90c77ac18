package columnar

import (
	"sort"
	"testing"
)

// TestCollationKeys: the manual's equalities and the PAD SPACE / NO PAD
// difference, by key.
func TestCollationKeys(t *testing.T) {
	for _, c := range []struct {
		coll, a, b string
		equal      bool
	}{
		{"utf8mb4_general_ci", "a", "A", true},
		{"utf8mb4_general_ci", "Ä", "a", true},
		{"utf8mb4_general_ci", "Ö", "o", true},
		{"utf8mb4_general_ci", "ß", "s", true},
		{"utf8mb4_general_ci", "ß", "ss", false},
		{"utf8mb4_general_ci", "a ", "a", true},
		{"utf8mb4_unicode_ci", "ß", "ss", true},
		{"utf8mb4_unicode_ci", "Ü", "u", true},
		{"utf8mb4_unicode_ci", "a  ", "A", true},
		{"utf8mb4_0900_ai_ci", "a ", "a", false},
		{"utf8mb4_0900_ai_ci", "résumé", "RESUME", true},
		{"utf8mb4_0900_ai_ci", "a", "b", false},
		{"utf8mb4_bin", "a", "A", false},
	} {
		if got := CollationKey(c.coll, c.a) == CollationKey(c.coll, c.b); got != c.equal {
			t.Errorf("%s: %q = %q is %v, want %v", c.coll, c.a, c.b, got, c.equal)
		}
	}
}

// TestCollationTagOrder: tags sort as their keys (ties by the string),
// keys with 0x00 bytes included, and untag gives the string back.
func TestCollationTagOrder(t *testing.T) {
	words := []string{"b", "A", "a\x00b", "a", "", "Ä", "ab", "a\x00", "B ", "ß", "st"}
	for _, coll := range []string{"utf8mb4_general_ci", "utf8mb4_0900_ai_ci", "utf8mb4_unicode_ci"} {
		byKey := append([]string(nil), words...)
		sort.SliceStable(byKey, func(i, j int) bool {
			ki, kj := CollationKey(coll, byKey[i]), CollationKey(coll, byKey[j])
			if ki != kj {
				return ki < kj
			}
			return byKey[i] < byKey[j]
		})
		byTag := append([]string(nil), words...)
		sort.Slice(byTag, func(i, j int) bool { return CollationTag(coll, byTag[i]) < CollationTag(coll, byTag[j]) })
		for i := range byKey {
			if byKey[i] != byTag[i] {
				t.Errorf("%s: by key %q, by tag %q", coll, byKey, byTag)
				break
			}
		}
		for _, w := range words {
			if got := CollationUntag(CollationTag(coll, w)); got != w {
				t.Errorf("%s: untag(tag(%q)) = %q", coll, w, got)
			}
		}
	}
}
