//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"os"
	"time"

	"gpusql/exec"
	"gpusql/planner"
)

// execute sends a plan to the devices its GPU plan names: a split star to
// every device of the split (star_split.go), an ε-join plan to the CPU
// executor with the devices finding pairs, anything else whole to the
// least busy device. A plan that came without a GPU plan gets one here,
// for every device of the set.
func execute(ctx context.Context, p *planner.Physical, profiled bool) (*exec.Result, *QueryProfile, error) {
	if g := p.GPU; g != nil && g.Shape == planner.GPUEpsilonShape && !profiled {
		// Outside the devices' do: the CPU executor's workers call
		// the devices per batch.
		res, err := runEpsilonPlan(ctx, p)
		return res, nil, err
	}
	primary, err := getDevice()
	if err != nil {
		return nil, nil, fmt.Errorf("gpu: no GPU available: %v", err)
	}
	if p.GPU == nil {
		cp := *p
		cp.GPU = planner.PlanGPU(p, primary.setProfile())
		p = &cp
	}
	g := p.GPU
	if g.Split != nil && g.Refused == "" && g.Memory.NoFit == "" {
		return runSplit(ctx, p, profiled)
	}
	d, err := leastBusy(g.Devices)
	if err != nil {
		return nil, nil, err
	}
	return d.execute(ctx, p, profiled)
}

// execute runs the whole plan on d, profiled or not, counting its work in
// d's queue while it waits and runs.
func (d *device) execute(ctx context.Context, p *planner.Physical, profiled bool) (*exec.Result, *QueryProfile, error) {
	w := planWork(p.GPU)
	d.queued.Add(w)
	defer d.queued.Add(-w)
	d.served.Add(1)
	var res *exec.Result
	var prof *QueryProfile
	stepsTrace.begin()
	err := d.do(func() error {
		return d.profiled(profiled, func() (err error) {
			res, err = d.run(ctx, p)
			return err
		}, &prof)
	})
	stepsTrace.end()
	return res, prof, err
}

// profiled runs f inside the device's do between clearing and checking
// the overflow flag and, when on, under the kernel profiler, whose figures
// it leaves in *out.
func (d *device) profiled(on bool, f func() error, out **QueryProfile) error {
	if !on {
		d.clearOverflow()
		if err := f(); err != nil {
			return err
		}
		err := d.checkOverflow()
		hostSteps.mark("final-sync")
		return err
	}
	kp := d.startProfile()
	defer d.stopProfile(kp)
	if err := d.sync(); err != nil {
		return err
	}
	start := time.Now()
	d.clearOverflow()
	if err := f(); err != nil {
		return err
	}
	if err := d.sync(); err != nil {
		return err
	}
	prof := &QueryProfile{HBMGBs: d.profile.HBMGBs, WallMs: float64(time.Since(start).Nanoseconds()) / 1e6}
	if err := d.checkOverflow(); err != nil {
		return err
	}
	if err := kp.finish(prof); err != nil {
		return err
	}
	prof.HostMs = max(prof.WallMs-prof.KernelMs, 0)
	*out = prof
	return nil
}

// setProfile is the device's profile naming every device of the set, as
// plans made for this process see it; the device's own profile names
// none, so that plans made inside a running query (subqueries) stay on
// the device running it.
// forceNarrow (GPUSQL_FORCE_NARROW=on) keeps every narrowable star fact
// column narrow whether or not the 4-byte forms fit, so that bench can
// compare the two forms on one machine.
var forceNarrow = os.Getenv("GPUSQL_FORCE_NARROW") == "on"

func (d *device) setProfile() *planner.GPUProfile {
	p := *d.profile
	p.ForceNarrow = forceNarrow
	p.Devices = nil
	if n := DeviceCount(); n > 1 {
		for i := range n {
			p.Devices = append(p.Devices, i)
		}
	}
	return &p
}
