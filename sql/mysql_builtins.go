package sql

import "strings"

// mysqlBuiltins are the names of MySQL 8.0's built-in scalar functions (the
// TiDB parser's list, pkg/parser/ast/functions.go, without TiDB's own): a
// call gpusql cannot bind is "unsupported" when MySQL has the function and
// MySQL's 1305 "FUNCTION db.name does not exist" otherwise.
var mysqlBuiltins = map[string]bool{
	"abs": true, "acos": true, "adddate": true, "addtime": true, "aes_decrypt": true, "aes_encrypt": true,
	"any_value": true, "ascii": true, "asin": true, "atan": true, "atan2": true, "benchmark": true,
	"bin": true, "bin_to_uuid": true, "bit_count": true, "bit_length": true, "ceil": true, "ceiling": true,
	"char_func": true, "char_length": true, "character_length": true, "charset": true, "coalesce": true, "coercibility": true,
	"collation": true, "compress": true, "concat": true, "concat_ws": true, "connection_id": true, "conv": true,
	"convert": true, "convert_tz": true, "cos": true, "cot": true, "crc32": true, "curdate": true,
	"current_date": true, "current_resource_group": true, "current_role": true, "current_time": true, "current_timestamp": true, "current_user": true,
	"curtime": true, "database": true, "date": true, "date_add": true, "date_format": true, "date_sub": true,
	"datediff": true, "day": true, "dayname": true, "dayofmonth": true, "dayofweek": true, "dayofyear": true,
	"decode": true, "default_func": true, "degrees": true, "elt": true, "encode": true, "exp": true,
	"export_set": true, "extract": true, "field": true, "find_in_set": true, "floor": true, "format": true,
	"format_bytes": true, "format_nano_time": true, "found_rows": true, "from_base64": true, "from_days": true, "from_unixtime": true,
	"get_format": true, "get_lock": true, "greatest": true, "grouping": true, "hex": true, "hour": true,
	"if": true, "ifnull": true, "inet6_aton": true, "inet6_ntoa": true, "inet_aton": true, "inet_ntoa": true,
	"insert_func": true, "instr": true, "interval": true, "is_free_lock": true, "is_ipv4": true, "is_ipv4_compat": true,
	"is_ipv4_mapped": true, "is_ipv6": true, "is_used_lock": true, "is_uuid": true, "json_array": true, "json_array_append": true,
	"json_array_insert": true, "json_contains": true, "json_contains_path": true, "json_depth": true, "json_extract": true, "json_insert": true,
	"json_keys": true, "json_length": true, "json_memberof": true, "json_merge": true, "json_merge_patch": true, "json_merge_preserve": true,
	"json_object": true, "json_overlaps": true, "json_pretty": true, "json_quote": true, "json_remove": true, "json_replace": true,
	"json_schema_valid": true, "json_search": true, "json_set": true, "json_storage_free": true, "json_storage_size": true, "json_sum_crc32": true,
	"json_type": true, "json_unquote": true, "json_valid": true, "last_day": true, "last_insert_id": true, "lcase": true,
	"least": true, "left": true, "length": true, "ln": true, "load_file": true, "localtime": true,
	"localtimestamp": true, "locate": true, "log": true, "log10": true, "log2": true, "lower": true,
	"lpad": true, "ltrim": true, "make_set": true, "makedate": true, "maketime": true, "mask_date": true,
	"mask_full": true, "mask_null": true, "mask_partial": true, "md5": true, "microsecond": true, "mid": true,
	"minute": true, "month": true, "monthname": true, "name_const": true, "now": true, "nullif": true,
	"oct": true, "octet_length": true, "ord": true, "password": true, "period_add": true, "period_diff": true,
	"pi": true, "position": true, "pow": true, "power": true, "quarter": true, "quote": true,
	"radians": true, "rand": true, "random_bytes": true, "regexp_instr": true, "regexp_like": true, "regexp_replace": true,
	"regexp_substr": true, "release_all_locks": true, "release_lock": true, "repeat": true, "replace": true, "reverse": true,
	"right": true, "round": true, "row": true, "row_count": true, "rpad": true, "rtrim": true,
	"schema": true, "sec_to_time": true, "second": true, "session_user": true, "sha": true, "sha1": true,
	"sha2": true, "sign": true, "sin": true, "sm3": true, "soundex": true, "space": true,
	"sqrt": true, "str_to_date": true, "strcmp": true, "subdate": true, "substr": true, "substring": true,
	"substring_index": true, "subtime": true, "sysdate": true, "system_user": true, "tan": true, "time": true,
	"time_format": true, "time_to_sec": true, "timediff": true, "timestamp": true, "timestampadd": true, "timestampdiff": true,
	"to_base64": true, "to_days": true, "to_seconds": true, "translate": true, "trim": true, "truncate": true,
	"ucase": true, "uncompress": true, "uncompressed_length": true, "unhex": true, "unix_timestamp": true, "upper": true,
	"user": true, "utc_date": true, "utc_time": true, "utc_timestamp": true, "uuid": true, "uuid_short": true,
	"uuid_timestamp": true, "uuid_to_bin": true, "uuid_v4": true, "uuid_v7": true, "uuid_version": true, "validate_password_strength": true,
	"version": true, "vitess_hash": true, "week": true, "weekday": true, "weekofyear": true, "weight_string": true,
	"year": true, "yearweek": true,
}

// mysqlOnlyBuiltins are MySQL 8.0 built-ins the TiDB parser's list lacks.
var mysqlOnlyBuiltins = map[string]bool{
	"statement_digest": true, "statement_digest_text": true, "icu_version": true, "roles_graphml": true,
	"ps_current_thread_id": true, "ps_thread_id": true, "format_bytes": true, "format_pico_time": true,
	"gtid_subset": true, "gtid_subtract": true, "wait_for_executed_gtid_set": true,
	"source_pos_wait": true, "master_pos_wait": true, "validate_password_strength": true,
}

// isMySQLBuiltin reports a name MySQL 8.0 has a built-in function of
// (spatial functions by their ST_ and MBR prefixes).
func isMySQLBuiltin(name string) bool {
	return mysqlBuiltins[name] || mysqlOnlyBuiltins[name] || strings.HasPrefix(name, "st_") || strings.HasPrefix(name, "mbr")
}
