package cpu

import "strings"

// FORMAT(x, d, locale) writes the number with the locale's decimal point
// and thousands separator (MySQL 8's sql/sql_locale.cc; Item_func_format
// groups the integer digits by the locale's first grouping, and a locale
// whose grouping is unset, as fr_FR's, only changes the decimal point:
// FORMAT(12332.2, 2, 'de_DE') is 12.332,20, with 'fr_FR' 12332,20). A
// locale not listed here is written as en_US's.

type numberLocale struct {
	point    byte
	thousand byte // 0: digits are not grouped
}

var numberLocales = map[string]numberLocale{
	"en_US": {'.', ','}, "ja_JP": {'.', ','},
	"ar_AE": {'.', ','}, "ar_BH": {'.', ','}, "ar_JO": {'.', ','}, "ar_SY": {'.', ','}, "ar_SA": {'.', 0},
	"de_DE": {',', '.'}, "da_DK": {',', '.'}, "fo_FO": {',', '.'}, "be_BY": {',', '.'},
	"ru_RU": {',', ' '}, "sv_SE": {',', ' '}, "fi_FI": {',', ' '}, "et_EE": {',', ' '},
	"de_AT": {',', 0}, "es_ES": {',', 0}, "eu_ES": {',', 0}, "fr_FR": {',', 0}, "nl_NL": {',', 0},
	"pt_BR": {',', 0},
}

// localizeNumber rewrites FORMAT's en_US text s (',' groups, '.' point)
// in locale's.
func localizeNumber(s, locale string) string {
	lc, ok := numberLocales[locale]
	if !ok || locale == "en_US" {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',':
			if lc.thousand != 0 {
				sb.WriteByte(lc.thousand)
			}
		case '.':
			sb.WriteByte(lc.point)
		default:
			sb.WriteByte(s[i])
		}
	}
	return sb.String()
}
