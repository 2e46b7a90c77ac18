package ssbgen

import "strings"

// createTables are the standard SSB CREATE TABLE statements, as in
// /work/shared/ssb/schema.sql.
const createTables = `create table lineorder (lo_orderkey bigint, lo_linenumber int, lo_custkey int, lo_partkey int, lo_suppkey int,
  lo_orderdate int, lo_orderpriority varchar(15), lo_shippriority varchar(1), lo_quantity int,
  lo_extendedprice bigint, lo_ordtotalprice bigint, lo_discount int, lo_revenue bigint, lo_supplycost bigint,
  lo_tax int, lo_commitdate int, lo_shipmode varchar(10));
create table part (p_partkey int, p_name varchar(22), p_mfgr varchar(6), p_category varchar(7), p_brand1 varchar(9),
  p_color varchar(11), p_type varchar(25), p_size int, p_container varchar(10));
create table supplier (s_suppkey int, s_name varchar(25), s_address varchar(25), s_city varchar(10),
  s_nation varchar(15), s_region varchar(12), s_phone varchar(15));
create table customer (c_custkey int, c_name varchar(25), c_address varchar(25), c_city varchar(10),
  c_nation varchar(15), c_region varchar(12), c_phone varchar(15), c_mktsegment varchar(10));
create table date (d_datekey int, d_date varchar(18), d_dayofweek varchar(9), d_month varchar(9), d_year int,
  d_yearmonthnum int, d_yearmonth varchar(7), d_daynuminweek int, d_daynuminmonth int, d_daynuminyear int,
  d_monthnuminyear int, d_weeknuminyear int, d_sellingseason varchar(12), d_lastdayinweekfl varchar(1),
  d_lastdayinmonthfl varchar(1), d_holidayfl varchar(1), d_weekdayfl varchar(1));
`

// loadOrder is the order of the load statements in schema.sql.
var loadOrder = []string{"lineorder", "part", "supplier", "customer", "date"}

// SchemaSQL returns the contents of schema.sql for files in format: the SSB
// tables and one statement per table that loads its file, by a path relative
// to the script's folder.
func SchemaSQL(format Format) string {
	if format == "" {
		format = FormatTbl
	}
	var b strings.Builder
	b.WriteString("-- The standard SSB schema in MySQL syntax; paths resolve against this script's folder.\n")
	b.WriteString(createTables)
	for _, t := range loadOrder {
		file := t + "." + string(format)
		switch format {
		case FormatCSV:
			b.WriteString("load data infile '" + file + "' into table " + t +
				" fields terminated by ',' enclosed by '\"' ignore 1 lines;\n")
		case FormatParquet:
			b.WriteString("import into " + t + " from '" + file + "' format 'parquet';\n")
		default:
			b.WriteString("load data infile '" + file + "' into table " + t +
				" fields terminated by '|';\n")
		}
	}
	return b.String()
}
