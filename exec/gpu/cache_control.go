//go:build cuda

package gpu

// DropColumnCache empties the device column cache, so that the next query
// starts cold: every column it touches is copied from host memory again
// (the bench command's cold runs).
func DropColumnCache() error {
	d, err := getDevice()
	if err != nil {
		return err
	}
	return d.do(func() error {
		d.dims.clear()
		d.cache.clear()
		d.dropNarrowed()
		return nil
	})
}
