package driver

import "database/sql/driver"

// CheckNamedValue lets a uint64 argument through as it is (database/sql's
// default converter refuses one with the top bit set): it binds as a
// BIGINT UNSIGNED literal, so `b = ?` with 18446744073709551615 works.
// Every other value goes through the default conversion.
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if _, ok := nv.Value.(uint64); ok {
		return nil
	}
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err == nil {
		nv.Value = v
	}
	return err
}
