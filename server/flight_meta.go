package server

import (
	"context"
	"sort"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/flight"
	"github.com/apache/arrow/go/v15/arrow/flight/flightsql"
	"github.com/apache/arrow/go/v15/arrow/flight/flightsql/schema_ref"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"gpusql/sql"
)

// Flight SQL catalog metadata: no catalogs, one schema (sql.DatabaseName),
// its tables and views with their Arrow schemas when asked.

func metaInfo(desc *flight.FlightDescriptor, schema *arrow.Schema) *flight.FlightInfo {
	info := ticketInfo(desc, desc.Cmd)
	info.Schema = flight.SerializeSchema(schema, memory.DefaultAllocator)
	return info
}

// one streams a single record.
func one(rec arrow.Record) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	ch := make(chan flight.StreamChunk, 1)
	ch <- flight.StreamChunk{Data: rec}
	close(ch)
	return rec.Schema(), ch, nil
}

// stringsRecord builds a one-record batch of string columns.
func stringsRecord(schema *arrow.Schema, cols ...[]string) arrow.Record {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for j, vals := range cols {
		sb := b.Field(j).(*array.StringBuilder)
		for _, v := range vals {
			sb.Append(v)
		}
	}
	return b.NewRecord()
}

func (f *flightSQL) GetFlightInfoCatalogs(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.Catalogs), nil
}

func (f *flightSQL) DoGetCatalogs(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return one(stringsRecord(schema_ref.Catalogs, nil))
}

func (f *flightSQL) GetFlightInfoSchemas(_ context.Context, _ flightsql.GetDBSchemas, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.DBSchemas), nil
}

func (f *flightSQL) DoGetDBSchemas(_ context.Context, cmd flightsql.GetDBSchemas) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema_ref.DBSchemas)
	defer b.Release()
	if p := cmd.GetDBSchemaFilterPattern(); p == nil || sql.LikeMatch(sql.DatabaseName, *p) {
		b.Field(0).AppendNull()
		b.Field(1).(*array.StringBuilder).Append(sql.DatabaseName)
	}
	return one(b.NewRecord())
}

func (f *flightSQL) GetFlightInfoTableTypes(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.TableTypes), nil
}

func (f *flightSQL) DoGetTableTypes(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return one(stringsRecord(schema_ref.TableTypes, []string{"TABLE", "VIEW"}))
}

func (f *flightSQL) GetFlightInfoTables(_ context.Context, cmd flightsql.GetTables, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if cmd.GetIncludeSchema() {
		return metaInfo(desc, schema_ref.TablesWithIncludedSchema), nil
	}
	return metaInfo(desc, schema_ref.Tables), nil
}

// DoGetTables lists the tables and views matching the filters; with
// IncludeSchema each row carries the Arrow schema of its columns (a
// view's is its query's, found by binding it).
func (f *flightSQL) DoGetTables(ctx context.Context, cmd flightsql.GetTables) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	schema := schema_ref.Tables
	if cmd.GetIncludeSchema() {
		schema = schema_ref.TablesWithIncludedSchema
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	if p := cmd.GetDBSchemaFilterPattern(); p != nil && !sql.LikeMatch(sql.DatabaseName, *p) {
		return one(b.NewRecord())
	}
	types := map[string]bool{}
	for _, t := range cmd.GetTableTypes() {
		types[t] = true
	}
	cat := f.srv.db.Catalog()
	type entry struct{ name, kind string }
	var entries []entry
	for _, n := range cat.Names() {
		entries = append(entries, entry{n, "TABLE"})
	}
	for _, n := range cat.ViewNames() {
		entries = append(entries, entry{n, "VIEW"})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	for _, e := range entries {
		if p := cmd.GetTableNameFilterPattern(); p != nil && !sql.LikeMatch(e.name, *p) {
			continue
		}
		if len(types) > 0 && !types[e.kind] {
			continue
		}
		b.Field(0).AppendNull()
		b.Field(1).(*array.StringBuilder).Append(sql.DatabaseName)
		b.Field(2).(*array.StringBuilder).Append(e.name)
		b.Field(3).(*array.StringBuilder).Append(e.kind)
		if cmd.GetIncludeSchema() {
			b.Field(4).(*array.BinaryBuilder).Append(flight.SerializeSchema(f.columnsSchema(ctx, e.name), memory.DefaultAllocator))
		}
	}
	return one(b.NewRecord())
}

// columnsSchema is the Arrow schema of a table's or view's columns: the
// result schema of SELECT * ... LIMIT 0.
func (f *flightSQL) columnsSchema(ctx context.Context, name string) *arrow.Schema {
	r, err := f.run(ctx, "select * from `"+name+"` limit 0")
	if err != nil || r.Result == nil {
		return arrow.NewSchema(nil, nil)
	}
	return r.Result.Schema()
}
