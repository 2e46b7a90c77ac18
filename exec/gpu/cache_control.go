//go:build cuda

package gpu

// DropColumnCache empties the column caches of every opened device, so
// that the next query starts cold: every column it touches is copied from
// host memory again (the bench command's cold runs).
func DropColumnCache() error {
	if _, err := getDevice(); err != nil {
		return err
	}
	for _, d := range openedDevices() {
		err := d.do(func() error {
			d.dims.clear()
			d.zoneBits.clear(d)
			d.cache.clear()
			d.dropNarrowed()
			d.dropRemapUploads()
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
