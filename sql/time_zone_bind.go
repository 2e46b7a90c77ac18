package sql

import (
	"gpusql/storage/columnar"
)

// The binder's side of the session time zone (time_zone.go): TIMESTAMP
// columns read from tables are converted from UTC to the session zone,
// the clock functions read the session zone (the UTC_* ones UTC), and
// UNIX_TIMESTAMP / FROM_UNIXTIME convert between the zone and the epoch.
//
//	name           args                       result
//	zone_from_utc  us DATETIME, zone VARCHAR  DATETIME: the UTC instant us as wall-clock time in zone
//	zone_to_utc    us DATETIME, zone VARCHAR  DATETIME: the wall-clock time us in zone as a UTC instant
//
// Both are row functions of exec/cpu; the planner puts a plan that
// converts on the CPU (planner/time_zone_refusal.go); under UTC the binder
// adds neither and plans stay as they were. The zone is part of the plan
// cache's key (engine.planSettings).

func init() {
	moreFuncs[zoneFromUTC] = true
	moreFuncs[zoneToUTC] = true
}

const (
	zoneFromUTC = "zone_from_utc"
	zoneToUTC   = "zone_to_utc"
)

// IsTimeZoneFunc reports the functions converting between UTC and the
// session zone (the planner keeps them on the CPU).
func IsTimeZoneFunc(name string) bool { return name == zoneFromUTC || name == zoneToUTC }

// zone is the session's time zone (UTC for a binder without a session).
func (b *binder) zone() *TimeZone {
	if b.session == nil {
		return UTCZone
	}
	if z := b.session.TimeZone(); z != nil {
		return z
	}
	return UTCZone
}

// fromUTC converts a UTC DATETIME expression into the session zone,
// keeping its type (a TIMESTAMP column stays TIMESTAMP for clients).
func (b *binder) fromUTC(e Expr) Expr {
	z := b.zone()
	if z.IsUTC() {
		return e
	}
	return zoneFunc(zoneFromUTC, e, z)
}

// toUTC converts a session-zone DATETIME expression to UTC.
func (b *binder) toUTC(e Expr) Expr {
	z := b.zone()
	if z.IsUTC() {
		return e
	}
	if f, ok := e.(*Func); ok && f.Name == zoneFromUTC {
		return f.Args[0] // a TIMESTAMP column as stored: UNIX_TIMESTAMP(ts) reads it directly
	}
	return zoneFunc(zoneToUTC, e, z)
}

func zoneFunc(name string, e Expr, z *TimeZone) Expr {
	if c, ok := e.(*Const); ok {
		if c.Null {
			return c
		}
		v := *c
		if name == zoneFromUTC {
			v.I = z.FromUTC(c.I)
		} else {
			v.I = z.ToUTC(c.I)
		}
		return &v
	}
	return &Func{Name: name, Args: []Expr{e, &Const{T: columnar.TString, S: z.Name}}, T: e.Type()}
}

// zoneScan is a scan of a table whose TIMESTAMP columns read in the
// session zone: the scan itself, or a projection over it converting them.
func (b *binder) zoneScan(s *Scan) Plan {
	if b.zone().IsUTC() {
		return s
	}
	convert := false
	exprs := make([]Expr, len(s.Out))
	names := make([]string, len(s.Out))
	for i, c := range s.Out {
		names[i] = c.Name
		exprs[i] = &ColRef{Index: i, Col: c}
		if c.Type.ID == columnar.Datetime && c.Type.Timestamp {
			exprs[i] = b.fromUTC(exprs[i])
			convert = true
		}
	}
	if !convert {
		return s
	}
	p := newProject(s, exprs, names)
	for i, c := range s.Out {
		p.Out[i].Table, p.Out[i].Nullable = c.Table, c.Nullable // qualified names still resolve
	}
	return p
}

// stmtUTCMicros is the statement's clock in UTC as a DATETIME(fsp) value
// (UTC_TIMESTAMP, UTC_DATE, UTC_TIME).
func (b *binder) stmtUTCMicros(fsp int) int64 {
	us := b.stmtNow().UnixMicro()
	unit := columnar.Pow10[columnar.MaxFsp-fsp]
	return us - (us%unit+unit)%unit
}

// storedDatetime is the value a DATETIME or TIMESTAMP column of type t
// stores for the session-zone value us (what its range is checked on).
func (b *binder) storedDatetime(t columnar.Type, us int64) int64 {
	if t.Timestamp {
		return b.zone().ToUTC(us)
	}
	return us
}
