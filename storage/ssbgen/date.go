package ssbgen

import (
	"strconv"
	"time"
)

// The date dimension reproduces ssb-dbgen's date.tbl byte for byte, quirks
// included, because queries filter on its text columns and flags:
//   - it covers 1992-01-01 through 1998-12-30 (2,556 days; dbgen stops one
//     day short of the year);
//   - weekday names run one day ahead of the calendar (1992-01-01, a
//     Wednesday, is "Thursday"), and d_daynuminweek, d_lastdayinweekfl
//     (Saturday) and d_weekdayfl (Monday..Friday) follow those names;
//   - months 8 and 10 are spelled "Augest" and "Octorber" in d_date and
//     d_month, but d_yearmonth says "Aug" and "Oct";
//   - d_weeknuminyear is d_daynuminyear/7+1;
//   - d_lastdayinmonthfl is "0" on the last day of a month and "1" on the
//     others;
//   - d_holidayfl marks the same ten days each year (holidays below).
// The test compares the output with dbgen's file.

var dateSpecs = []colSpec{
	{"d_datekey", kindInt32}, {"d_date", kindString}, {"d_dayofweek", kindString},
	{"d_month", kindString}, {"d_year", kindInt32}, {"d_yearmonthnum", kindInt32},
	{"d_yearmonth", kindString}, {"d_daynuminweek", kindInt32},
	{"d_daynuminmonth", kindInt32}, {"d_daynuminyear", kindInt32},
	{"d_monthnuminyear", kindInt32}, {"d_weeknuminyear", kindInt32},
	{"d_sellingseason", kindString}, {"d_lastdayinweekfl", kindString},
	{"d_lastdayinmonthfl", kindString}, {"d_holidayfl", kindString},
	{"d_weekdayfl", kindString},
}

const (
	dateRows = 2556
	// orderDays is how many days lo_orderdate ranges over: dbgen's orders
	// end 151 days before its calendar (1998-08-02), leaving room for ship
	// and receipt dates.
	orderDays = dateRows + 1 - 151
)

var (
	dateStart  = time.Date(1992, time.January, 1, 0, 0, 0, 0, time.UTC)
	monthNames = [12]string{"January", "February", "March", "April", "May", "June",
		"July", "Augest", "September", "Octorber", "November", "December"}
	monthAbbrevs = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	dayNames = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
		"Friday", "Saturday"}
	// seasons by month.
	seasons = [12]string{"Winter", "Winter", "Winter", "Spring", "Summer", "Summer",
		"Summer", "Summer", "Fall", "Fall", "Christmas", "Christmas"}
	// holidays are day of month by month; 0 means none that month.
	holidays = [12]int{1, 20, 0, 20, 20, 0, 20, 20, 20, 20, 20, 24}
)

// dateKeys[i] is d_datekey (yyyymmdd) of day i after 1992-01-01.
var dateKeys = func() [dateRows]int32 {
	var k [dateRows]int32
	for i := range k {
		y, m, d := dateStart.AddDate(0, 0, i).Date()
		k[i] = int32(y*10000 + int(m)*100 + d)
	}
	return k
}()

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func fillDate(bt *batch) {
	c := bt.cols
	for i := range dateRows {
		t := dateStart.AddDate(0, 0, i)
		y, m, d := t.Date()
		mi := int(m) - 1
		dow := (int(t.Weekday()) + 1) % 7 // dbgen's day names, Sunday = 0
		yday := t.YearDay()
		lastOfMonth := t.AddDate(0, 0, 1).Month() != m

		c[0].int(int64(dateKeys[i]))
		c[1].data = append(c[1].data, monthNames[mi]...)
		c[1].data = append(c[1].data, ' ')
		c[1].data = strconv.AppendInt(c[1].data, int64(d), 10)
		c[1].data = append(c[1].data, ", "...)
		c[1].data = strconv.AppendInt(c[1].data, int64(y), 10)
		c[1].end()
		c[2].str(dayNames[dow])
		c[3].str(monthNames[mi])
		c[4].int(int64(y))
		c[5].int(int64(y*100 + int(m)))
		c[6].data = append(c[6].data, monthAbbrevs[mi]...)
		c[6].data = strconv.AppendInt(c[6].data, int64(y), 10)
		c[6].end()
		c[7].int(int64(dow + 1))
		c[8].int(int64(d))
		c[9].int(int64(yday))
		c[10].int(int64(m))
		c[11].int(int64(yday/7 + 1))
		c[12].str(seasons[mi])
		c[13].str(flag(dow == 6))
		c[14].str(flag(!lastOfMonth))
		c[15].str(flag(holidays[mi] == d))
		c[16].str(flag(dow >= 1 && dow <= 5))
	}
	bt.rows = dateRows
}
