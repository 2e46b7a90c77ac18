package planner

import (
	"fmt"

	"gpusql/sql"
)

// timeZoneOnCPU names the first operator that converts between UTC and
// the session time zone (sql/time_zone_bind.go: a TIMESTAMP column read,
// UNIX_TIMESTAMP / FROM_UNIXTIME outside UTC), so that the plan runs on
// the CPU. The conversion follows the zone's rules (daylight saving
// transitions, MySQL's choice in skipped and repeated hours), which no
// kernel holds; under UTC the binder adds no conversion and the plan is
// the GPU's as before.
func timeZoneOnCPU(p *Physical) string {
	for _, n := range p.Nodes() {
		reason := ""
		for _, e := range nodeExprs(n) {
			walkExpr(e, func(x sql.Expr) {
				if f, ok := x.(*sql.Func); ok && reason == "" && sql.IsTimeZoneFunc(f.Name) {
					reason = fmt.Sprintf("%s in %s: time zone conversions are computed on the CPU", f, opName(n))
				}
			})
		}
		if reason != "" {
			return reason
		}
	}
	return ""
}
