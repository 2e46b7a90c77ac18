package ssbgen

import "sync"

// runOrdered calls produce(b) for every block b in [0, n) on up to workers
// goroutines and consume on the results in block order on the calling
// goroutine, so a table's file is the concatenation of its blocks whatever
// the number of workers.
//
// At most 2×workers blocks are in flight (produced or being produced and not
// yet consumed), which bounds memory and lets block b use result slot
// b mod 2×workers: block b+2×workers is not dispatched before block b has
// been consumed. The first error, from either side, stops the run.
func runOrdered[T any](n, workers int, produce func(b int) (T, error), consume func(T) error) error {
	if n == 0 {
		return nil
	}
	workers = max(1, min(workers, n))
	window := 2 * workers
	type result struct {
		v   T
		err error
	}
	slots := make([]chan result, window)
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	tokens := make(chan struct{}, window)
	jobs := make(chan int)
	stop := make(chan struct{})

	go func() {
		defer close(jobs)
		for b := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- b:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for b := range jobs {
				v, err := produce(b)
				slots[b%window] <- result{v, err}
			}
		})
	}

	var err error
	for b := range n {
		r := <-slots[b%window]
		err = r.err
		if err == nil {
			err = consume(r.v)
		}
		<-tokens
		if err != nil {
			break
		}
	}
	close(stop)
	wg.Wait()
	return err
}
