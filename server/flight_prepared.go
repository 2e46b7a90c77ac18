package server

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/flight"
	"github.com/apache/arrow/go/v15/arrow/flight/flightsql"
	"github.com/apache/arrow/go/v15/arrow/scalar"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gpusql/sql"
)

// Flight SQL prepared statements: CreatePreparedStatement checks the
// syntax and keeps the text under a random handle; the client binds
// parameters with DoPut (one row of values, one per '?'); executing
// substitutes them as literals, as the MySQL front end does.

func (f *flightSQL) CreatePreparedStatement(ctx context.Context, req flightsql.ActionCreatePreparedStatementRequest) (flightsql.ActionCreatePreparedStatementResult, error) {
	var res flightsql.ActionCreatePreparedStatementResult
	if _, err := sql.Parse(req.GetQuery()); err != nil {
		return res, flightError(&syntaxError{err})
	}
	handle := []byte(rand.Text())
	f.prepared.Store(string(handle), &flightPrepared{user: flightUser(ctx), query: req.GetQuery()})
	res.Handle = handle
	res.DatasetSchema = f.preparedSchema(ctx, req.GetQuery())
	return res, nil
}

// preparedSchema is the result schema of a prepared query, found by
// binding it with NULL for every parameter; nil when that does not bind
// (a parameter whose type decides a result column's) or it has no rows.
func (f *flightSQL) preparedSchema(ctx context.Context, query string) *arrow.Schema {
	nulls := make([]any, sql.Placeholders(query))
	text, err := sql.SubstituteParams(query, nulls)
	if err != nil {
		return nil
	}
	conn := f.srv.db.SessionConn(f.srv.sessionOptions(flightUser(ctx)))
	names, types, err := conn.ResultColumns(text)
	if err != nil || names == nil {
		return nil
	}
	return arrowSchema(names, types)
}

func (f *flightSQL) ClosePreparedStatement(_ context.Context, req flightsql.ActionClosePreparedStatementRequest) error {
	f.prepared.Delete(string(req.GetPreparedStatementHandle()))
	return nil
}

// statement finds a prepared statement of the calling user.
func (f *flightSQL) statement(ctx context.Context, handle []byte) (*flightPrepared, error) {
	v, ok := f.prepared.Load(string(handle))
	if !ok || v.(*flightPrepared).user != flightUser(ctx) {
		return nil, status.Error(codes.InvalidArgument, "prepared statement not found (closed, or another user's)")
	}
	return v.(*flightPrepared), nil
}

// text is the statement with its bound parameters substituted.
func (p *flightPrepared) text() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q, err := sql.SubstituteParams(p.query, p.params)
	if err != nil {
		return "", status.Error(codes.InvalidArgument, err.Error())
	}
	return q, nil
}

func (f *flightSQL) DoPutPreparedStatementQuery(ctx context.Context, cmd flightsql.PreparedStatementQuery, rdr flight.MessageReader, _ flight.MetadataWriter) error {
	p, err := f.statement(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return err
	}
	params, err := readParams(rdr)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.params = params
	p.mu.Unlock()
	return nil
}

// readParams takes the first row of the bound parameter batches.
func readParams(rdr flight.MessageReader) ([]any, error) {
	var params []any
	for rdr.Next() {
		rec := rdr.Record()
		if params != nil || rec.NumRows() == 0 {
			continue
		}
		if rec.NumRows() > 1 {
			return nil, status.Error(codes.InvalidArgument, "unsupported: binding more than one row of parameters")
		}
		params = make([]any, rec.NumCols())
		for c := range params {
			v, err := paramValue(rec.Column(int(c)))
			if err != nil {
				return nil, status.Errorf(codes.InvalidArgument, "parameter %d: %v", c+1, err)
			}
			params[c] = v
		}
	}
	return params, rdr.Err()
}

// paramValue is row 0 of a parameter column as a Go value sql.Literal
// writes.
func paramValue(col arrow.Array) (any, error) {
	sc, err := scalar.GetScalar(col, 0)
	if err != nil {
		return nil, err
	}
	if r, ok := sc.(scalar.Releasable); ok {
		defer r.Release()
	}
	return scalarValue(sc)
}

func scalarValue(sc scalar.Scalar) (any, error) {
	if !sc.IsValid() {
		return nil, nil
	}
	switch v := sc.(type) {
	case *scalar.Int8:
		return v.Value, nil
	case *scalar.Int16:
		return v.Value, nil
	case *scalar.Int32:
		return v.Value, nil
	case *scalar.Int64:
		return v.Value, nil
	case *scalar.Uint8:
		return v.Value, nil
	case *scalar.Uint16:
		return v.Value, nil
	case *scalar.Uint32:
		return v.Value, nil
	case *scalar.Uint64:
		return v.Value, nil
	case *scalar.Float32:
		return v.Value, nil
	case *scalar.Float64:
		return v.Value, nil
	case *scalar.Boolean:
		return v.Value, nil
	case *scalar.String:
		return string(v.Value.Bytes()), nil
	case *scalar.LargeString:
		return string(v.Value.Bytes()), nil
	case scalar.DateScalar:
		return v.ToTime(), nil
	case *scalar.Timestamp:
		return v.ToTime(), nil // a TIMESTAMP literal of its UTC time (sql.Literal)
	case *scalar.DenseUnion:
		return scalarValue(v.Value) // a client that binds through a union
	}
	return nil, fmt.Errorf("unsupported parameter type %s", sc.DataType())
}

func (f *flightSQL) GetFlightInfoPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if _, err := f.statement(ctx, cmd.GetPreparedStatementHandle()); err != nil {
		return nil, err
	}
	return ticketInfo(desc, desc.Cmd), nil
}

func (f *flightSQL) DoGetPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	p, err := f.statement(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, nil, err
	}
	q, err := p.text()
	if err != nil {
		return nil, nil, err
	}
	r, err := f.run(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	res, err := rowsOf(r)
	if err != nil {
		return nil, nil, err
	}
	sc, ch := stream(res)
	return sc, ch, nil
}

func (f *flightSQL) DoPutPreparedStatementUpdate(ctx context.Context, cmd flightsql.PreparedStatementUpdate, rdr flight.MessageReader) (int64, error) {
	p, err := f.statement(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return 0, err
	}
	params, err := readParams(rdr)
	if err != nil {
		return 0, err
	}
	q, err := sql.SubstituteParams(p.query, params)
	if err != nil {
		return 0, status.Error(codes.InvalidArgument, err.Error())
	}
	r, err := f.run(ctx, q)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected, nil
}
