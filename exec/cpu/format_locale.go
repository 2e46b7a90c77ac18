package cpu

import (
	"strings"

	"gpusql/sql"
)

// FORMAT(x, d, locale) writes the number with the locale's decimal point
// and thousands separator (MySQL 8's sql/sql_locale.cc; Item_func_format
// groups the integer digits by the locale's first grouping, and a locale
// whose grouping is unset, as fr_FR's, only changes the decimal point:
// FORMAT(12332.2, 2, 'de_DE') is 12.332,20, with 'fr_FR' 12332,20). The
// name is matched ignoring case. A locale of MySQL's not listed here is
// written as en_US's; a name MySQL does not know is too, with its warning
// 1649.

type numberLocale struct {
	point    byte
	thousand byte // 0: digits are not grouped
}

var numberLocales = map[string]numberLocale{
	"EN_US": {'.', ','}, "JA_JP": {'.', ','}, "GU_IN": {'.', ','}, "HE_IL": {'.', ','},
	"AR_AE": {'.', ','}, "AR_BH": {'.', ','}, "AR_JO": {'.', ','}, "AR_SY": {'.', ','}, "AR_SA": {'.', 0},
	"DE_DE": {',', '.'}, "DA_DK": {',', '.'}, "FO_FO": {',', '.'}, "BE_BY": {',', '.'},
	"RU_RU": {',', ' '}, "SV_SE": {',', ' '}, "FI_FI": {',', ' '}, "ET_EE": {',', ' '}, "CS_CZ": {',', ' '},
	"DE_AT": {',', 0}, "ES_ES": {',', 0}, "EU_ES": {',', 0}, "FR_FR": {',', 0}, "NL_NL": {',', 0},
	"PT_BR": {',', 0}, "CA_ES": {',', 0}, "GL_ES": {',', 0}, "EL_GR": {',', 0}, "RM_CH": {',', '\''},
}

// mysqlLocales are the names of MySQL 8's my_locales[] (sql_locale.cc);
// sr_YU, deprecated, stands for sr_RS.
var mysqlLocales = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`en_US en_GB ja_JP sv_SE de_DE fr_FR ar_AE ar_BH ar_JO ar_SA ar_SY be_BY
		bg_BG ca_ES cs_CZ da_DK de_AT es_ES et_EE eu_ES fi_FI fo_FO gl_ES gu_IN he_IL hi_IN hr_HR hu_HU
		id_ID is_IS it_CH ko_KR lt_LT lv_LV mk_MK mn_MN ms_MY nb_NO nl_NL pl_PL pt_BR pt_PT ro_RO ru_RU
		ru_UA sk_SK sl_SI sq_AL sr_RS ta_IN te_IN th_TH tr_TR uk_UA ur_PK vi_VN zh_CN zh_TW ar_DZ ar_EG
		ar_IN ar_IQ ar_KW ar_LB ar_LY ar_MA ar_OM ar_QA ar_SD ar_TN ar_YE de_BE de_CH de_LU en_AU en_CA
		en_IN en_NZ en_PH en_ZA en_ZW es_AR es_BO es_CL es_CO es_CR es_DO es_EC es_GT es_HN es_MX es_NI
		es_PA es_PE es_PR es_PY es_SV es_US es_UY es_VE fr_BE fr_CA fr_CH fr_LU it_IT nl_BE no_NO sv_FI
		zh_HK el_GR rm_CH sr_YU`) {
		mysqlLocales[strings.ToUpper(n)] = true
	}
}

// warnUnknownLocale is MySQL's ER_UNKNOWN_LOCALE.
const warnUnknownLocale uint16 = 1649

// localizeNumber rewrites FORMAT's en_US text s (',' groups, '.' point)
// in locale's. A locale MySQL does not know notes 1649, once for a
// constant one (Item_func_format resolves it once).
func localizeNumber(f *rowFunc, s, locale string) string {
	name := strings.ToUpper(locale)
	if !mysqlLocales[name] {
		msg := "Unknown locale: '" + locale + "'"
		if _, ok := f.expr.Args[2].(*sql.Const); ok {
			f.warn.AddOnce(f.expr, warnUnknownLocale, msg)
		} else {
			f.warn.Add(warnUnknownLocale, msg)
		}
		return s
	}
	lc, ok := numberLocales[name]
	if !ok || name == "EN_US" {
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
